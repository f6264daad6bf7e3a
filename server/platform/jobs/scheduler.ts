/**
 * Periodic jobs (decision 0051). Each job names the roles that own it: an instance runs the jobs of its
 * `ROLE` (`all` runs every one, `api` none: it serves HTTP only). Each run is awaited before the next so
 * runs never overlap on one instance; other instances are kept apart by the jobs' own row locks.
 * Every run is reported (`onRun`): the metrics and the console's job table read it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';

/** The roles that may own a job; an API instance owns none. */
export const JOB_ROLES = ['media', 'worker'] as const;
export type JobRole = (typeof JOB_ROLES)[number];

export interface Job {
  name: string;
  everyMs: number;
  /** The instance roles that run it (an instance with ROLE=all runs it too). */
  roles: readonly JobRole[];
  run(): Promise<void>;
}

/** A job with the module that declared it (`platform` for the platform's own). */
export type OwnedJob = Job & { module: string };

/** One finished run: when it started, how long it took, and its error when it failed. */
export interface JobRun {
  job: Job;
  startedAt: Date;
  durationMs: number;
  error?: unknown;
}

/** The jobs an instance of this role runs. */
export function jobsOfRole<J extends Job>(jobs: readonly J[], role: Config['role']): J[] {
  return role === 'all' ? [...jobs] : jobs.filter((job) => (job.roles as readonly string[]).includes(role));
}

/** A job's name is its key in the metrics and the console: two jobs of one name would be told apart by neither. */
export function assertDistinctJobs(jobs: readonly Job[]): void {
  const seen = new Set<string>();
  for (const job of jobs) {
    if (seen.has(job.name)) throw new Error(`two jobs are named "${job.name}": a job's name must be unique`);
    if (job.roles.length === 0) throw new Error(`job "${job.name}" names no role that runs it`);
    seen.add(job.name);
  }
}

/** Starts the jobs; answers how to stop them. */
export function startJobs(jobs: readonly Job[], options: { log: FastifyBaseLogger; onRun?: (run: JobRun) => void | Promise<void> }): () => void {
  const { log } = options;
  const report = async (run: JobRun) => {
    try {
      await options.onRun?.(run);
    } catch (err) {
      log.warn({ err, job: run.job.name }, 'job run not recorded');
    }
  };
  const timers = jobs.map((job) => {
    let running = false;
    const timer = setInterval(async () => {
      if (running) return;
      running = true;
      const startedAt = new Date();
      const started = performance.now();
      let error: unknown;
      try {
        await job.run();
      } catch (err) {
        error = err ?? new Error('job failed');
        log.warn({ err, job: job.name }, 'job failed');
      }
      await report({ job, startedAt, durationMs: performance.now() - started, ...(error === undefined ? {} : { error }) });
      running = false;
    }, job.everyMs);
    timer.unref();
    return timer;
  });
  return () => timers.forEach(clearInterval);
}
