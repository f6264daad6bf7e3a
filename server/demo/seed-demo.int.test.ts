/** A fresh demo install's content: made once, whatever the number of starts; the replays list and play. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteOnPostgres } from '../testing/suite-needing';
import { DEMO_OFFERS } from './demo-offers';
import { inject } from 'vitest';
import { baseGroup } from '../../common/api/system';
import { checkConservation, conservationViolations } from '../modules/ledger';
import { freshDatabase, type FreshDatabase } from '../testing/databases';
import { startSharedTestApps } from '../testing/harness';
import { HttpSession } from '../testing/http-session';
import { openApp, type OpenedApp } from '../testing/server';
import { DEMO_PASSWORD } from './demo-data';
import { DEMO_POSTS } from './demo-posts';
import { DEMO_REPLAYS } from './demo-replays';
import { seedDemo, type SeededDemo } from './seed-demo';

interface Tile {
  stream_id: number;
  title: string;
  live: string;
  thumbnail_url: string | null;
  username: string;
}

let fresh: FreshDatabase;
let started: OpenedApp;
const seeds: SeededDemo[] = [];

/** Starts the app on the same database and data dir, as `npm start` does after a restart, and seeds. */
async function start(): Promise<OpenedApp> {
  const app = await openApp(fresh.dataDir, {
    LOG_LEVEL: 'silent',
    WEB_DIST: `${fresh.dataDir}/no-web-build`,
    ...(fresh.target.kind === 'postgres' ? { DATABASE_URL: fresh.target.url } : {}),
  });
  seeds.push(await seedDemo({ db: app.resources.database.db, files: app.resources.files, services: app.app.services }));
  return app;
}

beforeAll(async () => {
  fresh = await freshDatabase(inject('dbTemplate'));
  await (await start()).close();
  started = await start();
}, 120_000);
afterAll(async () => {
  await started.close();
  await fresh.dispose();
});

const listAll = async (client: HttpSession) =>
  (await client.get<{ streams: Tile[]; total: number }>('/api/channel/list-streams', { offset: 0, limit: 50 })).body;

