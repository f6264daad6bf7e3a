import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { eventually } from '../../testing/eventually';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../../common/api/posts';
import * as subscriptionsApi from '../../../common/api/subscriptions';
import { UPLOAD_CHUNK_BYTES } from '../../../common/constants';
import { fill, MSG } from '../../../common/messages';
import { POST_SCHEDULE_MAX_DAYS } from '../../../common/rules/post-schedule';
import { startTestApp, type SignedInUser, type TestApp, type TestUser } from '../../testing/harness';
import { HttpSession } from '../../testing/http-session';
import { closeCheckingLedger, expectLedgerInvariants } from '../../testing/ledger-invariants';
import { pngClaiming } from '../../testing/images';
import { publishImagePost, sendChunks, startUpload, testPicture, uploadFile, uploadOffset } from '../../testing/uploads';

const UPLOAD_MAX_MB = 5;
let t: TestApp;
let dataDir: string;
let base: string;
beforeAll(async () => {
  t = await startTestApp({ UPLOAD_MAX_MB: String(UPLOAD_MAX_MB) });
  dataDir = t.resources.config.dataDir;
  // These tests speak HTTP to a listening app, as the upload page and players do.
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => closeCheckingLedger(t));

const visitor = () => HttpSession.at(base);
const signedIn = (user: TestUser) => visitor().signIn(user.username, user.password);
async function person(): Promise<SignedInUser> {
  const user = await t.given.user();
  return { user, client: await signedIn(user) };
}

const lookup = (client: HttpSession, id: number) => client.get(api.postLookup.path, { id });
const postOf = async (client: HttpSession, id: number) => {
  const res = await lookup(client, id);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.post as api.Post;
};
const storedPostFolders = () => (existsSync(path.join(dataDir, 'files', 'posts')) ? readdirSync(path.join(dataDir, 'files', 'posts')) : []);
const uploadsLeft = () => readdirSync(path.join(dataDir, 'uploads')).filter((f) => !f.endsWith('.json'));


async function fetchMedia(client: HttpSession, url: string) {
  return client.request('GET', url);
}

describe('resumable uploads', () => {
  it('resumes an upload cut at 40 % from the offset the server holds, and the file arrives whole', async () => {
    const owner = await person();
    const data = Buffer.concat([await testPicture(), Buffer.alloc(2_500_000 - (await testPicture()).length, 7)]);
    const { id } = await startUpload(owner.client, data.length, { filename: 'big.png', filetype: 'image/png' });
    expect(id).not.toBeNull();
    await sendChunks(owner.client, id!, data, 0, UPLOAD_CHUNK_BYTES);
    // The connection dropped; the page comes back (a new sign-in), asks where it stands and goes on.
    const again = await signedIn(owner.user);
    expect(await uploadOffset(again, id!)).toEqual({ status: 200, offset: UPLOAD_CHUNK_BYTES });
    // Nobody else learns anything about it.
    const stranger = await person();
    expect((await uploadOffset(stranger.client, id!)).status).toBe(404);
    expect(await sendChunks(again, id!, data, UPLOAD_CHUNK_BYTES)).toBe(data.length);
    const stored = readFileSync(path.join(dataDir, 'uploads', id!));
    expect(createHash('sha256').update(stored).digest('hex')).toBe(createHash('sha256').update(data).digest('hex'));
  });

  it('refuses an empty file, an over-limit file before any byte, and visitors', async () => {
    const owner = await person();
    const before = uploadsLeft().length;
    const empty = await startUpload(owner.client, 0, { filename: 'empty.png' });
    expect(empty.res.status).toBe(400);
    const tooBig = await startUpload(owner.client, UPLOAD_MAX_MB * 1_000_000 + 1, { filename: 'film.mov' });
    expect(tooBig.res.status).toBe(413);
    expect(String(tooBig.res.body)).toBe(fill(MSG.videoTooBig, { size: `${UPLOAD_MAX_MB} MB` }));
    expect(uploadsLeft().length).toBe(before);
    const anonymous = await startUpload(visitor(), 10, { filename: 'x.png' });
    expect(anonymous.res.status).toBe(401);
  });
});

describe('image posts', () => {
  it('publishes several images as upright WebP without metadata, served only to the viewer they were signed for', async () => {
    const owner = await person();
    const camera = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 10, g: 200, b: 90 } } })
      .withMetadata({ orientation: 6 }).withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } }).jpeg().toBuffer();
    const ids = [await uploadFile(owner.client, camera, 'camera.jpg', 'image/jpeg')];
    for (let i = 0; i < 2; i += 1) ids.push(await uploadFile(owner.client, await testPicture({ r: i * 90, g: 20, b: 20 }), `p${i}.png`, 'image/png'));
    const created = await owner.client.post(api.createPost.path, { type: 'image', title: 'Three views', description: 'Hills', audience: 'public', upload_ids: ids });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const postId = Number(created.body.post_id);
    expect(uploadsLeft().filter((f) => ids.includes(f))).toEqual([]);

    const post = await postOf(owner.client, postId);
    expect(post).toMatchObject({ title: 'Three views', description: 'Hills', kind: 'image', state: 'ready', media_count: 3, tip_viewer_min_amount: 0 });
    expect(post.media).toHaveLength(3);
    const full = await fetchMedia(owner.client, post.media[0]!.url);
    expect(full.status).toBe(200);
    expect(full.headers['content-type']).toBe('image/webp');
    const meta = await sharp(full.body as unknown as Buffer).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['webp', 200, 300, undefined]);

    // A visitor sees the public post with addresses of their own; the owner's copied address is not theirs.
    const guest = visitor();
    const seen = await postOf(guest, postId);
    expect(seen.media).toHaveLength(3);
    expect((await fetchMedia(guest, seen.media[1]!.url)).status).toBe(200);
    expect((await fetchMedia(guest, post.media[1]!.url)).status).toBe(403);
    expect((await fetchMedia(guest, post.media[1]!.url.replace(/\?token=.*/, ''))).status).toBe(403);
    const forged = post.media[1]!.url.replace(/token=([^.]*)\./, 'token=zzzzzz.');
    expect((await fetchMedia(owner.client, forged)).status).toBe(403);
  });

  it('refuses wrong magic bytes and a decompression bomb with a message, keeping nothing', async () => {
    const owner = await person();
    const folders = storedPostFolders().length;
    const fake = await uploadFile(owner.client, Buffer.from('%PDF-1.7 this is not a picture'), 'holiday.png', 'image/png');
    const refused = await owner.client.post(api.createPost.path, { type: 'image', title: 'Fake', audience: 'public', upload_ids: [fake] });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(MSG.notAnImage);
    const bomb = await uploadFile(owner.client, pngClaiming(20_000, 20_000), 'bomb.png', 'image/png');
    const good = await uploadFile(owner.client, await testPicture(), 'fine.png', 'image/png');
    const refusedBomb = await owner.client.post(api.createPost.path, { type: 'image', title: 'Bomb', audience: 'public', upload_ids: [good, bomb] });
    expect(refusedBomb.status).toBe(400);
    expect(refusedBomb.body.message).toBe(fill(MSG.imageTooManyPixels, { megapixels: 50 }));
    expect(storedPostFolders().length).toBe(folders);
    expect(uploadsLeft().filter((f) => [fake, bomb, good].includes(f))).toEqual([]);
  });

  it('checks the form: images, title, audience, expiry, someone else’s upload', async () => {
    const owner = await person();
    const none = await owner.client.post(api.createPost.path, { type: 'image', title: 'Nothing', audience: 'public', upload_ids: [] });
    expect([none.status, none.body.message]).toEqual([400, MSG.selectImages]);
    const upload = await uploadFile(owner.client, await testPicture(), 'a.png', 'image/png');
    const short = await owner.client.post(api.createPost.path, { type: 'image', title: 'A', audience: 'public', upload_ids: [upload] });
    expect([short.status, short.body.message]).toEqual([400, fill(MSG.titleTooShort, { min: 2 })]);
    const noAudience = await owner.client.post(api.createPost.path, { type: 'image', title: 'Ok title', upload_ids: [upload] });
    expect([noAudience.status, noAudience.body.message]).toEqual([400, MSG.audienceRequired]);
    const past = await owner.client.post(api.createPost.path, { type: 'image', title: 'Ok title', audience: 'public', expires: '2001-01-01T00:00:00Z', upload_ids: [upload] });
    expect([past.status, past.body.message]).toEqual([400, MSG.expiryInFuture]);
    const subscribers = await owner.client.post(api.createPost.path, { type: 'image', title: 'Ok title', audience: 'subscribers', upload_ids: [upload] });
    expect([subscribers.status, subscribers.body.message]).toEqual([400, MSG.createPlanFirst]);
    const thief = await person();
    const stolen = await thief.client.post(api.createPost.path, { type: 'image', title: 'Mine now', audience: 'public', upload_ids: [upload] });
    expect([stolen.status, stolen.body.message]).toEqual([404, MSG.uploadUnknown]);
    const adult = await owner.client.post(api.createPost.path, { type: 'image', title: 'Ok title', audience: 'public', content_rating: 'PLUS_18', upload_ids: [upload] });
    expect([adult.status, adult.body.message]).toEqual([403, MSG.uploadPermissionNeeded]);
  });
});

