import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { deleteEmote, emotes, uploadEmote } from '../../../common/api/chat';
import * as plans from '../../../common/api/subscriptions';
import { fill, MSG } from '../../../common/messages';
import { streamChannelOf } from '../../../common/realtime-channels';
import type { SignedInUser } from '../../testing/harness';
import type { HttpSession } from '../../testing/http-session';
import { useListeningTestApp } from '../../testing/listening-app';
import { multipartFile } from '../../testing/multipart';

const served = useListeningTestApp();

const picture = (color: string) => sharp({ create: { width: 300, height: 200, channels: 3, background: color } }).png().toBuffer();

function upload(client: HttpSession, code: string, image: Buffer, level = 1) {
  const file = multipartFile('file', 'emote.png', 'image/png', image);
  return client.request('POST', `${uploadEmote.path}?code=${code}&min_plan_level=${level}`, { rawBody: file.body, headers: { 'content-type': file.contentType } });
}

/** A live broadcaster offering the Fan plan (level 1), and a fan subscribed to it. */
async function creatorWithFan() {
  const live = await served.t.given.liveStream();
  const templates = (await live.client.send(plans.planTemplates, {})).body.templates as plans.PlanTemplate[];
  const fanTemplate = templates.find((x) => x.name === 'Fan')!;
  const price = fanTemplate.prices[0]!.price;
  const added = await live.client.post(plans.planAdd.path, { template_id: fanTemplate.template_id, price, currency: 'CON' });
  const fan = await served.t.given.signedInUser();
  await served.t.given.coins(fan.user, price);
  const subscribed = await fan.client.request('POST', plans.subscribe.path, {
    body: { plan_id: (added.body.plan as plans.Plan).plan_id, user_id: live.user.id }, headers: { 'idempotency-key': randomUUID() },
  });
  expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200);
  return { live, fan };
}

async function watching(who: SignedInUser | undefined, streamId: number) {
  const socket = await served.socketOf(who);
  const subscribed = await socket.request({ op: 'subscribe', channel: streamChannelOf(streamId) });
  return { socket, history: subscribed.history as Array<{ text: string; emotes?: Record<string, string> }> };
}

describe('a broadcaster’s emotes', () => {
  it('are uploaded as checked square images with codes unique on the site, and listed for anyone', async () => {
    const owner = await served.t.given.signedInUser();
    const other = await served.t.given.signedInUser();
    const code = `hype${owner.user.id}`;
    const res = await upload(owner.client, code, await picture('#ff0000'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [emote] = res.body.emotes as Array<{ code: string; url: string; min_plan_level: number }>;
    expect(emote).toMatchObject({ code, min_plan_level: 1 });
    const image = await served.t.client().request('GET', emote!.url);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    const size = await sharp(image.body as unknown as Buffer).metadata();
    expect([size.width, size.height, size.format]).toEqual([112, 112, 'webp']);
    expect((await served.t.client().call(emotes, { user_id: owner.user.id })).emotes).toEqual([emote]);

    expect(await upload(other.client, code, await picture('#00ff00'))).toMatchObject({ status: 409, body: { message: MSG.emoteCodeTaken } });
    expect(await upload(other.client, 'Bad-Code', await picture('#00ff00'))).toMatchObject({ status: 400 });
    expect(await upload(other.client, `ok${other.user.id}`, Buffer.from('not an image at all'))).toMatchObject({ status: 400, body: { message: MSG.notAnImage } });
    expect((await upload(served.t.client(), `anon${other.user.id}`, await picture('#0000ff'))).status).toBe(401);
    expect((await served.t.client().call(emotes, { user_id: other.user.id })).emotes).toEqual([]);
  });

  it('are the broadcaster’s and their subscribers’ to use, shown to everyone, and refused to others', async () => {
    const { live, fan } = await creatorWithFan();
    const stranger = await served.t.given.signedInUser();
    const [hype, vip] = [`hype${live.user.id}`, `vip${live.user.id}`];
    await upload(live.client, hype, await picture('#ffcc00'));
    const uploaded = await upload(live.client, vip, await picture('#cc00ff'), 3);
    const urls = Object.fromEntries((uploaded.body.emotes as Array<{ code: string; url: string }>).map((e) => [e.code, e.url]));
    const guest = await watching(undefined, live.streamId);

    expect(await served.say(live, live.streamId, `welcome :${hype}: :${vip}:`)).toMatchObject({ op: 'ack' });
    expect((await guest.socket.message('COMMENT')).message).toMatchObject({ text: `welcome :${hype}: :${vip}:`, emotes: { [hype]: urls[hype], [vip]: urls[vip] } });

    expect(await served.say(fan, live.streamId, `so good :${hype}: :nosuchemote:`)).toMatchObject({ op: 'ack' });
    expect((await guest.socket.message('COMMENT')).message).toMatchObject({ emotes: { [hype]: urls[hype] } });
    const name = live.user.username;
    expect(await served.say(fan, live.streamId, `me too :${vip}:`)).toMatchObject({ op: 'error', message: fill(MSG.emoteForSubscribers, { name, code: vip }) });
    expect(await served.say(stranger, live.streamId, `:${hype}:`)).toMatchObject({ op: 'error', message: fill(MSG.emoteForSubscribers, { name, code: hype }) });
    // Plain text that looks like no emote is a line like any other.
    expect(await served.say(stranger, live.streamId, 'meet at 10:30:00')).toMatchObject({ op: 'ack' });

    // A newcomer's history draws them too; a removed emote leaves its code as text.
    const newcomer = await watching(undefined, live.streamId);
    expect(newcomer.history.map((line) => line.emotes)).toEqual([{ [hype]: urls[hype], [vip]: urls[vip] }, { [hype]: urls[hype] }, undefined]);
    await live.client.call(deleteEmote, { code: vip });
    const later = await watching(undefined, live.streamId);
    expect(later.history[0]!.emotes).toEqual({ [hype]: urls[hype] });
    expect((await served.t.client().request('GET', urls[vip]!)).status).toBe(404);
    expect((await live.client.refusal(deleteEmote, { code: vip })).status).toBe(404);
    const { rows } = await served.t.resources.database.db.execute<{ n: number }>(sql`select count(*)::int as n from emotes where owner_id = ${live.user.id}`);
    expect(rows[0]!.n).toBe(1);
  });
});
