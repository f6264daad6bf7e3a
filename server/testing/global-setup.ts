/** Vitest global setup of the integration projects: one migrated template database per run, and which services are missing. */
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
  const [template, absent] = await Promise.all([
    createTemplate(kind, process.env.TEST_DATABASE_URL),
    absentServices(['postgres', 'redis', 'redis-server', 'nginx']),
  ]);
  project.provide('dbTemplate', template);
  project.provide('absentServices', absent);
  return async () => dropTemplate(template);
}
