import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assertDistinctJobs, jobsOfRole, startJobs, type Job, type JobRun } from './scheduler';

const job = (name: string, roles: Job['roles'], run: () => Promise<void> = async () => {}): Job => ({ name, everyMs: 1000, roles, run });
const log = { warn: vi.fn() } as unknown as Parameters<typeof startJobs>[1]['log'];

describe('jobs by role', () => {
  const jobs = [job('outbox', ['worker']), job('ingest-sweep', ['media']), job('both', ['media', 'worker'])];

  it('gives an API instance no job, media and worker instances theirs, and ROLE=all every one', () => {
    expect(jobsOfRole(jobs, 'api')).toEqual([]);
    expect(jobsOfRole(jobs, 'media').map((j) => j.name)).toEqual(['ingest-sweep', 'both']);
    expect(jobsOfRole(jobs, 'worker').map((j) => j.name)).toEqual(['outbox', 'both']);
    expect(jobsOfRole(jobs, 'all').map((j) => j.name)).toEqual(['outbox', 'ingest-sweep', 'both']);
  });

  it('refuses two jobs of one name and a job no role runs', () => {
    expect(() => assertDistinctJobs([job('a', ['worker']), job('a', ['media'])])).toThrow('two jobs are named "a"');
    expect(() => assertDistinctJobs([job('lonely', [])])).toThrow('job "lonely" names no role that runs it');
  });
});

describe('the scheduler', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reports each run with its duration, and a failing run with its error, and keeps running after it', async () => {
    const runs: JobRun[] = [];
    let calls = 0;
    const flaky = job('flaky', ['worker'], async () => {
      calls += 1;
      if (calls === 1) throw new Error('database away');
    });
    const stop = startJobs([flaky], { log, onRun: (run) => void runs.push(run) });
    await vi.advanceTimersByTimeAsync(1000);
    await vi.advanceTimersByTimeAsync(1000);
    stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(runs.map((r) => [r.job.name, r.error instanceof Error ? r.error.message : 'ok'])).toEqual([['flaky', 'database away'], ['flaky', 'ok']]);
    expect(runs.every((r) => r.durationMs >= 0 && r.startedAt instanceof Date)).toBe(true);
  });

  it('goes on when a run cannot be recorded', async () => {
    let ran = 0;
    const stop = startJobs([job('counted', ['worker'], async () => void (ran += 1))], {
      log,
      onRun: () => Promise.reject(new Error('not recorded')),
    });
    await vi.advanceTimersByTimeAsync(3000);
    stop();
    expect(ran).toBe(3);
  });
});
