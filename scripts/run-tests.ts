/**
 * `npm test`: the unit tests first, alone; then the ordinary integration tests (also on PostgreSQL when
 * TEST_DATABASE_URL is set) beside the web build, with typecheck and lint at the lowest priority; then the
 * real-time integration suites, one file at a time, with the first lane of browser journeys beside them at
 * a lower priority (decision 0090); then the crash tests (scripts/crash-test.ts and
 * scripts/notifications-crash-test.ts), the fault suite's quick part (scripts/faults.ts with FAULTS_QUICK=1),
 * these three with PostgreSQL, and the page weight budget, in turn beside the first lane; the second lane,
 * taking journey files from the same queue, once those are done. The journeys use the embedded database
 * until the checks are done and PostgreSQL (when given) after.
 * Ends with what did not run and why (a missing service, a suite that runs elsewhere), the run's time and
 * CPU, and one summary line "N passed, N failed, N skipped". With CI=true a missing service fails the run
 * (decision 0053).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { createTemplate, dropTemplate, type DatabaseTemplate } from '../server/testing/databases';
import { absentServices, describeAbsence, mustRunEverything } from '../server/testing/services';
import { buildServer } from './build-server';
import { ensureChromium, ensureFfmpeg, ensureFullChromium } from './system-tools';
import { skippedGroups, type SkippedGroup, type VitestReport } from './test-report';

/**
 * CPU seconds of this run's ended children (and theirs), from /proc (Linux): the figure a 2-core budget is
 * spent against. Null where /proc is not there.
 */
function childrenCpuSeconds(): number | null {
  if (!existsSync('/proc/self/stat')) return null;
  // Fields after the command's closing parenthesis; cutime and cstime are the 16th and 17th of the line.
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}
const runStarted = Date.now();

