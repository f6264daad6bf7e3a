/**
 * offer-presentation over HTTP on PostgreSQL with 10,000 offers: a stream carrying 20 of them, visitors at
 * 5,000 addresses asking for a banner; then 100 returning visitors asking and recording the impression,
 * as the stream page does, until the frequency cap answers them null (each offer once per window). Side by side, the same server's app-config (no database) and pgbench's
 * select-only run on the same PostgreSQL: the ratios say what the call costs against the machine.
 * Also an ordinary client: curl, one request after another.
 * Goal on the 2-core machine (16 concurrent viewers, load generator on the same machine): ≥ 300
 * presentations/s with p99 ≤ 150 ms.
 * Measured 2026-11-27: 631 presentations/s, p50 22 ms, p99 60 ms (app-config beside it 11,840/s: 0.05;
 * pgbench select-only 11,430 tps: 0.055); with the impression recorded after each, 286 rounds/s, p99 95 ms,
 * 2,000 shown and 863 answered null by the cap (100 viewers × 20 offers); curl alone: median 5.4 ms, p99 10.3 ms.
 * A first run with unawaited impression posts piled up requests beyond the 16 viewers: 100/s, p99 405 ms.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openResources } from '../server/bootstrap';
import { loadConfig } from '../server/config';
import type { Db } from '../server/platform/db/client';
import { HttpSession } from '../server/testing/http-session';
import { startServerProcess } from '../server/testing/server';
import { emptyPostgresDatabase } from '../server/testing/tip-load';
import { latencySummary, load, round, writeResult } from './lib';
import { runPgbench } from './pgbench';

const OFFERS = 10_000;
const ATTACHED = 20;
const ADDRESSES = 5_000;
const CONCURRENCY = 16;
const SECONDS = 10;
const CURL_REQUESTS = 200;
/** Viewers of the second run: each comes back often enough to see all 20 offers and meet the cap. */
const RETURNING = 100;

/**
 * 10,000 offers of three types and ratings, one live stream with 20 banners attached; answers the stream id.
 * Their campaign budgets are written straight in (no settlement closes during a run): an offer is presented
 * only while its budget pays a presentation, and each counted impression takes its commission from it.
 */
async function seed(db: Db): Promise<number> {
  await db.execute(sql`insert into users (username, email, broadcast_key, country) values ('bench_advertiser', 'a@bench.example', 'bench_a', 'US'), ('bench_broadcaster', 'b@bench.example', 'bench_b', 'US')`);
  await db.execute(sql`
    insert into ad_offers (owner_id, name, short_description, type, rating, ad_link, dim_x, dim_y, commission_impression, commission_click, creative_key, budget)
    select (select id from users where username = 'bench_advertiser'), 'Offer ' || g, 'Offer number ' || g,
      (array['BANNER','CHAT','PREROLL'])[1 + g % 3], (array['G','G','PLUS_14','PLUS_18'])[1 + g % 4], 'https://shop.example/' || g, 728, 90, 1, 5, 'ads/bench', 1000000
    from generate_series(1, ${OFFERS}) g`);
  const [stream] = (await db.execute(sql`
    insert into streams (user_id, title, rating, setup_at, hidden, live, started_at)
    values ((select id from users where username = 'bench_broadcaster'), 'Bench show', 'G', now(), false, true, now()) returning id`)).rows as Array<{ id: number | string }>;
  const streamId = Number(stream!.id);
  await db.execute(sql`insert into ad_campaigns (stream_id, broadcaster_id) values (${streamId}, (select id from users where username = 'bench_broadcaster'))`);
  await db.execute(sql`
    insert into ad_campaign_offers (campaign_id, offer_id)
    select (select c.id from ad_campaigns c where c.stream_id = ${streamId}), o.id from ad_offers o where o.type = 'BANNER' and o.rating = 'G' order by o.id limit ${ATTACHED}`);
  await db.execute(sql`analyze`);
  return streamId;
}

function curlRun(url: string): ReturnType<typeof latencySummary> {
  const samples: number[] = [];
  for (let i = 0; i < CURL_REQUESTS; i += 1) {
    const out = spawnSync('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code} %{time_total}', '-H', `X-Forwarded-For: 198.51.${i % 200}.${(i * 7) % 250}`, url], { encoding: 'utf8' });
    const [code, seconds] = out.stdout.split(' ');
    if (code === '200') samples.push(Number(seconds) * 1000);
  }
  return latencySummary(samples);
}

const db = await emptyPostgresDatabase('ll_bench_ads');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'll-bench-ads-'));
try {
  const resources = await openResources(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: db.url, LOG_LEVEL: 'silent' }));
  const streamId = await seed(resources.database.db);
  await resources.close();
  const server = await startServerProcess({ DATABASE_URL: db.url, SEED_DEMO: 'off', TRUST_PROXY: 'on' }, { dataDir });
  try {
    const address = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    const viewers = Array.from({ length: ADDRESSES }, (_, i) => HttpSession.at(server.url, { 'x-forwarded-for': address(i + 1) }));
    const presentTo = (viewer: HttpSession) => viewer.get('/api/ads/offer-presentation', { stream_id: streamId, type: 'BANNER' });
    let next = 0;
    console.log('presentations…');
    const presentations = await load(CONCURRENCY, SECONDS, async () => (await presentTo(viewers[next++ % ADDRESSES]!)).status === 200);
    // As the stream page does: a presentation, then the impression of the banner it shows. A viewer who has
    // seen the stream's 20 offers in the window is answered null (the frequency cap).
    const returning = viewers.slice(0, RETURNING);
    for (let i = 0; i < returning.length; i += 50) await Promise.all(returning.slice(i, i + 50).map((v) => v.csrf()));
    let shown = 0;
    let capped = 0;
    console.log('presentations with their impressions…');
    const withImpressions = await load(CONCURRENCY, SECONDS, async () => {
      const viewer = returning[next++ % RETURNING]!;
      const res = await presentTo(viewer);
      const offer = (res.body as { offer?: { impression_id: string } | null }).offer;
      if (res.status !== 200) return false;
      if (!offer) return (capped += 1) > 0;
      shown += 1;
      return (await viewer.post('/api/ads/offer-activity', { impression_id: offer.impression_id, activity: 'impression' })).status === 200;
    });
    console.log('app-config (no database) beside it…');
    const anyone = HttpSession.at(server.url);
    const appConfig = await load(CONCURRENCY, SECONDS, async () => (await anyone.get('/api/meta/app-config')).status === 200);
    console.log('curl, one request after another…');
    const curl = curlRun(`${server.url}/api/ads/offer-presentation?stream_id=${streamId}&type=BANNER`);
    console.log('pgbench select-only on the same PostgreSQL…');
    const pgbench = await runPgbench({ clients: CONCURRENCY, scale: 10, seconds: SECONDS, selectOnly: true });
    writeResult('ad-presentation', {
      offers: OFFERS, attached: ATTACHED, addresses: ADDRESSES, concurrency: CONCURRENCY,
      presentations,
      presentationsWithImpressions: { ...withImpressions, shown, capped },
      appConfig,
      curl,
      pgbenchSelectOnly: pgbench,
      ratios: {
        presentationsPerAppConfig: round(presentations.perSecond / appConfig.perSecond, 2),
        presentationsPerPgbenchSelect: round(presentations.perSecond / pgbench.tps, 3),
      },
    });
  } finally {
    await server.stop();
  }
} finally {
  await db.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
