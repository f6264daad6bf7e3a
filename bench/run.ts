/** `npm run bench`: runs every benchmark in turn; each writes bench/results/<name>.json. */
import { spawnSync } from 'node:child_process';

const BENCHMARKS = [
  'bench/http-baseline.ts',
  'bench/reads.ts',
  'bench/reads-autocannon.ts',
  'bench/user-search.ts',
  'bench/ingest.ts',
  'bench/chat-fanout.ts',
  'bench/memory.ts',
  'bench/startup.ts',
  'bench/tips.ts',
  'bench/session-revocation.ts',
  'bench/renewals.ts',
  'bench/show-billing.ts',
  'bench/uploads.ts',
  'bench/transcode.ts',
  'bench/first-visit.ts',
  'bench/page-weight.ts',
  'bench/live-latency.ts',
  'bench/browser-live.ts',
  'bench/meetings.ts',
  'bench/toy-commands.ts',
  'bench/ad-presentation.ts',
  'bench/analytics.ts',
  'bench/notifications.ts',
  'bench/edge-cache.ts',
  'bench/chat-filter.ts',
];
let failed = 0;
for (const file of BENCHMARKS) {
  console.log(`\n▶ ${file}`);
  const result = spawnSync('npx', ['tsx', file], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