const reportsDir = path.resolve('.tmp/test-reports');
rmSync(reportsDir, { recursive: true, force: true });
mkdirSync(reportsDir, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const failedStages: string[] = [];
/** Whole stages or projects that did not run, with why; the suites skipped inside a vitest run come from its report. */
const notRun: Array<{ what: string; why: string }> = [];
const skipped: SkippedGroup[] = [];

interface Stage {
  stage: string;
  command: string;
  args: string[];
  /** Called with whether the stage passed, when it has ended. */
  done?: (ok: boolean) => void;
  /** Its output printed as it comes (one stage of a group at most), not whole at the end. */
  live?: boolean;
  /** Added to this process's environment. */
  env?: Record<string, string>;
}

/** Stages that share nothing run side by side; each one's output is printed whole when it ends (or live). */
async function runTogether(stages: Stage[]): Promise<void> {
  await Promise.all(stages.map(({ stage, command, args, done, live, env }) => new Promise<void>((resolve) => {
    const started = Date.now();
    if (live) console.log(`\n▶ ${stage}: ${command} ${args.join(' ')}`);
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe'] });
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
      skipped.push(...skippedGroups(r, process.cwd()));
    },
  };
}

/** A check that is one test: a stage whose pass or failure joins the totals as one. */
function checkStage(stage: string, script: string, env?: Record<string, string>): Stage {
  return {
    stage,
    command: 'npx',
    args: ['tsx', script],
    env,
    done: (ok) => {
      if (ok) totals.passed += 1;
      else totals.failed += 1;
    },
  };
}

/** Stages one after another, as one group. */
async function runInTurn(stages: Stage[]): Promise<void> {
  for (const stage of stages) await runTogether([stage]);
}

/** The journey files, biggest first: a file's size stands for its length, so that the two lanes end close together. */
function journeyQueue(): string[] {
  const files = readdirSync('e2e')
    .filter((name) => name.endsWith('.e2e.ts'))
    .map((name) => `e2e/${name}`);
  return files.sort((a, b) => statSync(b).size - statSync(a).size || a.localeCompare(b));
}

/** Journey files per vitest run: each run starts vitest and loads the server's modules (some 4 s). */
const JOURNEYS_PER_RUN = 4;

/** One vitest run of these journey files, in that environment, at the priority `priority` gives it. */
function runJourneys(files: string[], runEnv: Record<string, string>, priority: (stage: Stage) => Stage = (stage) => stage): Promise<void> {
  const names = files.map((file) => path.basename(file, '.e2e.ts')).join(', ');
  const where = runEnv.E2E_DATABASE_TEMPLATE?.includes('"postgres"') ? ', PostgreSQL' : '';
  return runTogether([priority({ ...vitestStage(`browser journeys (${names}${where})`, ['--config', 'e2e/vitest.config.ts', ...files]), env: runEnv })]);
}

/**
 * Takes the next few files from the shared queue and runs them, one vitest run after another, until none is
 * left; `env()` is asked before each run (the database the journeys use may change during the stage).
 */
async function journeyLane(queue: string[], env: () => Record<string, string>): Promise<void> {
  for (let files = queue.splice(0, JOURNEYS_PER_RUN); files.length > 0; files = queue.splice(0, JOURNEYS_PER_RUN)) await runJourneys(files, env());
}

// The RTMP ingest tests push video with ffmpeg: Debian's when it can be had (the media code falls back to the npm-shipped one).
if (!ensureFfmpeg()) console.warn('Continuing with the npm-shipped ffmpeg.');
// The journeys need a Chromium: installed here when missing and possible, else their stage fails saying how.
const chromium = ensureChromium();
const fullChromium = ensureFullChromium();
if (chromium && fullChromium) {
  process.env.CHROMIUM_PATH = chromium;
  process.env.CHROMIUM_FULL_PATH = fullChromium;
}

// The services the suites need, asked once: what is missing is named in the summary; with CI=true it fails the run.
const absent = await absentServices(['postgres', 'redis', 'redis-server', 'ffmpeg', 'nginx']);
if (Object.keys(absent).length > 0) {
  console.log(`Missing: ${describeAbsence(absent)}`);
  if (mustRunEverything()) failedStages.push(`services (CI=true): ${describeAbsence(absent)}`);
}
const postgresAbsent = absent.postgres;
if (postgresAbsent !== undefined) {
  // Given but not answering: locally the PostgreSQL projects and checks are left out, named, rather than failing at setup.
  if (!mustRunEverything()) delete process.env.TEST_DATABASE_URL;
  notRun.push({ what: 'integration projects integration-postgres and integration-postgres-media', why: `PostgreSQL: ${postgresAbsent}` });
  notRun.push({ what: 'crash test, notifications crash test, fault suite (quick)', why: `PostgreSQL: ${postgresAbsent}` });
}

// The unit tests first, on an idle machine: a few of them measure how a loop shares its time, which a
// machine busy with journeys would distort.
await runTogether([vitestStage('unit', ['--project', 'unit'])]);
// The servers the suites start as processes (crash tests, faults, several instances) run the production
// build, as a deployment does, made once here (decision 0067): a start costs half the CPU of tsx's.
process.env.TEST_SERVER_BUILD = (await buildServer()).file;
// One migrated embedded database for the integration projects and the journeys alike (migrating one costs
// some 14 s of CPU here).
const embeddedTemplate = await createTemplate('pglite');
if (embeddedTemplate.kind !== 'pglite') throw new Error('expected an embedded database template');
// The web build needs nothing the integration tests use: it runs beside them.
let webBuilt = false;
/**
 * Typecheck and lint (some 200 s of one core together) at the lowest priority beside the integration tests:
 * they take what the tests leave, chiefly the second core while the real-time suites run one file at a time,
 * and never the CPU those suites time themselves on.
 */
const niced = (niceness: number, stage: Stage): Stage =>
  process.platform === 'linux' ? { ...stage, command: 'nice', args: ['-n', String(niceness), stage.command, ...stage.args] } : stage;
const lowPriority = (stage: Stage): Stage => niced(19, stage);
const staticChecks: Stage[] = [
  { stage: 'typecheck', command: 'npx', args: ['tsc', '-p', 'tsconfig.json', '--noEmit'] },
  { stage: 'lint', command: 'npx', args: ['eslint', '.'] },
].map(lowPriority);
const withPostgres = Boolean(process.env.TEST_DATABASE_URL);
const projects = (...names: string[]) => names.flatMap((name) => ['--project', name]);
const integrationEnv = { TEST_PGLITE_TEMPLATE: embeddedTemplate.dir };
const staticChecksDone = runInTurn(staticChecks);
await runTogether([
  { ...vitestStage('integration', projects('integration', ...(withPostgres ? ['integration-postgres'] : []))), live: true, env: integrationEnv },
  { stage: 'web build', command: 'npx', args: ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], done: (ok) => (webBuilt = ok) },
]);
// The real-time suites (`integration*-media`: ffmpeg at its own pace, instances killed, leases running out)
// run one file at a time, with nothing of equal priority beside them: beside journeys they missed their
// moments (decision 0056). They leave most of the machine idle, so the first journey lane runs beside them
// at a lower priority (decision 0090).
let realTimeRunning = true;
const realTime = runTogether([
  { ...vitestStage('integration (real-time)', projects('integration-media', ...(withPostgres ? ['integration-postgres-media'] : []))), live: true, env: integrationEnv },
]).then(() => {
  realTimeRunning = false;
});
// The journeys spend much of their time waiting on a browser and a stream, so the crash tests and the page
// budgets run beside them.
const besideJourneys: Stage[] = [];
if (withPostgres) {
  // Kill -9 under tip load, then the books; kill -9 while a go-live is fanned out and mailed, then every
  // follower told exactly once. On PostgreSQL only.
  besideJourneys.push(checkStage('crash test', 'scripts/crash-test.ts'), checkStage('notifications crash test', 'scripts/notifications-crash-test.ts'));
  // The fault suite's quick part (decision 0045): two instances, 100 sockets, each fault in turn, nothing acknowledged lost.
  besideJourneys.push(checkStage('fault suite (quick)', 'scripts/faults.ts', { FAULTS_QUICK: '1' }));
}
let journeys = false;
if (!webBuilt) {
  notRun.push({ what: 'browser journeys, page weight budget', why: 'the web build failed' });
} else {
  // Sizes, not timings: each main page's gzip'd JavaScript against its budget (scripts/page-weight.ts).
  besideJourneys.push(checkStage('page weight budget', 'scripts/page-weight.ts'));
  if (chromium && fullChromium) journeys = true;
  else failedStages.push('browser journeys (no Chromium)');
}
if (journeys) {
  // Two lanes take journey files from one queue (decision 0060): the first from the real-time suites' start,
  // the second once the checks are done, so the second core is not left idle for the journeys' last half.
  // On the embedded database while the checks run (the fault suite drives PostgreSQL to its limits, decision
  // 0071), on PostgreSQL once they are done: a journey's server then spends a third less CPU (decision 0072).
  const queue = journeyQueue();
  const url = process.env.TEST_DATABASE_URL;
  // Migrated while the first journeys and the checks run.
  const postgresTemplate = url
    ? createTemplate('postgres', url).catch((error: unknown) => {
        console.warn(`The journeys stay on the embedded database: no PostgreSQL template (${String(error)})`);
        return null;
      })
    : Promise.resolve(null);
  let template: DatabaseTemplate = embeddedTemplate;
  const env = () => ({ E2E_DATABASE_TEMPLATE: JSON.stringify(template) });
  // Beside the real-time suites, one file a run at a lower priority (nice 10: they yield the CPU the suites
  // time themselves on and take what they leave idle), so that the last such run ends soon after them.
  const besideRealTime = (async () => {
    while (realTimeRunning && queue.length > 0) await runJourneys(queue.splice(0, 1), env(), (stage) => niced(10, stage));
  })();
  // The checks then run beside the first lane alone: they time themselves too, and each starts servers of its own.
  const checks = Promise.all([realTime, staticChecksDone, besideRealTime]).then(() => runInTurn(besideJourneys));
  const checked = checks.then(async () => {
    template = (await postgresTemplate) ?? embeddedTemplate;
  });
  await Promise.all([besideRealTime.then(() => journeyLane(queue, env)), checked.then(() => journeyLane(queue, env))]);
  if (template !== embeddedTemplate) await dropTemplate(template);
} else {
  await Promise.all([realTime, staticChecksDone]);
  await runInTurn(besideJourneys);
}
await dropTemplate(embeddedTemplate);

if (notRun.length + skipped.length > 0) {
  console.log('\nNot run:');
  for (const { what, why } of notRun) console.log(`  ${what}: ${why}`);
  for (const { where, tests, why } of skipped) console.log(`  ${where} (${tests} test${tests === 1 ? '' : 's'}): ${why}`);
}
console.log(`\nStages failed: ${failedStages.length === 0 ? 'none' : failedStages.join(', ')}`);
const cpu = childrenCpuSeconds();
const wall = (Date.now() - runStarted) / 1000;
if (cpu !== null) console.log(`time: ${wall.toFixed(0)} s, ${cpu.toFixed(0)} s of CPU (${(cpu / wall).toFixed(2)} cores busy on average)`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedStages.length === 0 && totals.failed === 0 ? 0 : 1);
