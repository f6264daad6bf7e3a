import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../common/messages';
import { startTestApp, type TestApp } from '../../testing/harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('profiles', () => {
  it('shows a public profile with follow counts and the viewer state', async () => {
    const star = await t.given.user({ username: 'profile_star' });
    const { client: fanClient } = await t.given.follower(star);

    const asGuest = await t.client().get('/api/user/user-lookup', { id: star.id });
    expect(asGuest.status).toBe(200);
    expect(asGuest.body.user).toMatchObject({ user_id: star.id, username: 'profile_star', followers: 1, following: 0, am_following: false, is_self: false });
    expect(JSON.stringify(asGuest.body)).not.toMatch(/email|password|broadcast_key/);

    const asFan = await fanClient.get('/api/user/user-lookup', { id: star.id });
    expect(asFan.body.user).toMatchObject({ am_following: true, following_notify: true, following_me: false });
    const asSelf = await (await t.given.signedIn(star)).get('/api/user/user-lookup', { id: star.id });
    expect(asSelf.body.user).toMatchObject({ is_self: true, am_following: false, following_me: false });
  });

  it('answers 404 for unknown or suspended users', async () => {
    expect((await t.client().get('/api/user/user-lookup', { id: 9_999_999 })).status).toBe(404);
    expect((await t.client().get('/api/user/user-lookup', { id: 'abc' })).status).toBe(400);
    const suspended = await t.given.user();
    await t.resources.database.db.execute(sql`update users set account_status = 'suspended' where id = ${suspended.id}`);
    expect((await t.client().get('/api/user/user-lookup', { id: suspended.id })).status).toBe(404);
  });
});

describe('profiles asked together', () => {
  it('answers each its own person, and the unknown and suspended with 404', async () => {
    const [ada, bo] = [await t.given.user({ username: 'together_ada' }), await t.given.user({ username: 'together_bo' })];
    const { client: fan } = await t.given.follower(bo);
    const suspended = await t.given.user();
    await t.resources.database.db.execute(sql`update users set account_status = 'suspended' where id = ${suspended.id}`);
    const round = () => [
      t.client().get('/api/user/user-lookup', { id: ada.id }), fan.get('/api/user/user-lookup', { id: bo.id }),
      t.client().get('/api/user/user-lookup', { id: 9_999_999 }), fan.get('/api/user/user-lookup', { id: suspended.id }),
      fan.get('/api/user/user-lookup', { id: ada.id }),
    ];
    const seen = (await Promise.all([...round(), ...round(), ...round()])).map((res) => {
      const user = res.body.user as { username: string; followers: number; am_following: boolean } | undefined;
      return user ? `${user.username}: ${user.followers} followers${user.am_following ? ', following' : ''}` : res.status;
    });
    const expected = ['together_ada: 0 followers', 'together_bo: 1 followers, following', 404, 404, 'together_ada: 0 followers'];
    expect(seen).toEqual([...expected, ...expected, ...expected]);
  });
});