describe('paid posts', () => {
  let owner: SignedInUser;
  let postId: number;
  beforeAll(async () => {
    owner = await person();
    postId = await publishImagePost(owner.client, { tip: 251, title: 'Paid set' }, 2);
  });

  it('rounds the price up to a step and clamps it', async () => {
    expect((await postOf(owner.client, postId)).tip_viewer_min_amount).toBe(260);
    const dear = await publishImagePost(owner.client, { tip: 5000 });
    expect((await postOf(owner.client, dear)).tip_viewer_min_amount).toBe(1000);
  });

  it('hides the media until bought: a blurred tile only, and the owner’s addresses answer 403', async () => {
    const viewer = await person();
    const seen = await postOf(viewer.client, postId);
    expect(seen).toMatchObject({ media: [], media_count: 2, has_paid: false, price: 260 });
    expect(seen.thumb_url).toContain('locked.webp');
    expect((await fetchMedia(viewer.client, seen.thumb_url!)).status).toBe(200);
    const ownersView = await postOf(owner.client, postId);
    expect((await fetchMedia(viewer.client, ownersView.media[0]!.url)).status).toBe(403);
    const mine = ownersView.media[0]!.url.replace(/token=.*/, '');
    expect((await fetchMedia(viewer.client, `${mine}token=${encodeURIComponent(seen.thumb_url!.split('token=')[1]!)}`)).status).toBe(403);
  });

  it('sells it once through the ledger: short wallets are refused, a repeat moves nothing', async () => {
    const poor = await person();
    const refused = await poor.client.post(api.purchasePost.path, { post_id: postId });
    expect([refused.status, refused.body.message]).toEqual([402, MSG.postNeedsCoins]);

    const buyer = await person();
    await t.given.coins(buyer.user, 300);
    // The buyer's own signature, on the full picture: refused until bought, served at once after.
    const locked = (await postOf(buyer.client, postId)).thumb_url!;
    const full = locked.replace('locked.webp', 'full.webp');
    expect((await fetchMedia(buyer.client, full)).status).toBe(403);
    const bought = await Promise.all([1, 2, 3].map(() => buyer.client.post(api.purchasePost.path, { post_id: postId })));
    for (const res of bought) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const again = await buyer.client.post(api.purchasePost.path, { post_id: postId });
    expect(again.body).toMatchObject({ has_paid: true, balance: 40 });
    expect((await fetchMedia(buyer.client, full)).status).toBe(200);
    const post = await postOf(buyer.client, postId);
    expect(post).toMatchObject({ has_paid: true });
    expect(post.media).toHaveLength(2);
    expect((await fetchMedia(buyer.client, post.media[1]!.url)).status).toBe(200);
    // 260 less the platform's 20 %.
    expect((await owner.client.get('/api/wallet/balance')).body.balance).toMatchObject({ CON: 208 });
    const own = await owner.client.post(api.purchasePost.path, { post_id: postId });
    expect([own.status, own.body.message]).toEqual([409, MSG.postAlreadyYours]);
    await expectLedgerInvariants(t.resources.database.db);
  });

  it('keeps a sold post for its buyers: its owner cannot delete it or make it private; an unsold one they can', async () => {
    const seller = await person();
    const sold = await publishImagePost(seller.client, { tip: 100, title: 'Sold once' });
    const buyer = await person();
    await t.given.coins(buyer.user, 100);
    expect((await buyer.client.post(api.purchasePost.path, { post_id: sold })).status).toBe(200);

    const deleted = await seller.client.post(api.deletePost.path, { post_id: sold });
    expect([deleted.status, deleted.body.message]).toEqual([409, MSG.postSoldStays]);
    const hidden = await seller.client.post(api.editPost.path, { post_id: sold, audience: 'private' });
    expect([hidden.status, hidden.body.message]).toEqual([409, MSG.postSoldStays]);
    // Still the buyer's, media and all; other edits stay open to the owner.
    expect((await postOf(buyer.client, sold)).media).toHaveLength(1);
    expect((await seller.client.post(api.editPost.path, { post_id: sold, title: 'Sold once, renamed' })).status).toBe(200);

    const unsold = await publishImagePost(seller.client, { tip: 100 });
    expect((await seller.client.post(api.editPost.path, { post_id: unsold, audience: 'private' })).status).toBe(200);
    expect((await seller.client.post(api.deletePost.path, { post_id: unsold })).status).toBe(200);
    // A private post is not for sale, so it cannot be bought after all.
    const privateOne = await publishImagePost(seller.client, { tip: 100, audience: 'private' });
    expect((await buyer.client.post(api.purchasePost.path, { post_id: privateOne })).status).toBe(404);
  });
});

