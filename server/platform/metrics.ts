/** Prometheus metrics at GET /metrics: process defaults, request counts and durations, and the jobs' runs. */
import { ACCESS } from './http/access';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { sendError } from './http/error-handler';
import type { RouteDocs } from './http/openapi';
import type { JobRun } from './jobs/scheduler';

const metricsDocs: RouteDocs = {
  description: 'Only from this machine (a loopback address, not through a proxy), or with `Authorization: Bearer <METRICS_TOKEN>` when that is set.',
  refusals: [403],
  responses: {
    200: {
      description: 'Prometheus text exposition format: request counts and durations per route, process metrics.',
      content: { 'text/plain': { schema: { type: 'string' } } },
    },
  },
};

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** Who may read the metrics: a bearer of the token when one is set; else a caller on this machine, not forwarded by a proxy. */
function mayReadMetrics(request: FastifyRequest, token: string | undefined): boolean {
  if (token !== undefined) {
    const given = Buffer.from(request.headers.authorization ?? '');
    const expected = Buffer.from(`Bearer ${token}`);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
  return LOOPBACK.test(request.ip) && request.headers['x-forwarded-for'] === undefined;
}

export function installMetrics(app: FastifyInstance, options: { token?: string } = {}): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'limelight_http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const requests = new Counter({
    name: 'limelight_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { schema: { tags: ['operations'], summary: 'Prometheus metrics' }, config: { access: ACCESS.operations, openapi: metricsDocs } }, async (request, reply) => {
    if (!mayReadMetrics(request, options.token)) return sendError(reply, 'forbidden');
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
  return registry;
}

/** Counts this instance's job runs, their failures and durations, and when each last ran (the scheduler's `onRun`). */
export function observeJobRuns(registry: Registry): (run: JobRun) => void {
  const runs = new Counter({ name: 'limelight_job_runs_total', help: 'Job runs by job and outcome (ok, failed)', labelNames: ['job', 'outcome'], registers: [registry] });
  const duration = new Histogram({
    name: 'limelight_job_duration_seconds',
    help: 'Job run duration by job',
    labelNames: ['job'],
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
    registers: [registry],
  });
  const lastRun = new Gauge({ name: 'limelight_job_last_run_timestamp_seconds', help: 'When each job last started (Unix time)', labelNames: ['job'], registers: [registry] });
  const lastFailure = new Gauge({ name: 'limelight_job_last_failure_timestamp_seconds', help: 'When each job last failed (Unix time)', labelNames: ['job'], registers: [registry] });
  return (run) => {
    const job = run.job.name;
    const failed = run.error !== undefined;
    runs.inc({ job, outcome: failed ? 'failed' : 'ok' });
    duration.observe({ job }, run.durationMs / 1000);
    lastRun.set({ job }, run.startedAt.getTime() / 1000);
    if (failed) lastFailure.set({ job }, run.startedAt.getTime() / 1000);
  };
}