describe('follow', () => {
  it('follows with notifications on, toggles the bell only while following, unfollows', async () => {
    const star = await t.given.user();
    const client = await t.given.signedIn(await t.given.user());
    const followed = await client.post('/api/user/toggle-following', { id: star.id, isFollowing: true });
    expect(followed.body).toMatchObject({ response: 'success', is_following: true, notify: true, followers: 1 });
    expect((await client.post('/api/user/toggle-following', { id: star.id, isFollowing: true })).body).toMatchObject({ followers: 1 });

    expect((await client.post('/api/user/toggle-notification', { id: star.id, notify: false })).body).toMatchObject({ notify: false });
    expect(((await client.get('/api/user/user-lookup', { id: star.id })).body.user as { following_notify: boolean }).following_notify).toBe(false);

    const unfollowed = await client.post('/api/user/toggle-following', { id: star.id, isFollowing: false });
    expect(unfollowed.body).toMatchObject({ is_following: false, followers: 0 });
    const bell = await client.post('/api/user/toggle-notification', { id: star.id, notify: true });
    expect(bell.status).toBe(400);
    expect(bell.body.message).toBe(MSG.notifyNeedsFollow);
  });

  it('refuses following yourself, unknown users and guests', async () => {
    const me = await t.given.user();
    const client = await t.given.signedIn(me);
    const self = await client.post('/api/user/toggle-following', { id: me.id, isFollowing: true });
    expect(self.status).toBe(403);
    expect(self.body.message).toBe(MSG.cannotFollowSelf);
    expect((await client.post('/api/user/toggle-following', { id: 9_999_999, isFollowing: true })).status).toBe(404);
    expect((await t.client().post('/api/user/toggle-following', { id: me.id, isFollowing: true })).status).toBe(401);
    expect((await t.client().post('/api/user/toggle-notification', { id: me.id, notify: true })).status).toBe(401);
    expect((await t.client().get('/api/user/followers', { user_id: me.id })).status).toBe(401);
  });

  it('lists followers and following newest first, pages them and filters from 3 characters', async () => {
    const star = await t.given.user();
    const fans = [];
    for (const name of ['zed_alpha', 'zed_beta', 'zed_gamma', 'yak_one']) {
      const fan = await t.given.user({ username: `${name}_${star.id}` });
      await (await t.given.signedIn(fan)).post('/api/user/toggle-following', { id: star.id, isFollowing: true });
      fans.push(fan);
    }
    const viewer = await t.given.signedIn(star);
    const all = await viewer.get('/api/user/followers', { user_id: star.id });
    expect(all.body.total).toBe(4);
    expect((all.body.followers as Array<{ username: string }>).map((f) => f.username)[0]).toBe(fans[3]!.username);
    expect(all.body.followers).toContainEqual(expect.objectContaining({ user_id: fans[0]!.id, city: '', address: '', country: 'US', am_following: false }));
    await viewer.post('/api/user/toggle-following', { id: fans[0]!.id, isFollowing: true });
    const afterFollowBack = await viewer.get('/api/user/followers', { user_id: star.id });
    expect(afterFollowBack.body.followers).toContainEqual(expect.objectContaining({ user_id: fans[0]!.id, am_following: true }));

    const mine = await viewer.get('/api/user/followers');
    expect(mine.body.total).toBe(4);
    const filtered = await viewer.get('/api/user/followers', { user_id: star.id, search_text: 'ZED' });
    expect(filtered.body.total).toBe(3);
    const tooShort = await viewer.get('/api/user/followers', { user_id: star.id, search_text: 'ze' });
    expect(tooShort.body.total).toBe(4);
    const paged = await viewer.get('/api/user/followers', { user_id: star.id, offset: 1, limit: 2 });
    expect((paged.body.followers as unknown[]).length).toBe(2);
    expect((await viewer.get('/api/user/followers', { user_id: star.id, limit: 201 })).status).toBe(400);

    const following = await viewer.get('/api/user/following', { id: fans[0]!.id });
    expect(following.body).toMatchObject({ total: 1, following: [expect.objectContaining({ user_id: star.id })] });
    expect((await viewer.get('/api/user/following', { id: fans[0]!.id, fid: fans[1]!.id })).body.total).toBe(0);
  });
});

