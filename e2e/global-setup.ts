/**
 * Vitest global setup of the browser journeys: one migrated embedded database per run, copied for each
 * journey's server; or the one E2E_DATABASE_TEMPLATE names (`npm test` makes one for all its journey runs).
 */
import type { TestProject } from 'vitest/node';
import { createTemplate, dropTemplate } from '../server/testing/databases';

declare module 'vitest' {
  export interface ProvidedContext {
    e2eDatabaseTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const given = process.env.E2E_DATABASE_TEMPLATE;
  if (given) {
    project.provide('e2eDatabaseTemplate', given);
    return undefined;
  }
  const template = await createTemplate('pglite');
  if (template.kind !== 'pglite') throw new Error('expected an embedded database template');
  project.provide('e2eDatabaseTemplate', template.dir);
  return async () => dropTemplate(template);
}
