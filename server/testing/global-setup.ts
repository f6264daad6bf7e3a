/**
 * Vitest global setup of the integration projects: one migrated template database per run, and which services
 * are missing. The embedded template may be given (TEST_PGLITE_TEMPLATE: `npm test` migrates one for the
 * integration projects and the journeys alike); it is then left for whoever made it.
 */
import type { TestProject } from 'vitest/node';
import { createTemplate, dropTemplate, type DatabaseTemplate } from './databases';
import { absentServices } from './services';

declare module 'vitest' {
  export interface ProvidedContext {
    dbTemplate: DatabaseTemplate;
  }
}

export default async function setup(project: TestProject) {
  const kind = project.config.env?.TEST_DB_KIND === 'postgres' ? 'postgres' : 'pglite';
  const given = kind === 'pglite' ? process.env.TEST_PGLITE_TEMPLATE : undefined;
  const [template, absent] = await Promise.all([
    given ? ({ kind: 'pglite', dir: given } as const) : createTemplate(kind, process.env.TEST_DATABASE_URL),
    absentServices(['postgres', 'redis', 'redis-server', 'nginx']),
  ]);
  project.provide('dbTemplate', template);
  project.provide('absentServices', absent);
  return given ? undefined : async () => dropTemplate(template);
}