describe('user search', () => {
  it('finds users by a part of their name, best match first, with the viewer follow state', async () => {
    const target = await t.given.user({ username: 'searchable_sam' });
    await t.given.user({ username: 'sammy_searchable' });
    const viewer = await t.given.signedIn(await t.given.user());
    await viewer.post('/api/user/toggle-following', { id: target.id, isFollowing: true });

    const res = await viewer.get('/api/channel/search-user', { search: 'searchable_s' });
    expect(res.status).toBe(200);
    const found = res.body.users as Array<{ username: string; am_following: boolean }>;
    expect(found[0]).toMatchObject({ username: 'searchable_sam', am_following: true });
    expect(found.map((u) => u.username)).toContain('sammy_searchable');

    const fuzzy = await t.client().get('/api/channel/search-user', { search: 'serchable_sam' });
    expect((fuzzy.body.users as Array<{ username: string }>).map((u) => u.username)).toContain('searchable_sam');
    const nothing = await t.client().get('/api/channel/search-user', { search: 'qqqxxxzzz' });
    expect(nothing.body).toMatchObject({ users: [], total: 0 });
  });

  it('answers searches that arrive together each with its own page and its own viewer\'s follow state', async () => {
    const [anna, bert] = [await t.given.user({ username: 'coal_anna' }), await t.given.user({ username: 'coal_bert' })];
    await t.given.user({ username: 'coal_cara' });
    const [a, b] = [await t.given.signedIn(await t.given.user()), await t.given.signedIn(await t.given.user())];
    await a.post('/api/user/toggle-following', { id: anna.id, isFollowing: true });
    await b.post('/api/user/toggle-following', { id: bert.id, isFollowing: true });

    const followed = (res: { body: Record<string, unknown> }) =>
      (res.body.users as Array<{ username: string; am_following: boolean }>).map((u) => `${u.username}${u.am_following ? ' (following)' : ''}`);
    const answers = await Promise.all([
      a.get('/api/channel/search-user', { search: 'coal_' }),
      b.get('/api/channel/search-user', { search: 'coal_' }),
      t.client().get('/api/channel/search-user', { search: 'coal_' }),
      a.get('/api/channel/search-user', { search: 'coal_ber' }),
      b.get('/api/channel/search-user', { search: 'coal_', offset: 1, limit: 1 }),
    ]);
    expect(answers.map(followed)).toEqual([
      ['coal_anna (following)', 'coal_bert', 'coal_cara'],
      ['coal_anna', 'coal_bert (following)', 'coal_cara'],
      ['coal_anna', 'coal_bert', 'coal_cara'],
      ['coal_bert', 'coal_cara', 'coal_anna (following)'],
      ['coal_bert (following)'],
    ]);
    expect(answers.map((res) => res.body.total)).toEqual([3, 3, 3, 3, 3]);
  });

  it('lists a searched follower list with the exact name first, then names starting with it, then newest first', async () => {
    const star = await t.given.user();
    for (const username of ['the_rio_fan', 'Rio_Fan', 'rio_fan_club', 'my_rio_fan']) {
      const fan = await t.given.signedIn(await t.given.user({ username }));
      await fan.post('/api/user/toggle-following', { id: star.id, isFollowing: true });
    }
    const client = await t.given.signedIn(star);
    const found = await client.get('/api/user/followers', { user_id: star.id, search_text: 'rio_fan' });
    expect((found.body.followers as Array<{ username: string }>).map((f) => f.username)).toEqual(['Rio_Fan', 'rio_fan_club', 'my_rio_fan', 'the_rio_fan']);
    const all = await client.get('/api/user/followers', { user_id: star.id });
    expect((all.body.followers as Array<{ username: string }>).map((f) => f.username)).toEqual(['my_rio_fan', 'rio_fan_club', 'Rio_Fan', 'the_rio_fan']);
  });

  it('puts the user named exactly as searched first, whatever the case, before longer names and near matches', async () => {
    for (const username of ['kai_exact1', 'kai_exact_fan', 'the_kai_exact', 'kai_exakt', 'Kai_Exact']) await t.given.user({ username });
    for (const search of ['kai_exact', 'KAI_EXACT', ' Kai_Exact ']) {
      const found = (await t.client().get('/api/channel/search-user', { search })).body.users as Array<{ username: string }>;
      expect(found[0]?.username).toBe('Kai_Exact');
      expect(found.map((u) => u.username)).toEqual(expect.arrayContaining(['kai_exact1', 'kai_exact_fan', 'the_kai_exact']));
    }
  });

  it('needs at least three characters and treats wildcards as text', async () => {
    const short = await t.client().get('/api/channel/search-user', { search: 'ab' });
    expect(short.status).toBe(400);
    expect(short.body.message).toBe('Please enter at least 3 characters');
    const wildcard = await t.client().get('/api/channel/search-user', { search: '%%%' });
    expect(wildcard.body.total).toBe(0);
  });
});
