/**
 * `describe` for a suite that needs services besides Node (server/testing/services.ts). Where one is
 * missing the suite is skipped with why in its name, so the test summary says which suite did not run
 * and why; with CI=true it fails instead, naming what is missing (decision 0053).
 */
import { describe, inject, it, type TestOptions } from 'vitest';
import { describeAbsence, mustRunEverything, type Service } from './services';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The services missing in this run, asked once by the integration projects' global setup. */
    absentServices: Partial<Record<Service, string>>;
  }
}

type Body = () => void;

export function suiteNeeding(...services: Service[]) {
  const absent = inject('absentServices');
  if (!absent) throw new Error('suiteNeeding() runs in the integration projects, whose global setup asks after the services');
  const missing = describeAbsence(absent, services);
  return (name: string, ...rest: [Body] | [TestOptions, Body]) => {
    if (!missing) return describe(name, ...(rest as [TestOptions, Body]));
    if (mustRunEverything()) {
      return describe(name, () => {
        it('has the services it needs', () => {
          throw new Error(`${missing} (CI=true: a suite that cannot run fails)`);
        });
      });
    }
    return describe.skip(`${name} [skipped: ${missing}]`, ...(rest as [TestOptions, Body]));
  };
}

const ON_POSTGRES_ONLY = '[runs in the PostgreSQL project]';
const onPostgres = () => inject('dbTemplate').kind === 'postgres';

/** A suite about PostgreSQL itself (several backends, a server to lose): in the embedded project, skipped saying where it runs. */
export function suiteOnPostgres(name: string, ...rest: [Body] | [TestOptions, Body]) {
  return onPostgres() ? describe(name, ...(rest as [TestOptions, Body])) : describe.skip(`${name} ${ON_POSTGRES_ONLY}`, ...(rest as [TestOptions, Body]));
}

/** One such test in a suite that runs on both databases. */
export function testOnPostgres(name: string, body: () => Promise<void>, options?: TestOptions) {
  return onPostgres() ? it(name, options, body) : it.skip(`${name} ${ON_POSTGRES_ONLY}`, options, body);
}
