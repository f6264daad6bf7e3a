/** Guests' channel listings of posts, from the instance's read cache (decision 0026): dropped when a post appears, changes or goes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../../common/api/posts';
import { startTestApp, type TestApp } from '../../testing/harness';
import { HttpSession } from '../../testing/http-session';
import { publishImagePost } from '../../testing/uploads';

let t: TestApp;
let base: string;
beforeAll(async () => {
  // A long life: only invalidation can make a change show. One proxy in front: a guest is an address.
  t = await startTestApp({ READ_CACHE_MS: '60000', TRUST_PROXY: 'on' });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => t.close());

describe('cached post listings', () => {
  it('show a new post at once, drop an edited or deleted one, and sign each guest’s pictures for that guest', async () => {
    const guest = (name: 'a' | 'b') => HttpSession.at(base, { 'x-forwarded-for': name === 'a' ? '198.51.100.1' : '198.51.100.2' });
    const channels = (await guest('a').get('/api/channel/base-group')).body.channels as Array<{ id: number; name: string }>;
    const discover = async (name: 'a' | 'b' = 'a') =>
      (await guest(name).get(api.listChannelPosts.path, { id: channels.find((c) => c.name === 'Discover')!.id })).body.posts as api.PostTile[];
    const ids = async () => (await discover()).map((tile) => tile.post_id);
    const before = await ids();

    const owner = await t.given.signedInUser();
    const ownerOverHttp = await HttpSession.at(base).signIn(owner.user.username, owner.user.password);
    const kept = await publishImagePost(ownerOverHttp, { title: 'Kept' });
    const edited = await publishImagePost(ownerOverHttp, { title: 'Edited' });
    const deleted = await publishImagePost(ownerOverHttp, { title: 'Deleted' });
    expect(await ids()).toEqual([deleted, edited, kept, ...before]);

    const [tileA, tileB] = [(await discover('a'))[0]!, (await discover('b'))[0]!];
    expect(tileA.post_id).toBe(tileB.post_id);
    expect(tileA.thumb_url).not.toBe(tileB.thumb_url);

    await ownerOverHttp.post(api.editPost.path, { post_id: edited, audience: 'followers' });
    await t.app.services.postModeration.deletePost(owner.user.id, deleted);
    expect(await ids()).toEqual([kept, ...before]);
  });
});