describe('audiences and listings', () => {
  it('shows followers’ posts to followers, private posts to the owner, and lists what each may find', async () => {
    const owner = await person();
    const open = await publishImagePost(owner.client, { title: 'For all' });
    const forFollowers = await publishImagePost(owner.client, { title: 'For fans', audience: 'followers' });
    const hidden = await publishImagePost(owner.client, { title: 'Mine', audience: 'private' });
    const stranger = await person();
    const fan = await t.given.follower(owner.user, await person());

    expect((await lookup(stranger.client, forFollowers)).body.message).toBe(MSG.postFollowersOnly);
    expect((await lookup(stranger.client, forFollowers)).status).toBe(403);
    expect((await lookup(fan.client, forFollowers)).status).toBe(200);
    expect((await lookup(fan.client, hidden)).status).toBe(404);

    const titles = async (client: HttpSession) =>
      ((await client.get(api.userPosts.path, { id: owner.user.id })).body.posts as api.PostTile[]).map((p) => p.post_id);
    expect(await titles(owner.client)).toEqual([hidden, forFollowers, open]);
    expect(await titles(fan.client)).toEqual([forFollowers, open]);
    expect(await titles(visitor())).toEqual([open]);

    const channels = (await visitor().get('/api/channel/base-group')).body.channels as Array<{ id: number; name: string }>;
    const inChannel = async (name: string) =>
      ((await visitor().get(api.listChannelPosts.path, { id: channels.find((c) => c.name === name)!.id })).body.posts as api.PostTile[]).map((p) => p.post_id);
    expect(await inChannel('Discover')).toContain(open);
    expect(await inChannel('Discover')).not.toContain(forFollowers);
    expect(await inChannel('Live')).toEqual([]);

    const edit = await owner.client.post(api.editPost.path, { post_id: hidden, audience: 'public' });
    expect([edit.status, edit.body.message]).toEqual([403, MSG.postPrivateAudience]);
    const retitle = await owner.client.post(api.editPost.path, { post_id: open, title: 'For everyone', audience: 'followers' });
    expect((retitle.body.post as api.Post)).toMatchObject({ title: 'For everyone', audience: 'followers' });
    expect((await stranger.client.post(api.editPost.path, { post_id: open, title: 'Hacked' })).status).toBe(403);
  });

  it('keeps a scheduled post, its media and its place in listings to its owner until its time, then shows it first', async () => {
    const owner = await person();
    const earlier = await publishImagePost(owner.client, { title: 'Out already' });
    const inAnHour = new Date(Date.now() + 3600_000).toISOString();
    const later = await publishImagePost(owner.client, { title: 'Out later', publish_at: inAnHour });
    const fan = await person();
    expect(await postOf(owner.client, later)).toMatchObject({ scheduled: true, entry_date: inAnHour });
    const ownMedia = (await postOf(owner.client, later)).media[0]!.url;
    expect((await lookup(fan.client, later)).status).toBe(404);
    expect((await lookup(visitor(), later)).status).toBe(404);
    const listed = async (client: HttpSession) =>
      ((await client.get(api.userPosts.path, { id: owner.user.id })).body.posts as api.PostTile[]).map((p) => [p.post_id, p.scheduled]);
    expect(await listed(owner.client)).toEqual([[later, true], [earlier, false]]);
    expect(await listed(fan.client)).toEqual([[earlier, false]]);
    // An address the owner could copy is the owner's: signed for them, and refused to others at any time.
    expect((await fetchMedia(fan.client, ownMedia)).status).toBe(403);

    // Its time comes.
    await t.resources.database.db.execute(sql`update posts set created_at = now() where id = ${later}`);
    expect(await listed(fan.client)).toEqual([[later, false], [earlier, false]]);
    const seen = await postOf(fan.client, later);
    expect(seen.scheduled).toBe(false);
    expect((await fetchMedia(fan.client, seen.media[0]!.url)).status).toBe(200);
  });

  it('refuses a publication time not ahead, too far ahead, or after the expiry', async () => {
    const owner = await person();
    const upload = await uploadFile(owner.client, await testPicture(), 'p.png', 'image/png');
    const create = (input: Record<string, unknown>) => owner.client.post(api.createPost.path, { type: 'image', title: 'Timed', audience: 'public', upload_ids: [upload], ...input });
    const tooFar = fill(MSG.publishAtFuture, { days: POST_SCHEDULE_MAX_DAYS });
    const past = await create({ publish_at: new Date(Date.now() - 60_000).toISOString() });
    expect([past.status, past.body.message]).toEqual([400, tooFar]);
    expect((await create({ publish_at: new Date(Date.now() + (POST_SCHEDULE_MAX_DAYS + 1) * 24 * 3600_000).toISOString() })).body.message).toBe(tooFar);
    expect((await create({ publish_at: 'tomorrow' })).body.message).toBe(tooFar);
    const expiring = await create({ publish_at: new Date(Date.now() + 7200_000).toISOString(), expires: new Date(Date.now() + 3600_000).toISOString() });
    expect([expiring.status, expiring.body.message]).toEqual([400, MSG.expiryAfterPublication]);
    expect((await create({})).status).toBe(200);
  });
});

