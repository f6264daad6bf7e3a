/**
 * The jobs' runs as the operator console shows them: one row per job, whichever instance ran it
 * (`job_runs`). A run that cannot be recorded (the database is away) is only missing from the table;
 * the metrics of the instance still count it.
 */
import os from 'node:os';
import { asc, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobRuns } from '../db/platform-tables';
import type { Job, JobRun } from './scheduler';

/** The error's message, kept short: the console shows it in a table cell. */
const ERROR_CHARS = 500;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, ERROR_CHARS) || 'failed';

const INSTANCE = `${os.hostname()}:${process.pid}`;

export async function recordJobRun(db: Db, run: JobRun): Promise<void> {
  const failed = run.error !== undefined;
  const values = {
    job: run.job.name,
    runs: 1,
    failures: failed ? 1 : 0,
    lastStartedAt: run.startedAt,
    lastDurationMs: Math.round(run.durationMs),
    lastError: failed ? messageOf(run.error) : null,
    lastFailedAt: failed ? run.startedAt : null,
    lastInstance: INSTANCE,
  };
  await db.insert(jobRuns).values(values).onConflictDoUpdate({
    target: jobRuns.job,
    set: {
      runs: sql`${jobRuns.runs} + 1`,
      failures: sql`${jobRuns.failures} + ${values.failures}`,
      lastStartedAt: values.lastStartedAt,
      lastDurationMs: values.lastDurationMs,
      // The last failure stays known after later runs succeed.
      lastError: failed ? values.lastError : sql`${jobRuns.lastError}`,
      lastFailedAt: failed ? values.lastFailedAt : sql`${jobRuns.lastFailedAt}`,
      lastInstance: values.lastInstance,
    },
  });
}

export interface JobStatus {
  name: string;
  everyMs: number;
  roles: readonly string[];
  runs: number;
  failures: number;
  lastStartedAt: Date | null;
  lastDurationMs: number | null;
  lastError: string | null;
  lastFailedAt: Date | null;
  lastInstance: string | null;
}

/** Every declared job with its recorded runs (none yet: zero runs), in the order given. */
export async function jobStatuses(db: Db, jobs: readonly Job[]): Promise<JobStatus[]> {
  const rows = new Map((await db.select().from(jobRuns).orderBy(asc(jobRuns.job))).map((row) => [row.job, row]));
  return jobs.map((job) => {
    const row = rows.get(job.name);
    return {
      name: job.name, everyMs: job.everyMs, roles: job.roles,
      runs: Number(row?.runs ?? 0), failures: Number(row?.failures ?? 0),
      lastStartedAt: row?.lastStartedAt ?? null, lastDurationMs: row?.lastDurationMs ?? null,
      lastError: row?.lastError ?? null, lastFailedAt: row?.lastFailedAt ?? null, lastInstance: row?.lastInstance ?? null,
    };
  });
}
