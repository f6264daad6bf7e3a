/**
 * The people a fuzz campaign plays among: the fuzzer (signed in, with coins and a stream of its own),
 * an anonymous visitor, a broadcaster who is live (a target for joins, ratings and tips), and a
 * bystander whose data — profile, balance, follows, settings, interests, cards, history — is written
 * before the campaign and must read the same after it.
 */
import { DEFAULT_PERMISSIONS } from '../../../common/permissions';
import { createSessionStore, SESSION_COOKIE } from '../../platform/http/sessions';
import type { TestApp } from '../harness';
import type { HttpSession } from '../http-session';
import type { TestUser } from '../given';

export interface Actor {
  user: TestUser;
  client: HttpSession;
}

export interface FuzzWorld {
  /** The signed-in session the campaign sends most inputs with; a new one if a request ended it. */
  fuzzer(): Promise<Actor>;
  /** Signs the fuzzer in again (after a logout …), or makes a new fuzzer. */
  revive(): Promise<void>;
  anonymous: HttpSession;
  bystander: Actor;
  /** Ids worth hitting: the users and streams made here, and small ones that exist in any database. */
  ids: number[];
  /** The bystander's data, read through the API. */
  snapshotBystander(): Promise<unknown>;
}

const FUZZER_COINS = 5_000;

export async function createFuzzWorld(t: TestApp): Promise<FuzzWorld> {
  const db = t.resources.database.db;
  const sessions = createSessionStore(db);
  // A session opened in the store, not through user-login: the fuzzed logins soon hit the per-address
  // throttle, and the fuzzer must still be signed in after that.
  const signedIn = async (user: TestUser): Promise<HttpSession> => {
    const { token } = await sessions.create(db, user.id, false, { userAgent: 'fuzz' });
    const client = t.client();
    client.setCookie(SESSION_COOKIE, token);
    return client;
  };
  const newFuzzer = async (): Promise<Actor> => {
    // A new account's permissions and the referral programme's, so its calls get past the permission to their work.
    const user = await t.given.user({ perms: [...DEFAULT_PERMISSIONS, 'ALLOW REFERRAL_ACCESS'] });
    await t.given.coins(user, FUZZER_COINS);
    return { user, client: await signedIn(user) };
  };

  const broadcaster = await t.given.liveStream({ title: 'Fuzz target show' });
  const bystander = await t.given.signedInUser();
  await t.given.coins(bystander.user, 1_234);
  await t.given.follower(broadcaster.user, bystander);
  const b = bystander.client;
  const id = bystander.user.id;
  await b.api('/api/user/update-user-info', { id, params: { prefix: 'MS', name: 'Bea Bystander', description: 'Here before the fuzz' } });
  await b.api('/api/user/update-user-preferences', { id, params: { notify_chat: false } });
  await b.api('/api/user/add-user-interest', { id, interest_ids: [1, 2, 3] });
  await b.api('/api/wallet/add-credit-card', { card: { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123', name: 'Bea Bystander' } });
  await b.api('/api/streams/save', { user_id: id, stream_id: broadcaster.streamId, save: true });

  let fuzzer = await newFuzzer();
  const own = await fuzzer.client.api<{ stream: { stream_id: number } }>('/api/streams/get-live-stream', {});

  const ids = [...new Set([1, 2, 3, fuzzer.user.id, bystander.user.id, broadcaster.user.id, broadcaster.streamId, own.stream.stream_id])];
  const anonymous = t.client();
  await anonymous.csrf();

  const read = async (path: string, body?: unknown) => {
    const res = body === undefined ? await b.request('GET', path) : await b.post(path, body);
    return { status: res.status, body: res.body };
  };

  return {
    fuzzer: async () => fuzzer,
    async revive() {
      // Suspended or otherwise unable to sign in: a new fuzzer takes over.
      const again = await signedIn(fuzzer.user);
      const alive = (await again.get('/api/user/check-user-session')).body as { is_logged_in?: boolean };
      fuzzer = alive.is_logged_in ? { user: fuzzer.user, client: again } : await newFuzzer();
      if (!ids.includes(fuzzer.user.id)) ids.push(fuzzer.user.id);
    },
    anonymous,
    bystander,
    ids,
    async snapshotBystander() {
      const profile = await read(`/api/user/user-lookup?id=${id}`);
      // Others may follow the bystander: the counts of followers are theirs to change, not the bystander's data.
      const user = (profile.body as { user?: Record<string, unknown> }).user ?? {};
      const ownProfile = Object.fromEntries(Object.entries(user).filter(([key]) => !/follower/i.test(key)));
      return {
        session: await read('/api/user/session-detail'),
        profile: { status: profile.status, user: ownProfile },
        balance: await read('/api/wallet/balance'),
        impressions: await read('/api/user/get-impression-balance'),
        following: await read(`/api/user/following?id=${id}`),
        preferences: await read(`/api/user/get-user-preferences?id=${id}`),
        interests: await read('/api/user/user-interest-list', { id }),
        cards: await read('/api/wallet/credit-cards'),
        transfers: await read('/api/wallet/transfers'),
        // Which streams the bystander saved; their counters (likes, viewers) belong to the streams.
        saved: await read('/api/streams/saved-streams').then(({ status, body }) => ({
          status,
          streams: ((body as { streams?: Array<{ stream_id: number }> }).streams ?? []).map((stream) => stream.stream_id),
        })),
      };
    },
  };
}