describe('subscribers-only posts', () => {
  it('shows others the teaser — the creator, the blurred tile, the counts — and subscribing opens the media', async () => {
    const owner = await person();
    const templates = (await owner.client.get(subscriptionsApi.planTemplates.path)).body.templates as subscriptionsApi.PlanTemplate[];
    const fanPlan = templates.find((x) => x.name === 'Fan')!;
    const added = await owner.client.post(subscriptionsApi.planAdd.path, { template_id: fanPlan.template_id, price: fanPlan.prices[0]!.price, currency: 'CON' });
    const planId = (added.body.plan as subscriptionsApi.Plan).plan_id;
    const postId = await publishImagePost(owner.client, { title: 'For subscribers', description: 'Behind the scenes', audience: 'subscribers' }, 3);
    const full = (await postOf(owner.client, postId)).media[0]!.url;

    for (const client of [visitor(), (await person()).client]) {
      const teaser = await postOf(client, postId);
      expect(teaser).toMatchObject({ teaser: true, media: [], media_count: 3, description: '', user_id: owner.user.id, title: 'For subscribers', likes: 0, comments: 0 });
      expect(teaser.thumb_url).toContain('locked.webp');
      const blurred = await fetchMedia(client, teaser.thumb_url!);
      expect(blurred.status).toBe(200);
      // The blurred tile is small: nothing of the full picture's size leaks through it.
      const { width } = await sharp(blurred.body as unknown as Buffer).metadata();
      expect(width).toBeLessThanOrEqual(640);
      // Its own address for the full picture, with the teaser's token, is refused; so are comments and actions.
      const token = teaser.thumb_url!.split('token=')[1]!;
      expect((await fetchMedia(client, `${full.replace(/token=.*/, '')}token=${token}`)).status).toBe(403);
      expect((await client.get(api.commentList.path, { post_id: postId })).status).toBe(403);
    }

    const fan = await person();
    await t.given.coins(fan.user, fanPlan.prices[0]!.price);
    const subscribed = await fan.client.request('POST', subscriptionsApi.subscribe.path, {
      body: { plan_id: planId, user_id: owner.user.id }, headers: { 'idempotency-key': randomUUID() },
    });
    expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200);
    const opened = await postOf(fan.client, postId);
    expect(opened).toMatchObject({ teaser: false, media_count: 3, description: 'Behind the scenes' });
    expect(opened.media).toHaveLength(3);
    expect((await fetchMedia(fan.client, opened.media[0]!.url)).status).toBe(200);
    await expectLedgerInvariants(t.resources.database.db);
  });
});

