/**
 * Photos and videos in messages, paid messages and the vault (decision 0088) through HTTP: the vault's
 * uploads and their reuse in posts and messages, a paid message locked to its recipient until they
 * unlock it through the ledger (once, conserved), its addresses refused to anyone else, messages to many
 * with a price and their unlocks, and the refusals.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../../common/api/messages';
import * as postsApi from '../../../common/api/posts';
import * as vaultApi from '../../../common/api/vault';
import { fill, MSG } from '../../../common/messages';
import { DM } from '../../../common/rules/messages';
import { resolveFfmpegPath } from '../../platform/media/ffmpeg-path';
import { coinChanges, coinHoldings } from '../../testing/coin-holdings';
import { eventually } from '../../testing/eventually';
import type { SignedInUser } from '../../testing/harness';
import { useListeningTestApp } from '../../testing/listening-app';
import { testPicture, uploadFile } from '../../testing/uploads';

const served = useListeningTestApp();
const given = () => served.t.given;
const db = () => served.t.resources.database.db;
const key = () => randomUUID();
const FEE_PERCENT = 20;

let clip: Buffer;
beforeAll(() => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'll-dm-clip-'));
  const file = path.join(dir, 'clip.mp4');
  execFileSync(resolveFfmpegPath(), ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25:duration=2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file]);
  clip = readFileSync(file);
  rmSync(dir, { recursive: true, force: true });
});

async function vaultImage(owner: SignedInUser, colour = { r: 20, g: 160, b: 90 }): Promise<vaultApi.VaultItem> {
  const upload = await uploadFile(owner.client, await testPicture(colour), 'photo.png', 'image/png');
  const { items } = await owner.client.call(vaultApi.vaultAdd, { upload_ids: [upload] });
  return items[0]!;
}

const fetchStatus = async (who: SignedInUser, address: string) => (await who.client.request('GET', address)).status;
const threadWith = async (viewer: SignedInUser, partner: SignedInUser) => (await viewer.client.call(api.thread, { user_id: partner.user.id })).messages;

describe('the vault', () => {
  it('keeps uploads of its own and those of posts, once per stored file, and reuses them in new posts', async () => {
    const creator = await given().signedInUser();
    const own = await vaultImage(creator);
    expect(own).toMatchObject({ type: 'image', state: 'ready', in_post: false });
    expect(await fetchStatus(creator, own.url!)).toBe(200);
    const upload = await uploadFile(creator.client, await testPicture({ r: 200, g: 20, b: 20 }), 'post.png', 'image/png');
    const { post_id: first } = await creator.client.call(postsApi.createPost, { type: 'image', title: 'First', audience: 'public', upload_ids: [upload] });
    let vault = await creator.client.call(vaultApi.vaultList, {});
    expect(vault.total).toBe(2);
    const fromPost = vault.items.find((i) => i.in_post)!;

    // Both reused in a new post: it is ready at once and shows both; the vault still holds two files.
    const { post_id: second } = await creator.client.call(postsApi.createPost, { type: 'image', title: 'Again', audience: 'public', vault_ids: [fromPost.media_id, own.media_id] });
    const fan = await given().signedInUser();
    const post = (await fan.client.call(postsApi.postLookup, { id: second })).post;
    expect([post.state, post.media.length]).toEqual(['ready', 2]);
    vault = await creator.client.call(vaultApi.vaultList, {});
    expect(vault.total).toBe(2);

    // The first post goes; its file stays for the post that reuses it.
    await creator.client.call(postsApi.deletePost, { post_id: first });
    const again = (await fan.client.call(postsApi.postLookup, { id: second })).post;
    expect(await fetchStatus(fan, again.media[0]!.url)).toBe(200);
    expect((await creator.client.call(vaultApi.vaultList, {})).total).toBe(2);
  });

  it("refuses another's medium, a video in an image post, and a post of nothing", async () => {
    const creator = await given().signedInUser();
    const other = await given().signedInUser();
    const theirs = await vaultImage(other);
    const refused = await creator.client.refusal(postsApi.createPost, { type: 'image', title: 'Not mine', audience: 'public', vault_ids: [theirs.media_id] });
    expect([refused.status, refused.body.message]).toEqual([404, MSG.vaultMediumUnknown]);
    const empty = await creator.client.refusal(postsApi.createPost, { type: 'image', title: 'Nothing', audience: 'public' });
    expect([empty.status, empty.body.message]).toEqual([400, MSG.selectImages]);
    const mine = await vaultImage(creator);
    const wrongKind = await creator.client.refusal(postsApi.createPost, { type: 'video', title: 'Not a video', audience: 'public', vault_ids: [mine.media_id] });
    expect([wrongKind.status, wrongKind.body.message]).toEqual([400, MSG.notAVideo]);
  });
});

describe('paid messages', () => {
  it('shows the recipient a blurred tile until they unlock the video, which pays the sender through the ledger once', async () => {
    const creator = await given().signedInUser();
    const fan = await given().signedInUser();
    const stranger = await given().signedInUser();
    const upload = await uploadFile(creator.client, clip, 'clip.mp4', 'video/mp4');
    const [video] = (await creator.client.call(vaultApi.vaultAdd, { upload_ids: [upload] })).items;
    expect(video).toMatchObject({ type: 'video', state: 'processing' });
    await eventually(async () => (await creator.client.call(vaultApi.vaultList, {})).items[0]!.state, (s) => s === 'ready', 60_000, 250);

    const { message } = await creator.client.call(api.sendMessage, { user_id: fan.user.id, text: 'Just for you', media_id: video!.media_id, price: 50, client_key: key() });
    expect(message).toMatchObject({ price: 50, unlocked: false, media: { type: 'video', state: 'ready' } });
    expect(message.media!.url).not.toBeNull();

    const [locked] = await threadWith(fan, creator);
    expect(locked).toMatchObject({ id: message.id, price: 50, unlocked: false, media: { url: null } });
    expect(locked!.media!.thumb_url).toContain('locked.webp');
    expect(await fetchStatus(fan, locked!.media!.thumb_url!)).toBe(200);
    // The tile's token opens nothing else; a stranger cannot use the fan's address, nor look the message up.
    const playlistWithTileToken = locked!.media!.thumb_url!.replace('locked.webp', 'hls/index.m3u8');
    expect(await fetchStatus(fan, playlistWithTileToken)).toBe(403);
    expect(await fetchStatus(stranger, locked!.media!.thumb_url!)).toBe(403);
    expect((await stranger.client.refusal(api.messageLookup, { message_id: message.id })).status).toBe(404);
    expect((await stranger.client.refusal(api.unlockMessage, { message_id: message.id })).status).toBe(404);
    expect((await creator.client.refusal(api.unlockMessage, { message_id: message.id })).status).toBe(404);

    const poor = await fan.client.refusal(api.unlockMessage, { message_id: message.id });
    expect([poor.status, poor.body.message]).toEqual([402, MSG.messageNeedsCoins]);
    await given().coins(fan.user, 120);
    const before = await coinHoldings(db());
    const [first, repeat] = await Promise.all([
      fan.client.call(api.unlockMessage, { message_id: message.id }),
      fan.client.call(api.unlockMessage, { message_id: message.id }),
    ]);
    const fee = Math.round((50 * FEE_PERCENT) / 100);
    expect(coinChanges(before, await coinHoldings(db()))).toEqual({ [String(fan.user.id)]: -50, [String(creator.user.id)]: 50 - fee, fees: fee });
    expect([first.balance, repeat.balance]).toEqual([70, 70]);
    expect(first.message).toMatchObject({ unlocked: true, media: { state: 'ready' } });
    expect(await fetchStatus(fan, first.message.media!.url!)).toBe(200);
    expect(await fetchStatus(stranger, first.message.media!.url!)).toBe(403);

    const sales = await creator.client.call(api.messageUnlocks, {});
    expect(sales).toMatchObject({ total: 1, coins: 50, unlocks: [{ message_id: message.id, buyer: { user_id: fan.user.id }, price: 50, text: 'Just for you' }] });
    expect((await threadWith(creator, fan))[0]).toMatchObject({ unlocked: true });
  });

  it('opens a free medium at once, and refuses a price without a medium, outside its range, or from a member who is not a creator', async () => {
    const creator = await given().signedInUser();
    const fan = await given().signedInUser();
    const photo = await vaultImage(creator);
    const { message } = await creator.client.call(api.sendMessage, { user_id: fan.user.id, text: '', media_id: photo.media_id, client_key: key() });
    const [free] = await threadWith(fan, creator);
    expect(free).toMatchObject({ id: message.id, text: '', price: 0, media: { type: 'image' } });
    expect(await fetchStatus(fan, free!.media!.url!)).toBe(200);
    const notForSale = await fan.client.refusal(api.unlockMessage, { message_id: message.id });
    expect([notForSale.status, notForSale.body.message]).toEqual([409, MSG.messageNotForSale]);

    const priceOnly = await creator.client.refusal(api.sendMessage, { user_id: fan.user.id, text: 'pay me', price: 50, client_key: key() });
    expect([priceOnly.status, priceOnly.body.message]).toEqual([400, MSG.priceNeedsMedia]);
    for (const price of [5, 55, DM.priceMax + 10]) {
      const refused = await creator.client.refusal(api.sendMessage, { user_id: fan.user.id, text: 'x', media_id: photo.media_id, price, client_key: key() });
      expect([refused.status, refused.body.message]).toEqual([400, fill(MSG.messagePriceRange, { max: DM.priceMax })]);
    }
    const notMine = await fan.client.refusal(api.sendMessage, { user_id: creator.user.id, text: 'x', media_id: photo.media_id, client_key: key() });
    expect([notMine.status, notMine.body.message]).toEqual([404, MSG.vaultMediumUnknown]);
    const member = await given().signedInUser({ perms: ['CREATE STREAM_CHAT'] });
    const notCreator = await member.client.refusal(api.sendMessage, { user_id: creator.user.id, text: 'x', media_id: photo.media_id, price: 50, client_key: key() });
    expect([notCreator.status, notCreator.body.message]).toEqual([403, MSG.paidMessagesCreatorsOnly]);
    const vaultUpload = await member.client.refusal(vaultApi.vaultAdd, { upload_ids: ['abc'] });
    expect(vaultUpload.status).toBe(403);
  });

  it('sends a paid photo to every follower, each unlocking their own copy, and reports the unlocks', async () => {
    const creator = await given().signedInUser();
    const fans = await Promise.all([1, 2, 3].map(() => given().follower(creator.user)));
    const photo = await vaultImage(creator);
    const { broadcast } = await creator.client.call(api.sendToMany, { audience: 'followers', text: 'New set', media_id: photo.media_id, price: 30, client_key: key() });
    expect(broadcast).toMatchObject({ price: 30, media: { type: 'image' }, unlocks: 0 });
    const copies = await Promise.all(fans.map((fan) => eventually(() => threadWith(fan, creator), (m) => m.length === 1, 20_000, 100)));
    expect(copies.map((m) => m[0]).every((m) => m?.media?.url === null && m.price === 30)).toBe(true);
    await given().coins(fans[0]!.user, 30);
    await given().coins(fans[1]!.user, 30);
    const before = await coinHoldings(db());
    await fans[0]!.client.call(api.unlockMessage, { message_id: copies[0]![0]!.id });
    await fans[1]!.client.call(api.unlockMessage, { message_id: copies[1]![0]!.id });
    const fee = Math.round((30 * FEE_PERCENT) / 100);
    expect(coinChanges(before, await coinHoldings(db()))).toEqual({
      [String(fans[0]!.user.id)]: -30, [String(fans[1]!.user.id)]: -30, [String(creator.user.id)]: 2 * (30 - fee), fees: 2 * fee,
    });
    // The third fan's copy stays locked though the medium is the same.
    const third = await threadWith(fans[2]!, creator);
    expect(third[0]!.media!.url).toBeNull();
    const opened = (await fans[0]!.client.call(api.messageLookup, { message_id: copies[0]![0]!.id })).message;
    expect(await fetchStatus(fans[0]!, opened.media!.url!)).toBe(200);
    expect(await fetchStatus(fans[2]!, opened.media!.url!)).toBe(403);
    const report = (await creator.client.call(api.broadcasts, {})).broadcasts[0]!;
    expect(report).toMatchObject({ broadcast_id: broadcast.broadcast_id, delivered: 3, unlocks: 2, coins: 60 });
  });
});
