/**
 * Jobs run where their role says (decision 0051): an API instance runs none, a worker the housekeeping,
 * settlements, renewals and the event outbox; each run shows in the metrics and, from any instance, in
 * the console (administrators only: 404 to anyone else).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../testing/eventually';
import { startTestApp, type SignedInUser, type TestApp } from '../../testing/harness';
import { recordJobRun } from './job-runs';

interface ConsoleJob { name: string; roles: string[]; runs: number; failures: number; last_started_at: string | null; last_error: string | null; last_failed_at: string | null }

let api: TestApp;
let worker: TestApp;
let admin: SignedInUser;
beforeAll(async () => {
  [api, worker] = await Promise.all([startTestApp({ ROLE: 'api' }), startTestApp({ ROLE: 'worker' })]);
  admin = await worker.given.signedInUser({ role: 'admin' });
});
afterAll(async () => {
  await api?.close();
  await worker?.close();
});

const metricsOf = async (t: TestApp) => (await t.app.inject({ url: '/metrics' })).body;
const consoleJobs = async () => (await admin.client.get('/api/admin/jobs')).body.jobs as ConsoleJob[];

describe('jobs by role', () => {
  it('runs no job on an API instance, and the housekeeping, settlements, renewals and outbox on a worker', async () => {
    expect(api.app.jobs.length).toBeGreaterThan(10);
    expect(api.app.localJobs).toEqual([]);
    const onWorker = worker.app.localJobs.map((job) => job.name);
    expect(onWorker).toEqual(expect.arrayContaining([
      'event-outbox', 'purge-throttle-events', 'purge-expired-sessions', 'settle-ad-commissions', 'settle-referral-commissions',
      'subscription-renewals', 'renew-coin-subscriptions', 'deliver-notifications',
    ]));
    // Nothing is left out between the roles: an api+media+worker deployment runs every job.
    const media = worker.app.jobs.filter((job) => job.roles.includes('media')).map((job) => job.name);
    expect(new Set([...onWorker, ...media])).toEqual(new Set(worker.app.jobs.map((job) => job.name)));
  });

  it('counts a worker\'s runs in its metrics, and none on an API instance', async () => {
    const ran = /limelight_job_runs_total\{job="event-outbox",outcome="ok"\} [1-9]/;
    expect(await eventually(() => metricsOf(worker), (text) => ran.test(text), 15_000)).toMatch(ran);
    expect(await metricsOf(worker)).toMatch(/limelight_job_last_run_timestamp_seconds\{job="event-outbox"\} \d/);
    expect(await metricsOf(api)).not.toMatch(/limelight_job_runs_total\{/);
  });

  it('shows every job in the console with its roles and runs, a failure\'s message kept after later runs succeed', async () => {
    const outbox = (jobs: ConsoleJob[]) => jobs.find((job) => job.name === 'event-outbox');
    const seen = await eventually(consoleJobs, (jobs) => (outbox(jobs)?.runs ?? 0) > 0, 15_000);
    expect(outbox(seen)).toMatchObject({ roles: ['worker'], failures: 0, last_error: null, last_started_at: expect.any(String) });
    expect(seen.map((job) => job.name)).toEqual(worker.app.jobs.map((job) => job.name));

    const nonces = worker.app.jobs.find((job) => job.name === 'purge-toy-callback-nonces')!;
    const startedAt = new Date();
    await recordJobRun(worker.resources.database.db, { job: nonces, startedAt, durationMs: 12.4, error: new Error('database away') });
    await recordJobRun(worker.resources.database.db, { job: nonces, startedAt: new Date(), durationMs: 3 });
    expect((await consoleJobs()).find((job) => job.name === nonces.name)).toMatchObject({
      runs: 2, failures: 1, last_error: 'database away', last_failed_at: startedAt.toISOString(),
    });
  });

  it('tells no one but administrators that the jobs exist', async () => {
    expect((await worker.client().get('/api/admin/jobs')).status).toBe(404);
    const plain = await worker.given.signedInUser();
    expect((await plain.client.get('/api/admin/jobs')).status).toBe(404);
    const moderators = await worker.given.moderators();
    expect((await moderators.granter.client.get('/api/admin/jobs')).status).toBe(404);
  });
});