describe('tiles in every listing', () => {
  it('shows each post its own picture, for several posts by several creators, in the profile, a channel and Saved', async () => {
    const colours = [{ r: 250, g: 10, b: 10 }, { r: 10, g: 250, b: 10 }, { r: 10, g: 10, b: 250 }];
    const creators = [await person(), await person()];
    const made: Array<{ owner: SignedInUser; postId: number }> = [];
    for (const [i, owner] of creators.entries()) {
      for (const colour of colours.slice(i)) {
        const upload = await uploadFile(owner.client, await testPicture(colour), 'tile.png', 'image/png');
        const res = await owner.client.post(api.createPost.path, { type: 'image', title: `Tile ${made.length}`, audience: 'public', upload_ids: [upload] });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        made.push({ owner, postId: Number(res.body.post_id) });
      }
    }
    const viewer = await person();
    for (const { postId } of made) expect((await viewer.client.post(api.savePost.path, { post_id: postId, save: true })).status).toBe(200);
    /** The folder of a post's first picture, as the opened post names it. */
    const folderOf = async (postId: number) => {
      const post = await postOf(viewer.client, postId);
      return post.media[0]!.thumb_url.replace(/\/[^/]*$/, '');
    };
    const expected = new Map<number, string>();
    for (const { postId } of made) expected.set(postId, await folderOf(postId));
    expect(new Set(expected.values()).size).toBe(made.length);

    const checkTiles = (tiles: api.PostTile[]) => {
      for (const tile of tiles.filter((p) => expected.has(p.post_id))) {
        expect(tile.thumb_url, `post ${tile.post_id}`).toContain(`${expected.get(tile.post_id)}/`);
        expect(tile.duration).toBeNull();
      }
    };
    for (const owner of creators) {
      const tiles = (await viewer.client.get(api.userPosts.path, { id: owner.user.id })).body.posts as api.PostTile[];
      expect(tiles.length).toBeGreaterThan(0);
      checkTiles(tiles);
    }
    const channels = (await visitor().get('/api/channel/base-group')).body.channels as Array<{ id: number; name: string }>;
    const discover = channels.find((c) => c.name === 'Discover')!.id;
    for (const client of [viewer.client, visitor()]) {
      const tiles = (await client.get(api.listChannelPosts.path, { id: discover, limit: 50 })).body.posts as api.PostTile[];
      expect(tiles.filter((p) => expected.has(p.post_id))).toHaveLength(made.length);
      checkTiles(tiles);
    }
    const saved = (await viewer.client.get(api.savedPosts.path, {})).body.posts as api.PostTile[];
    expect(saved.map((p) => p.post_id).sort()).toEqual(made.map((m) => m.postId).sort());
    checkTiles(saved);
  });
});

