/** Steps the ads tests share: offers made, funded and attached through HTTP, presentations and activity, the coins in play. */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { resolveFfmpegPath } from '../../platform/media/ffmpeg-path';
import type { TestApp } from '../../testing/harness';
import type { HttpSession } from '../../testing/http-session';
import { testPicture, uploadFile } from '../../testing/uploads';

export const commission = { impression: 2, click: 5, complete: 3 };

export interface CreatedOffer {
  id: number;
  thumbnail: string;
  video: string | null;
  dim_x: number;
  dim_y: number;
  counted: Record<string, number>;
  balance: number;
  paused: boolean;
}

export type Shown = { offer_id: number; impression_id: string; video: string | null; thumbnail: string };

/** A three-second test clip (video and sound), made once. */
let clip: Buffer | undefined;
function testClip(): Buffer {
  if (clip) return clip;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'll-ad-clip-'));
  const file = path.join(dir, 'ad.mp4');
  execFileSync(resolveFfmpegPath(), ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=3', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=3',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file]);
  clip = readFileSync(file);
  rmSync(dir, { recursive: true, force: true });
  return clip;
}

export function adSteps(t: TestApp) {
  const steps = {
    testClip,

    async uploadCreative(client: HttpSession, type: string) {
      return type === 'PREROLL'
        ? uploadFile(client, testClip(), 'ad.mp4', 'video/mp4')
        : uploadFile(client, await testPicture({ r: 10, g: 200, b: 90 }, 728, 90), 'banner.png', 'image/png');
    },

    /** An offer made by `client`; unfunded: it is shown only when nothing it pays costs anything, or once funded. */
    async createOffer(client: HttpSession, fields: Record<string, unknown> = {}): Promise<CreatedOffer> {
      const type = (fields.type as string | undefined) ?? 'BANNER';
      const res = await client.post('/api/ads/offer-create', {
        name: 'Spring sale', short_description: 'Everything 20% off', type, rating: 'G', ad_link: 'https://shop.example/spring', commission,
        upload_id: await steps.uploadCreative(client, type), ...fields,
      });
      if (res.status !== 200) throw new Error(`offer-create: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.offer as CreatedOffer;
    },

    fund: (client: HttpSession, offerId: number, coins: number, key: string = randomUUID()) =>
      client.request('POST', '/api/ads/offer-fund', { body: { id: offerId, coins }, headers: { 'idempotency-key': key } }),

    withdraw: (client: HttpSession, offerId: number, key: string = randomUUID()) =>
      client.request('POST', '/api/ads/offer-withdraw', { body: { id: offerId }, headers: { 'idempotency-key': key } }),

    /** An offer made by `owner` and funded with `coins` given to them for it. */
    async fundedOffer(owner: { client: HttpSession; user: { id: number } }, coins: number, fields: Record<string, unknown> = {}): Promise<CreatedOffer> {
      const offer = await steps.createOffer(owner.client, fields);
      await t.given.coins(owner.user, coins);
      const funded = await steps.fund(owner.client, offer.id, coins);
      expect(funded.status, JSON.stringify(funded.body)).toBe(200);
      return (funded.body as { offer: CreatedOffer }).offer;
    },

    async attach(owner: HttpSession, offerIds: number[]) {
      const res = await owner.post('/api/ads/update-stream-offers', { offer_ids: offerIds });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { stream_id: number; campaign_id: number | null };
    },

    present: (client: HttpSession, streamId: number, type: string) => client.get('/api/ads/offer-presentation', { stream_id: streamId, type }),

    async presented(client: HttpSession, streamId: number, type: string): Promise<Shown | null> {
      const res = await steps.present(client, streamId, type);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.offer as Shown | null;
    },

    activity: (client: HttpSession, presentationId: string, kind: string) => client.post('/api/ads/offer-activity', { impression_id: presentationId, activity: kind }),

    /** The offer as its manager lists it (counted activity, balance). */
    async managed(client: HttpSession, offerId: number): Promise<CreatedOffer> {
      const offers = (await client.get('/api/ads/offer-list', { limit: 50 })).body.offers as CreatedOffer[];
      return offers.find((o) => o.id === offerId)!;
    },

    balanceOf: async (userId: number) => (await t.app.services.ledger.balances(userId)).CON,

    /** Coins held by people and campaigns: what no settlement, funding or withdrawal may change. */
    async coinsHeld(): Promise<{ held: number; advertising: number }> {
      const [row] = (await t.resources.database.db.execute(sql`select
        coalesce(sum(balance) filter (where currency = 'CON' and (user_id is not null or system like 'ad-campaign:%')), 0)::bigint as held,
        coalesce(sum(balance) filter (where currency = 'CON' and system = 'advertising'), 0)::bigint as advertising
        from ledger_accounts`)).rows as Array<{ held: string | number; advertising: string | number }>;
      return { held: Number(row!.held), advertising: Number(row!.advertising) };
    },

    /** Settles every period closed by `hours` from now. */
    settleLater: (hours = 3) => t.app.services.ads.settlement.run(new Date(Date.now() + hours * 3600_000)),
  };
  return steps;
}
