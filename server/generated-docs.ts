/**
 * The documents generated from the built app (`npm run routes -- --write`; a test fails when one is
 * stale): docs/routes.md, every route and realtime operation; docs/runtime.md, the jobs, domain events
 * and hooks.
 */
import type { FastifyInstance } from 'fastify';
import { renderRouteTable } from './platform/http/route-table';
import { renderRuntimeTable, scanDomainEvents } from './platform/runtime-table';

export function generatedDocs(app: FastifyInstance): Record<'docs/routes.md' | 'docs/runtime.md', string> {
  return {
    'docs/routes.md': renderRouteTable(app.routeTable, app.modules.realtime),
    'docs/runtime.md': renderRuntimeTable({ jobs: app.jobs, listeners: app.domainEvents.listeners(), hooks: app.modules.hooks, events: scanDomainEvents() }),
  };
}
