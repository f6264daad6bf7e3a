/**
 * `npm test`: typecheck, lint and unit tests side by side, integration tests (also on PostgreSQL when
 * TEST_DATABASE_URL is set) beside the web build, then the crash tests (scripts/crash-test.ts and
 * scripts/notifications-crash-test.ts, with PostgreSQL), the page weight budget and the browser journeys.
 * Ends with one summary line "N passed, N failed".
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureChromium, ensureFfmpeg, ensureFullChromium } from './system-tools';

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}

const reportsDir = path.resolve('.tmp/test-reports');
rmSync(reportsDir, { recursive: true, force: true });
mkdirSync(reportsDir, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const failedStages: string[] = [];

function run(stage: string, command: string, args: string[]): boolean {
  const started = Date.now();
  console.log(`\n▶ ${stage}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  const ok = result.status === 0;
  console.log(`${ok ? '✔' : '✘'} ${stage} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (!ok) failedStages.push(stage);
  return ok;
}

interface Stage {
  stage: string;
  command: string;
  args: string[];
  /** Called with whether the stage passed, when it has ended. */
  done?: (ok: boolean) => void;
  /** Its output printed as it comes (one stage of a group at most), not whole at the end. */
  live?: boolean;
}

/** Stages that share nothing run side by side; each one's output is printed whole when it ends (or live). */
async function runTogether(stages: Stage[]): Promise<void> {
  await Promise.all(stages.map(({ stage, command, args, done, live }) => new Promise<void>((resolve) => {
    const started = Date.now();
    if (live) console.log(`\n▶ ${stage}: ${command} ${args.join(' ')}`);
    const child = spawn(command, args, { env: process.env, stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe'] });
    const output: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code) => {
      const ok = code === 0;
      const header = live ? '' : `\n▶ ${stage}: ${command} ${args.join(' ')}\n${Buffer.concat(output).toString()}`;
      console.log(`${header}${ok ? '✔' : '✘'} ${stage} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      if (!ok) failedStages.push(stage);
      done?.(ok);
      resolve();
    });
  })));
}

/** A vitest run as a stage; its JSON report's counts join the totals. */
function vitestStage(stage: string, args: string[]): Stage {
  const report = path.join(reportsDir, `${stage.replace(/\W+/g, '-')}.json`);
  return {
    stage,
    command: 'npx',
    args: ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    done: () => {
      if (!existsSync(report)) return;
      const r = JSON.parse(readFileSync(report, 'utf8')) as VitestReport;
      totals.passed += r.numPassedTests;
      totals.failed += r.numFailedTests;
      totals.skipped += r.numPendingTests + r.numTodoTests;
    },
  };
}

function vitest(stage: string, args: string[]) {
  const { command, args: all, done } = vitestStage(stage, args);
  done!(run(stage, command, all));
}

// The RTMP ingest tests push video with ffmpeg: Debian's when it can be had (the media code falls back to the npm-shipped one).
if (!ensureFfmpeg()) console.warn('Continuing with the npm-shipped ffmpeg.');

// Three stages that each leave a core idle much of the time: side by side.
await runTogether([
  { stage: 'typecheck', command: 'npx', args: ['tsc', '-p', 'tsconfig.json', '--noEmit'] },
  { stage: 'lint', command: 'npx', args: ['eslint', '.'] },
  vitestStage('unit', ['--project', 'unit']),
]);
// The web build needs nothing the integration tests use: it runs beside them.
let webBuilt = false;
await runTogether([
  { ...vitestStage('integration', ['--project', 'integration*']), live: true },
  { stage: 'web build', command: 'npx', args: ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], done: (ok) => (webBuilt = ok) },
]);
// The crash tests (kill -9 under tip load, then the books; and mid-fan-out): on PostgreSQL only.
if (process.env.TEST_DATABASE_URL) {
  if (run('crash test', 'npx', ['tsx', 'scripts/crash-test.ts'])) totals.passed += 1;
  else totals.failed += 1;
  // Kill -9 while a go-live is fanned out and mailed, then every follower told exactly once.
  if (run('notifications crash test', 'npx', ['tsx', 'scripts/notifications-crash-test.ts'])) totals.passed += 1;
  else totals.failed += 1;
}
if (webBuilt) {
  // Sizes, not timings: each main page's gzip'd JavaScript against its budget (scripts/page-weight.ts).
  if (run('page weight budget', 'npx', ['tsx', 'scripts/page-weight.ts'])) totals.passed += 1;
  else totals.failed += 1;
  // The journeys need a Chromium: installed here when missing and possible, else the stage fails saying how.
  const chromium = ensureChromium();
  const fullChromium = ensureFullChromium();
  if (chromium && fullChromium) {
    process.env.CHROMIUM_PATH = chromium;
    process.env.CHROMIUM_FULL_PATH = fullChromium;
    vitest('browser journeys', ['--config', 'e2e/vitest.config.ts']);
  } else {
    failedStages.push('browser journeys (no Chromium)');
  }
}

console.log(`\nStages failed: ${failedStages.length === 0 ? 'none' : failedStages.join(', ')}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedStages.length === 0 && totals.failed === 0 ? 0 : 1);
