/**
 * Property-based fuzzing of every route (server/testing/fuzz): valid and schema-violating bodies and
 * queries from each route's input schema, signed in with a CSRF token and anonymous. No answer is a
 * 5xx, failures are the JSON envelope, the books balance and a bystander's data is unchanged after,
 * and the process still answers. `npm run fuzz` runs a longer campaign with the same modules.
 *
 * A failure prints the route, its seed and the counterexample; replay it alone with the variables it names:
 * FUZZ_ROUTE='<METHOD path>' FUZZ_REPLAY_SEED=<seed> FUZZ_INPUTS=<runs> npx vitest run --project integration server/platform/http/fuzz.int.test.ts
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/harness';
import { fuzzCampaign, type CampaignReport } from '../../testing/fuzz/run';
import { createFuzzWorld, type FuzzWorld } from '../../testing/fuzz/world';
import { expectLedgerInvariants } from '../../testing/ledger-invariants';

const INPUTS = Number(process.env.FUZZ_INPUTS ?? 4_000);
const SECONDS = Number(process.env.FUZZ_SECONDS ?? 0);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const TIMEOUT_MS = Math.max(120_000, SECONDS * 1_000 * 1.5 + 60_000);

let t: TestApp;
let world: FuzzWorld;
let before: unknown;
beforeAll(async () => {
  t = await startTestApp();
  world = await createFuzzWorld(t);
  before = await world.snapshotBystander();
}, 60_000);
afterAll(() => t?.close());

describe('every route under fuzzed input', () => {
  let report: CampaignReport;

  it('never answers a 5xx, and answers failures with the JSON envelope', async () => {
    report = await fuzzCampaign(t, world, { inputs: INPUTS, seconds: SECONDS, seed: SEED, only: process.env.FUZZ_ROUTE,
      replaySeed: process.env.FUZZ_REPLAY_SEED ? Number(process.env.FUZZ_REPLAY_SEED) : undefined,
    });
    console.log(report.line);
    expect(report.inputs).toBeGreaterThanOrEqual(process.env.FUZZ_ROUTE ? 1 : INPUTS);
  }, TIMEOUT_MS);

  it('leaves the books balanced and the bystander\'s data as it was', async () => {
    await expectLedgerInvariants(t.resources.database.db);
    expect(await world.snapshotBystander()).toEqual(before);
  });

  it('still answers afterwards', async () => {
    const health = await t.client().get('/healthz');
    expect(health.status).toBe(200);
    const session = await (await world.fuzzer()).client.get('/api/user/check-user-session');
    expect(session.status).toBe(200);
  });
});
