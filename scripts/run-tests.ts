/**
 * `npm test`: typecheck, lint, unit and integration tests (also on PostgreSQL when TEST_DATABASE_URL
 * is set, and then the crash test, scripts/crash-test.ts), the web build and the browser journeys.
 * Ends with one summary line "N passed, N failed".
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureChromium, ensureFfmpeg } from './system-tools';

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

/** Stages that share nothing run side by side; each one's output is printed whole when it ends. */
async function runTogether(stages: Array<{ stage: string; command: string; args: string[] }>): Promise<void> {
  await Promise.all(stages.map(({ stage, command, args }) => new Promise<void>((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code) => {
      const ok = code === 0;
      console.log(`\n▶ ${stage}: ${command} ${args.join(' ')}\n${Buffer.concat(output).toString()}${ok ? '✔' : '✘'} ${stage} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      if (!ok) failedStages.push(stage);
      resolve();
    });
  })));
}

function vitest(stage: string, args: string[]) {
  const report = path.join(reportsDir, `${stage.replace(/\W+/g, '-')}.json`);
  run(stage, 'npx', ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]);
  if (!existsSync(report)) return;
  const r = JSON.parse(readFileSync(report, 'utf8')) as VitestReport;
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests;
  totals.skipped += r.numPendingTests + r.numTodoTests;
}

// The RTMP ingest tests push video with ffmpeg: Debian's when it can be had (the media code falls back to the npm-shipped one).
if (!ensureFfmpeg()) console.warn('Continuing with the npm-shipped ffmpeg.');

await runTogether([
  { stage: 'typecheck', command: 'npx', args: ['tsc', '-p', 'tsconfig.json', '--noEmit'] },
  { stage: 'lint', command: 'npx', args: ['eslint', '.'] },
]);
vitest('unit', ['--project', 'unit']);
vitest('integration', ['--project', 'integration*']);
// The crash test (kill -9 under tip load, then the books): one test, on PostgreSQL only.
if (process.env.TEST_DATABASE_URL) {
  if (run('crash test', 'npx', ['tsx', 'scripts/crash-test.ts'])) totals.passed += 1;
  else totals.failed += 1;
}
if (run('web build', 'npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'])) {
  // The journeys need a Chromium: installed here when missing and possible, else the stage fails saying how.
  const chromium = ensureChromium();
  if (chromium) {
    process.env.CHROMIUM_PATH = chromium;
    vitest('browser journeys', ['--config', 'e2e/vitest.config.ts']);
  } else {
    failedStages.push('browser journeys (no Chromium)');
  }
}

console.log(`\nStages failed: ${failedStages.length === 0 ? 'none' : failedStages.join(', ')}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedStages.length === 0 && totals.failed === 0 ? 0 : 1);
