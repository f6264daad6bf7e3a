/** Vitest global setup of the integration projects: one migrated template database per run. */
import type { TestProject } from 'vitest/node';
import { createTemplate, dropTemplate, type DatabaseTemplate } from './databases';

declare module 'vitest' {
  export interface ProvidedContext {
    dbTemplate: DatabaseTemplate;
  }
}

export default async function setup(project: TestProject) {
  const kind = project.config.env?.TEST_DB_KIND === 'postgres' ? 'postgres' : 'pglite';
  const template = await createTemplate(kind, process.env.TEST_DATABASE_URL);
  project.provide('dbTemplate', template);
  return async () => dropTemplate(template);
}
