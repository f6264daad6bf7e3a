/**
 * A whole campaign over the app: every target gets its share of the inputs (slow routes — password
 * hashing — a smaller one), round after round when a time budget is given, each round with new seeds.
 */
import type { OpenAPIV3 } from 'openapi-types';
import type { TestApp } from '../harness';
import { fuzzTarget, newTally, seedFor } from './campaign';
import { fuzzTargets } from './targets';
import type { FuzzWorld } from './world';

/** Relative shares of the inputs; 1 unless named. Routes that hash a password on valid input cost ~50 ms a call. */
const WEIGHTS: Record<string, number> = {
  'POST /api/user/user-login': 0.5,
  'POST /api/user/user-register': 0.5,
  'POST /api/user/user-social-register': 0.5,
  'POST /api/user/reset-password': 0.5,
  // A signed-in logout ends the fuzzer's session: the next input signs in again (a password check).
  'POST /api/user/logout': 0.3,
  // Renders every metric (~40 ms); its only input is a token header.
  'GET /metrics': 0.3,
};

export interface CampaignOptions {
  /** Inputs in all (one round), or per round when `seconds` is set. */
  inputs: number;
  /** Keep running rounds until this many seconds have passed (0: one round). */
  seconds: number;
  seed: number;
  /** Only this route (`METHOD path`), to replay a failure. */
  only?: string;
  /** With `only`: the seed of that route's failing run, as the failure printed it. */
  replaySeed?: number;
}

export interface CampaignReport {
  inputs: number;
  routes: number;
  skipped: Array<{ route: string; why: string }>;
  seconds: number;
  byStatus: Record<string, number>;
  line: string;
}

export async function fuzzCampaign(t: TestApp, world: FuzzWorld, options: CampaignOptions): Promise<CampaignReport> {
  const { targets: all, skipped } = fuzzTargets(t.app.routeTable, t.app.swagger() as OpenAPIV3.Document);
  const chosen = (route: string) => options.only === undefined || route === options.only;
  const targets = all.filter((target) => chosen(`${target.method} ${target.path}`));
  const weightOf = (route: string) => WEIGHTS[route] ?? 1;
  const total = targets.reduce((sum, target) => sum + weightOf(`${target.method} ${target.path}`), 0);
  const tally = newTally();
  const started = Date.now();
  const deadline = started + options.seconds * 1_000;
  for (let round = 0; round === 0 || Date.now() < deadline; round++) {
    for (const [index, target] of all.entries()) {
      const route = `${target.method} ${target.path}`;
      if (!chosen(route)) continue;
      const numRuns = Math.max(10, Math.ceil((options.inputs * weightOf(route)) / total));
      const seed = options.replaySeed ?? seedFor(options.seed, round, index);
      try {
        await fuzzTarget(world, target, { numRuns, seed, tally });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(`fuzz failure on ${route} (round ${round}, seed ${seed}; replay: FUZZ_ROUTE='${route}' FUZZ_REPLAY_SEED=${seed} FUZZ_INPUTS=${numRuns})\n${message}`, { cause: error });
      }
      if (options.seconds > 0 && Date.now() >= deadline) break;
    }
  }
  const seconds = (Date.now() - started) / 1_000;
  const byStatus = Object.fromEntries([...tally.byStatus].sort(([a], [b]) => a - b).map(([status, n]) => [String(status), n]));
  return {
    inputs: tally.inputs,
    routes: tally.routes.size,
    skipped,
    seconds,
    byStatus,
    line: `fuzz: ${tally.inputs} inputs over ${tally.routes.size} routes in ${seconds.toFixed(1)} s (seed ${options.seed}); statuses ${JSON.stringify(byStatus)}`,
  };
}