describe('likes, saves and complaints', () => {
  it('counts a person’s like once, refuses the owner, saves others’ posts only', async () => {
    const owner = await person();
    const postId = await publishImagePost(owner.client);
    const fan = await person();
    for (let i = 0; i < 3; i += 1) await fan.client.post(api.likePost.path, { post_id: postId, like: true });
    expect((await postOf(fan.client, postId))).toMatchObject({ likes: 1, viewer_likes: 1 });
    expect((await fan.client.post(api.likePost.path, { post_id: postId, like: false })).body).toMatchObject({ likes: 0, viewer_likes: 0 });
    const ownLike = await owner.client.post(api.likePost.path, { post_id: postId });
    expect([ownLike.status, ownLike.body.message]).toEqual([403, MSG.cannotLikeOwnPost]);

    const ownSave = await owner.client.post(api.savePost.path, { post_id: postId, save: true });
    expect([ownSave.status, ownSave.body.message]).toEqual([403, MSG.cannotSaveOwn]);
    expect((await fan.client.post(api.savePost.path, { post_id: postId, save: true })).body).toMatchObject({ saved: true });
    const saved = (await fan.client.get(api.savedPosts.path)).body.posts as api.PostTile[];
    expect(saved.map((p) => p.post_id)).toEqual([postId]);
    expect((await postOf(fan.client, postId)).saved).toBe(true);

    const ownReport = await owner.client.post(api.reportPost.path, { post_id: postId, type: 'troll' });
    expect([ownReport.status, ownReport.body.message]).toEqual([403, MSG.cannotReportOwnPost]);
    const noType = await fan.client.post(api.reportPost.path, { post_id: postId });
    expect([noType.status, noType.body.message]).toEqual([400, MSG.complaintTypeRequired]);
    expect((await fan.client.post(api.reportPost.path, { post_id: postId, type: 'crime', user_comment: '  stolen  ' })).status).toBe(200);
  });
});

