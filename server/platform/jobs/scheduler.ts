/** Periodic housekeeping jobs; each run is awaited before the next so runs never overlap. */
import type { FastifyBaseLogger } from 'fastify';

export interface Job {
  name: string;
  everyMs: number;
  run(): Promise<void>;
}

export function startJobs(jobs: Job[], log: FastifyBaseLogger): () => void {
  const timers = jobs.map((job) => {
    let running = false;
    const timer = setInterval(async () => {
      if (running) return;
      running = true;
      try {
        await job.run();
      } catch (err) {
        log.warn({ err, job: job.name }, 'job failed');
      } finally {
        running = false;
      }
    }, job.everyMs);
    timer.unref();
    return timer;
  });
  return () => timers.forEach(clearInterval);
}
