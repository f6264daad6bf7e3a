/**
 * Data factories for integration tests (`t.given.…`): what the suites need before the call they
 * test — users, signed-in sessions, coins, a live stream, a follower — made through the app's own
 * services and routes, so the data is what the product itself would have written.
 */
import type { FastifyInstance } from 'fastify';
import { DEFAULT_PERMISSIONS, type Permission, type Role } from '../../common/permissions';
import type { SkinId } from '../../common/skins';
import type { OpenedResources } from '../bootstrap';
import { createAccountAdmin } from '../modules/accounts';
import { depositTransfer, createLedger, type Currency } from '../modules/ledger';
import { pastTipTransfer, type PastTip } from '../modules/tips';
import { HttpSession } from './http-session';

export interface TestUser {
  id: number;
  username: string;
  email: string;
  password: string;
}

export interface UserOptions {
  username?: string;
  role?: Role;
  perms?: Permission[];
  termsAccepted?: boolean;
  skin?: SkinId;
}

export interface SignedInUser {
  user: TestUser;
  client: HttpSession;
}

export interface LiveStream extends SignedInUser {
  streamId: number;
  /** The owner's stream as get-live-stream answered it before the setup was saved. */
  stream: { stream_id: number; broadcast_key: string } & Record<string, unknown>;
}

let counter = 0;
let keys = 0;

export function createGiven(app: FastifyInstance, resources: OpenedResources) {
  const db = resources.database.db;
  const ledger = createLedger({ db });

  const given = {
    /** A user with a password, terms accepted unless told otherwise; `perms` replaces the default permissions. */
    async user(options: UserOptions = {}): Promise<TestUser> {
      counter += 1;
      const username = options.username ?? `user${process.pid}x${counter}`;
      const password = `pass-${username}-secret`;
      const email = `${username}@test.example`;
      const id = await app.services.accounts.createAccount(db, {
        username,
        email,
        password,
        birthdayIso: '1995-05-05',
        country: 'US',
        termsAccepted: options.termsAccepted ?? true,
        skin: options.skin ?? 'limelight',
        role: options.role,
      });
      if (options.perms) {
        const admin = createAccountAdmin({ db, audit: false });
        for (const perm of DEFAULT_PERMISSIONS) await admin.revoke(null, { username }, perm);
        for (const perm of options.perms) await admin.grant(null, { username }, perm);
      }
      return { id, username, email, password };
    },

    /** A session signed in as `user` through the login call. */
    async signedIn(user: TestUser): Promise<HttpSession> {
      return HttpSession.over(app).signIn(user.username, user.password);
    },

    /** A new user and its signed-in session. */
    async signedInUser(options: UserOptions = {}): Promise<SignedInUser> {
      const user = await given.user(options);
      return { user, client: await given.signedIn(user) };
    },

    /** An administrator and one signed-in holder of each moderator permission, each with a new account's permissions besides. */
    async moderators(): Promise<Record<'admin' | 'granter' | 'hider' | 'editor', SignedInUser>> {
      return {
        admin: await given.signedInUser({ role: 'admin' }),
        granter: await given.signedInUser({ perms: [...DEFAULT_PERMISSIONS, 'GRANT PERMISSION'] }),
        hider: await given.signedInUser({ perms: [...DEFAULT_PERMISSIONS, 'ALLOW REPORT_STREAM_HIDE'] }),
        editor: await given.signedInUser({ perms: [...DEFAULT_PERMISSIONS, 'UPDATE STREAM_ANY'] }),
      };
    },

    /**
     * Coins deposited into a user's wallet as a recorded payment (decision 0036): the mint issues them
     * beside a money leg — a card payment of a cent a coin in USD — and a payment reference. A real
     * currency (USD, CAD) is a card payment straight into the user's wallet in that currency.
     */
    async coins(user: { id: number } | number, amount: number, options: { currency?: Currency; key?: string } = {}): Promise<{ transferId: number }> {
      const userId = typeof user === 'number' ? user : user.id;
      const currency = options.currency ?? 'CON';
      const idempotencyKey = options.key ?? `given-coins-${process.pid}-${(keys += 1)}`;
      const paymentReference = `test:${idempotencyKey}`;
      if (currency === 'IMP') throw new Error('impressions are bought with coins: give coins, then buy an impressions package');
      const { transferId } = await ledger.transfer(currency === 'CON'
        ? depositTransfer({ userId, coins: amount, money: { account: 'card-payments', currency: 'USD', cents: amount }, paymentReference, idempotencyKey })
        : {
          kind: 'deposit', idempotencyKey, toUserId: userId, amount, currency, details: { payment_reference: paymentReference },
          legs: [{ account: { system: 'card-payments', currency }, amount: -amount }, { account: { userId, currency }, amount }],
        });
      return { transferId };
    },

    /** A tip made in the past (history), through the ledger; answers its transfer id. */
    async pastTip(tip: Omit<PastTip, 'key'>): Promise<number> {
      const { transferId } = await ledger.transfer(pastTipTransfer({ ...tip, key: `given-${process.pid}-${(keys += 1)}` }));
      return transferId;
    },

    /**
     * A broadcaster's stream set up (public, G unless `info` says otherwise) and live: the ingest's
     * part is played through the streams module's callbacks. A new broadcaster unless `owner` is given.
     */
    async liveStream(info: Record<string, unknown> = {}, owner?: TestUser): Promise<LiveStream> {
      const user = owner ?? (await given.user());
      const client = await given.signedIn(user);
      const own = await client.post('/api/streams/get-live-stream', {});
      const stream = own.body.stream as LiveStream['stream'];
      if (own.status !== 200 || !stream) throw new Error(`get-live-stream failed: ${own.status} ${JSON.stringify(own.body)}`);
      await client.post('/api/streams/update-stream-info', { id: stream.stream_id, data: { title: 'Chat show', audience: 'PUBLIC', rating: 'G', ...info } });
      await client.post('/api/streams/go-live', { id: stream.stream_id });
      const callbacks = app.services.broadcastCallbacks;
      const started = await callbacks.startBroadcast(stream.broadcast_key);
      if (started.streamId !== stream.stream_id) throw new Error(`the ingest started stream ${started.streamId}, not ${stream.stream_id}`);
      await callbacks.onLive({ streamId: stream.stream_id, broadcastId: 'b1', playlistKey: `media/${stream.stream_id}/b1/index.m3u8`, width: 1280, height: 720 });
      return { user, client, streamId: stream.stream_id, stream };
    },

    /** `fan` (a new signed-in user unless given) following `star`; answers the fan. */
    async follower(star: { id: number }, fan?: SignedInUser): Promise<SignedInUser> {
      const follower = fan ?? (await given.signedInUser());
      const res = await follower.client.post('/api/user/toggle-following', { id: star.id, isFollowing: true });
      if (res.status !== 200) throw new Error(`follow failed: ${res.status} ${JSON.stringify(res.body)}`);
      return follower;
    },
  };
  return given;
}

export type Given = ReturnType<typeof createGiven>;
