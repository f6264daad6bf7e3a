/** Vitest global setup of the browser journeys: one migrated embedded database per run, copied for each journey's server. */
import type { TestProject } from 'vitest/node';
import { createTemplate, dropTemplate } from '../server/testing/databases';

declare module 'vitest' {
  export interface ProvidedContext {
    e2eDatabaseTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const template = await createTemplate('pglite');
  if (template.kind !== 'pglite') throw new Error('expected an embedded database template');
  project.provide('e2eDatabaseTemplate', template.dir);
  return async () => dropTemplate(template);
}