describe('post pages asked together', () => {
  it('answers each page for its own viewer, and a missing post with its refusal', async () => {
    const owner = await person();
    const [first, second] = [await publishImagePost(owner.client), await publishImagePost(owner.client)];
    const [fan, other] = [await person(), await person()];
    await fan.client.post(api.likePost.path, { post_id: first, like: true });
    await other.client.post(api.savePost.path, { post_id: first, save: true });

    // Three rounds at once: while two statements run, the pages that wait go together in the next.
    const round = () => [
      lookup(fan.client, first), lookup(other.client, first), lookup(t.client(), first),
      lookup(fan.client, second), lookup(other.client, 9_999_999), lookup(owner.client, first),
    ];
    const pages = await Promise.all([...round(), ...round(), ...round()]);
    const seen = pages.map((res) => {
      const post = res.body.post as api.Post | undefined;
      return post ? `${post.post_id}: liked ${post.viewer_likes}, saved ${post.saved}` : res.status;
    });
    const expected = [
      `${first}: liked 1, saved false`, `${first}: liked 0, saved true`, `${first}: liked 0, saved false`,
      `${second}: liked 0, saved false`, 404, `${first}: liked 0, saved false`,
    ];
    expect(seen).toEqual([...expected, ...expected, ...expected]);
  });
});

