/** One platform process of a local deployment: the compiled server when built (`npm run build`), else through tsx. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import path from 'node:path';

export type Role = 'api' | 'media' | 'worker';

export interface Instance {
  name: string;
  role: Role;
  port: number;
  url: string;
  process: ChildProcess;
  /** Resolves when the process has ended, however it ended. */
  exited: Promise<void>;
  /** SIGKILL: the instance vanishes as a crashed machine would. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

const COMPILED = 'dist/server/main.js';

/** How a process starts: `node dist/server/main.js` after the production build, `node --import tsx server/main.ts` without one. */
export function serverCommand(root: string): { args: string[]; compiled: boolean } {
  const compiled = existsSync(path.join(root, COMPILED));
  return { args: compiled ? [COMPILED] : ['--import', 'tsx', 'server/main.ts'], compiled };
}

export async function startInstance(root: string, name: string, role: Role, port: number, env: Record<string, string>, logDir: string): Promise<Instance> {
  const log = openSync(path.join(logDir, `${name}.log`), 'a');
  const child = spawn(process.execPath, serverCommand(root).args, {
    cwd: root,
    env: { ...process.env, ...env, ROLE: role, PORT: String(port) },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited during start: see ${path.join(logDir, `${name}.log`)}`);
    if (await fetch(`${url}/readyz`).then((r) => r.ok).catch(() => false)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not become ready: see ${path.join(logDir, `${name}.log`)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { name, role, port, url, process: child, exited, kill: () => end('SIGKILL'), stop: () => end('SIGTERM') };
}
