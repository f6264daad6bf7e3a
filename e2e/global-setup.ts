/**
 * Vitest global setup of the browser journeys: one migrated database per run, copied for each journey's
 * server — embedded, or on PostgreSQL when E2E_DATABASE=postgres and TEST_DATABASE_URL names a server; or
 * the one E2E_DATABASE_TEMPLATE names (`npm test` makes one for all its journey runs, as JSON).
 */
import type { TestProject } from 'vitest/node';
import type { DatabaseTemplate } from '../server/testing/databases';

declare module 'vitest' {
  export interface ProvidedContext {
    e2eDatabaseTemplate: DatabaseTemplate;
  }
}

export default async function setup(project: TestProject) {
  const given = process.env.E2E_DATABASE_TEMPLATE;
  if (given) {
    project.provide('e2eDatabaseTemplate', JSON.parse(given) as DatabaseTemplate);
    return undefined;
  }
  // Loaded only to make a template: it brings the whole server's modules (some 5 s), which a run given one does without.
  const { createTemplate, dropTemplate } = await import('../server/testing/databases');
  const template = await createTemplate(process.env.E2E_DATABASE === 'postgres' ? 'postgres' : 'pglite', process.env.TEST_DATABASE_URL);
  project.provide('e2eDatabaseTemplate', template);
  return async () => dropTemplate(template);
}
