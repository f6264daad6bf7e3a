/** Runs one ffmpeg child: stderr kept as a short tail (with a secret masked) for diagnostics. */
import { spawn, type ChildProcess } from 'node:child_process';

export interface FfmpegRun {
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Last stderr lines, secrets masked: for logs when something fails. */
  tail(): string;
}

export function runFfmpeg(
  ffmpegPath: string,
  args: string[],
  options: { mask?: string; onLine?: (line: string) => void; detached?: boolean; stdin?: boolean; stdout?: boolean } = {},
): FfmpegRun {
  // `detached`: its own process group, so a terminal's Ctrl-C reaches the caller alone (which stops it).
  // `stdin`/`stdout`: the input is written to the child (`-i pipe:0`), the output read from it (`pipe:1`);
  // -nostdin only turns off its keyboard commands.
  const stdio = [options.stdin ? 'pipe' : 'ignore', options.stdout ? 'pipe' : 'ignore', 'pipe'] as const;
  const child = spawn(ffmpegPath, ['-hide_banner', '-nostdin', '-nostats', ...args], { stdio: [...stdio], detached: options.detached ?? false });
  const lines: string[] = [];
  let partial = '';
  const mask = (line: string) => (options.mask ? line.replaceAll(options.mask, '***') : line);
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split(/\r?\n|\r/);
    partial = parts.pop() ?? '';
    for (const line of parts) {
      const safe = mask(line);
      lines.push(safe);
      if (lines.length > 20) lines.shift();
      options.onLine?.(safe);
    }
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(-1));
    child.once('exit', (code) => resolve(code));
  });
  return { child, exited, tail: () => lines.join('\n') };
}

/** Ends a child: SIGTERM, then SIGKILL if it lingers. */
export async function killFfmpeg(run: FfmpegRun, graceMs = 3000): Promise<void> {
  if (run.child.exitCode !== null || run.child.signalCode !== null) return;
  run.child.kill('SIGTERM');
  const timer = setTimeout(() => run.child.kill('SIGKILL'), graceMs);
  await run.exited;
  clearTimeout(timer);
}