describe('the demo content of a fresh install', () => {
  it('is made by the first start only: the replays are there once after two starts', async () => {
    expect(seeds[0]!.accounts.length).toBeGreaterThan(0);
    expect(seeds[0]).toMatchObject({ replays: DEMO_REPLAYS.length });
    expect(seeds[0]!.replayError).toBeUndefined();
    expect(seeds[1]).toEqual({ accounts: [], replays: 0 });

    const listed = await listAll(HttpSession.over(started.app));
    expect(listed.total).toBe(DEMO_REPLAYS.length);
    expect(listed.streams.map((s) => s.title).sort()).toEqual(DEMO_REPLAYS.map((r) => `${r.title} #live`).sort());
    for (const tile of listed.streams) {
      expect(tile.live).toBe('N');
      expect(tile.thumbnail_url).toMatch(new RegExp(`^/media/thumbs/${tile.stream_id}\\.jpg`));
    }
  });

  it('shows each replay with a real thumbnail, and plays it to its end', async () => {
    const guest = HttpSession.over(started.app);
    const [tile] = (await listAll(guest)).streams;
    const thumbnail = await guest.request<Buffer>('GET', tile!.thumbnail_url!);
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/jpeg');
    expect(thumbnail.body.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));

    const joined = await guest.post<{ url: { hls: string } }>('/api/streams/stream-join', { stream_id: tile!.stream_id });
    expect(joined.status).toBe(200);
    const playlist = await guest.request<Buffer>('GET', joined.body.url.hls);
    expect(playlist.status).toBe(200);
    const text = playlist.body.toString('utf8');
    expect(text).toContain('#EXT-X-ENDLIST');
    const segment = new URL(text.split('\n').find((line) => line.trim() !== '' && !line.startsWith('#'))!, `http://app${joined.body.url.hls}`);
    const bytes = await guest.request<Buffer>('GET', segment.pathname + segment.search);
    expect(bytes.status).toBe(200);
    expect(bytes.body[0]).toBe(0x47); // MPEG-TS sync byte
  });

  it('shows the demo offers on the replays: a banner and a chat line for a viewer', async () => {
    const guest = HttpSession.over(started.app);
    const [tile] = (await listAll(guest)).streams;
    const info = (await guest.get('/api/streams/stream-lookup', { id: tile!.stream_id })).body.stream as { has_offers: boolean; campaign_id: number | null };
    expect(info).toMatchObject({ has_offers: true, campaign_id: expect.any(Number) });
    for (const offer of DEMO_OFFERS) {
      const presented = (await guest.get('/api/ads/offer-presentation', { stream_id: tile!.stream_id, type: offer.type })).body.offer as { short_description: string; thumbnail: string };
      expect(presented.short_description).toBe(offer.shortDescription);
      expect((await guest.request('GET', presented.thumbnail)).headers['content-type']).toBe('image/webp');
    }
  });

  it("gives broadcaster2 months of analytics and a referral programme with settled commissions", async () => {
    await started.app.services.analytics.fold.run(new Date(Date.now() + 3_600_000));
    const broadcaster = await HttpSession.over(started.app).signIn('broadcaster2', DEMO_PASSWORD);
    const today = new Date().toISOString().slice(0, 10);
    const analytics = await broadcaster.get<{ result: { TOTAL_TIP_COUNT: number; TOTAL_STREAM_VIEW_COUNT: number; TOTAL_FOLLOWERS_COUNT: number; TOP_TIPPERS: { total: number } } }>(
      '/api/user/user-analytics', { event: 'TOTAL_TIP_COUNT,TOTAL_STREAM_VIEW_COUNT,TOTAL_FOLLOWERS_COUNT,TOP_TIPPERS', from: '2016-01-01', to: today });
    expect(analytics.status).toBe(200);
    expect(analytics.body.result.TOTAL_TIP_COUNT).toBeGreaterThan(1000);
    expect(analytics.body.result.TOTAL_STREAM_VIEW_COUNT).toBeGreaterThan(500);
    expect(analytics.body.result.TOTAL_FOLLOWERS_COUNT).toBe(4);
    expect(analytics.body.result.TOP_TIPPERS.total).toBe(4);
    const referred = await broadcaster.get<{ total_rows: number; referrals: Array<{ commission: { earn_total: number } }> }>('/api/user/referral-referred-list');
    expect(referred.body.total_rows).toBe(3);
    expect(referred.body.referrals.every((r) => r.commission.earn_total > 0)).toBe(true);
    const summary = await broadcaster.get<{ summary: { last_settlement: number } }>('/api/user/referral-summary');
    expect(summary.body.summary.last_settlement).toBeGreaterThan(0);
  });

  it('pays for every coin it hands out: its deposits are recorded card payments, its commissions come from fees taken', async () => {
    expect(conservationViolations(await checkConservation(started.resources.database.db))).toEqual([]);
  });

  it("gives the console's reports queue two complaints about the replays", async () => {
    const admin = seeds[0]!.accounts.find((account) => account.role === 'admin')!;
    const operator = await HttpSession.over(started.app).signIn(admin.username, admin.password);
    const queue = await operator.get<{ reports: Array<{ kind: string; type: string; reporter: { username: string }; owner: { username: string } }>; total: number }>('/api/admin/reports');
    expect(queue.status).toBe(200);
    expect(queue.body.reports.map((r) => [r.kind, r.type, r.reporter.username, r.owner.username])).toEqual([
      ['stream', 'inappropriate', 'viewer2', 'broadcaster1'],
      ['stream', 'troll', 'viewer1', 'broadcaster2'],
    ]);
  });

  it('publishes the demo image posts once, the paid one with blurred tiles for visitors', async () => {
    const guest = HttpSession.over(started.app);
    const channels = (await guest.send(baseGroup, {})).body.channels as Array<{ id: number; name: string }>;
    const discover = channels.find((c) => c.name === 'Discover')!;
    const tiles = (await guest.get('/api/channel/list-channel-posts', { id: discover.id })).body.posts as Array<{ title: string; thumb_url: string; tip_viewer_min_amount: number }>;
    const publicOnes = DEMO_POSTS.filter((p) => p.audience === 'public');
    expect(tiles.map((p) => p.title).sort()).toEqual(publicOnes.map((p) => p.title).sort());
    const paid = tiles.find((p) => p.tip_viewer_min_amount > 0)!;
    expect(paid.thumb_url).toContain('locked.webp');
    const picture = await guest.request('GET', paid.thumb_url);
    expect([picture.status, picture.headers['content-type']]).toEqual([200, 'image/webp']);
  });

  it("puts one video call on broadcaster1's calendar, with viewer1 and viewer2 invited", async () => {
    const viewer = await HttpSession.over(started.app).signIn('viewer1', DEMO_PASSWORD);
    const listed = (await viewer.get('/api/user/schedule-meetings')).body.meetings as Array<{ title: string; is_creator: boolean; is_following: boolean; audience_ids: number[] }>;
    expect(listed).toEqual([expect.objectContaining({ title: 'Demo video call', is_creator: false, is_following: true })]);
    expect(listed[0]!.audience_ids).toHaveLength(2);
  });

  it('fills the Women and Men channels too', async () => {
    const guest = HttpSession.over(started.app);
    const channels = (await guest.send(baseGroup, {})).body.channels as Array<{ id: number; name: string }>;
    for (const name of ['Popular', 'Discover', 'Women', 'Men']) {
      const id = channels.find((c) => c.name === name)!.id;
      const res = await guest.get<{ streams: Tile[] }>('/api/channel/list-channel-streams', { id, offset: 0, limit: 50 });
      expect(res.body.streams.length, name).toBeGreaterThan(0);
    }
  });
});

// On PostgreSQL whatever the project: run by the PostgreSQL one only.
suiteOnPostgres('two instances starting on one fresh database', () => {
  it('make the demo content once between them', async () => {
    const apps = await startSharedTestApps(2);
    try {
      const seeded = await Promise.all(apps.map((a) => seedDemo({ db: a.resources.database.db, files: a.resources.files, services: a.app.services })));
      expect(seeded.filter((s) => s.accounts.length > 0)).toHaveLength(1);
      expect(seeded.map((s) => s.replays).sort()).toEqual([0, DEMO_REPLAYS.length]);
      expect((await listAll(apps[0]!.client())).total).toBe(DEMO_REPLAYS.length);
    } finally {
      for (const a of apps) await a.close();
    }
  }, 60_000);
});