describe('comments', () => {
  it('keeps a tree of comments and replies, 10 a page, with the spec’s rules', async () => {
    const owner = await person();
    const postId = await publishImagePost(owner.client);
    const fan = await person();
    const short = await fan.client.post(api.createComment.path, { post_id: postId, body: ' hi ' });
    expect([short.status, short.body.message]).toEqual([400, MSG.leaveMessage]);
    expect((await visitor().post(api.createComment.path, { post_id: postId, body: 'Lovely work' })).status).toBe(401);

    const ids: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      const res = await fan.client.post(api.createComment.path, { post_id: postId, body: `Comment number ${i}` });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      ids.push((res.body.comment as api.Comment).comment_id);
    }
    const first = await visitor().get(api.commentList.path, { post_id: postId });
    expect((first.body.comments as api.Comment[]).map((c) => c.comment_id)).toEqual(ids.slice(0, 10));
    expect(first.body.total).toBe(12);
    const second = await visitor().get(api.commentList.path, { post_id: postId, offset: 10 });
    expect((second.body.comments as api.Comment[]).map((c) => c.comment_id)).toEqual(ids.slice(10));

    const reply = await owner.client.post(api.createComment.path, { post_id: postId, parent_id: ids[0], body: 'Thank you!' });
    const nested = await owner.client.post(api.createComment.path, { post_id: postId, parent_id: (reply.body.comment as api.Comment).comment_id, body: 'And more' });
    expect(nested.body.comment).toMatchObject({ thread_id: ids[0] });
    const replies = await visitor().get(api.commentList.path, { post_id: postId, parent_id: ids[0]! });
    expect((replies.body.comments as api.Comment[]).map((c) => c.body)).toEqual(['Thank you!']);
    expect((await postOf(fan.client, postId)).comments).toBe(14);
    const listedAgain = (await visitor().get(api.commentList.path, { post_id: postId })).body.comments as api.Comment[];
    expect(listedAgain[0]!.replies).toBe(1);

    const elsewhere = await publishImagePost(owner.client);
    const wrongParent = await fan.client.post(api.createComment.path, { post_id: elsewhere, parent_id: ids[0], body: 'Lost reply' });
    expect([wrongParent.status, wrongParent.body.message]).toEqual([404, MSG.commentNotFound]);
    const ownComment = await fan.client.post(api.reportComment.path, { comment_id: ids[0], type: 'other' });
    expect([ownComment.status, ownComment.body.message]).toEqual([403, MSG.cannotReportOwnComment]);
    expect((await owner.client.post(api.reportComment.path, { comment_id: ids[0], type: 'troll' })).status).toBe(200);

    const closed = await publishImagePost(owner.client, { comments_allowed: false });
    const refused = await fan.client.post(api.createComment.path, { post_id: closed, body: 'Hello there' });
    expect([refused.status, refused.body.message]).toEqual([403, MSG.commentsClosed]);
  });
});

describe('deleting', () => {
  it('lets the owner delete a post, takes its files, and refuses others', async () => {
    const owner = await person();
    const postId = await publishImagePost(owner.client);
    const post = await postOf(owner.client, postId);
    const other = await person();
    expect((await other.client.post(api.deletePost.path, { post_id: postId })).status).toBe(403);
    expect((await owner.client.post(api.deletePost.path, { post_id: postId })).status).toBe(200);
    const gone = await lookup(owner.client, postId);
    expect([gone.status, gone.body.message]).toEqual([404, MSG.postNotAvailable]);
    expect([403, 404]).toContain((await fetchMedia(owner.client, post.media[0]!.url)).status);
  });

  it('takes a deleted account’s posts with it', async () => {
    const owner = await person();
    const postId = await publishImagePost(owner.client);
    const res = await owner.client.post('/api/user/delete-account', { id: owner.user.id, current_password: owner.user.password });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The posts go with the account's deletion event, delivered through the outbox after the commit.
    await eventually(() => lookup(visitor(), postId), (r) => r.status === 404);
    expect((await visitor().get(api.userPosts.path, { id: owner.user.id })).body.posts).toEqual([]);
  });
});
