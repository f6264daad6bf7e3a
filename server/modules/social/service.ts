/** Profiles, follow and user search. The only writer of `follows`. */
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { PublicProfile } from '../../../common/api/social';
import { SEARCH_MIN_CHARS } from '../../../common/constants';
import { MSG } from '../../../common/messages';
import type { Db } from '../../platform/db/client';
import { COALESCED_READS, createBatcher } from '../../platform/batching';
import type { EventOutbox } from '../../platform/event-outbox';
import { preparedOnFirstUse } from '../../platform/db/prepared';
import { badRequest, forbidden, notFound } from '../../platform/http/errors';
import { nameChangesSql, people } from '../accounts';
import { createNameIndex, type NameChange } from './name-index';
import { follows } from './tables';
import { escapeLike } from '../../platform/db/like';
import { integerArray } from '../../platform/db/arrays';

export interface Page {
  offset: number;
  limit: number;
}

/** A person in a user search's page, with their saved broadcaster scores (null: never streamed). */
interface SearchListed {
  user_id: number;
  avatar: string | null;
  username: string;
  am_following: boolean;
  score: BroadcasterScore | null;
}

/** A person of a search page as the database lists them: scores null for one who never streamed. */
type ListedRow = [user_id: number, avatar: string | null, username: string, likes: number | null, overall_rating: number | null];

/** A search page's people asked of the database: their ids, for whom, and the last name change the index has seen. */
interface PageAsk {
  ids: number[];
  viewer: number;
  after: number;
}

interface PageRead {
  /** The page's people in the order asked, those no longer active left out. */
  listed: SearchListed[];
  changes: NameChange[];
}

/** A search list has no use for an exact count of tens of thousands of matches. */
const SEARCH_TOTAL_CAP = 1000;

/** Below this length a "typo" match is noise (and costs a scan): three letters are matched as typed. */
const TYPO_MIN_CHARS = 4;

/** Username filter of follower lists: applies from 3 characters (spec part 2 §5). */
const nameFilter = (searchText: string | undefined) =>
  searchText && searchText.length >= SEARCH_MIN_CHARS
    ? sql`lower(${people.username}) like ${`%${escapeLike(searchText.toLowerCase())}%`}`
    : undefined;

/** A searched follower list shows the name typed exactly first, then names starting with it, then the rest. */
const nameMatchFirst = (searchText: string | undefined): SQL[] => {
  if (!nameFilter(searchText) || !searchText) return [];
  const text = searchText.toLowerCase();
  return [
    desc(sql`lower(${people.username}) = ${text}`),
    desc(sql`lower(${people.username}) like ${`${escapeLike(text)}%`}`),
  ];
};

/** Whether `viewerId` follows the user of the row (false for guests). */
const viewerFollows = (viewerId: number | null) =>
  viewerId
    ? sql<boolean>`exists (select 1 from ${follows} as mine where mine.follower_id = ${viewerId} and mine.followee_id = ${people.id})`
    : sql<boolean>`false`;

const listedUser = (viewerId: number | null) => ({
  user_id: people.id,
  username: people.username,
  avatar: people.avatar,
  country: people.country,
  am_following: viewerFollows(viewerId),
});

// City and address are not collected at sign-up; the spec's follower shape carries them.
const toFollower = (row: { user_id: number; username: string; avatar: string | null; country: string; am_following: boolean }) => ({
  ...row,
  city: '',
  address: '',
});

/** A broadcaster's likes and overall rating (the streams module answers them: the hook `broadcasterScores`). */
export interface BroadcasterScore {
  likes: number;
  overall_rating: number;
}
export const NO_SCORE: BroadcasterScore = { likes: 0, overall_rating: 0 };
/** Saved scores as a column of another statement (null: never streamed), then completed with what is not saved yet. */
export interface BroadcasterScoreReads {
  savedColumn: (userId: SQL) => SQL<BroadcasterScore | null>;
  /** The saved scores of the users of an id array, a table `(user_id, likes, overall_rating)` without the users who never streamed. */
  savedTable: (userIds: SQL) => SQL;
  complete: (saved: Map<number, BroadcasterScore>) => Promise<Map<number, BroadcasterScore>>;
}

/** The caller's subscription standing towards a user (the subscriptions module answers it: the hook `subscriptionStanding`). */
export type SubscriptionStanding = (viewerId: number | null, userId: number) => Promise<{ subscribed: boolean; can_subscribe: boolean }>;

export function createSocialService(deps: {
  db: Db;
  /** `social.followed` is written with the follow: the followee's notice follows it at least once. */
  outbox: EventOutbox;
  /** The hooks the streams and subscriptions modules (after this one) fill. */
  broadcasterScores: () => BroadcasterScoreReads;
  subscriptionStanding: () => SubscriptionStanding;
}) {
  const { db } = deps;
  const subscriptionStanding: SubscriptionStanding = (viewerId, userId) => deps.subscriptionStanding()(viewerId, userId);
  /** The scores of people read with their saved scores: completed only when one of them has streams. */
  const scoresOf = (people: Array<{ id: number; score: BroadcasterScore | null }>) => {
    const saved = new Map(people.flatMap((p) => (p.score ? [[p.id, p.score] as const] : [])));
    return saved.size === 0 ? Promise.resolve(saved) : deps.broadcasterScores().complete(saved);
  };

  async function followState(viewerId: number | null, userId: number) {
    if (!viewerId || viewerId === userId) return { am_following: false, following_notify: false, following_me: false };
    const rows = await db
      .select({ followerId: follows.followerId, notify: follows.notify })
      .from(follows)
      .where(
        sql`(${follows.followerId} = ${viewerId} and ${follows.followeeId} = ${userId}) or (${follows.followerId} = ${userId} and ${follows.followeeId} = ${viewerId})`,
      );
    const mine = rows.find((r) => r.followerId === viewerId);
    return { am_following: Boolean(mine), following_notify: mine?.notify ?? false, following_me: rows.some((r) => r.followerId === userId) };
  }

  async function counts(userId: number) {
    const [row] = await db
      .select({
        followers: sql<number>`(select count(*)::int from ${follows} where ${follows.followeeId} = ${userId})`,
        following: sql<number>`(select count(*)::int from ${follows} where ${follows.followerId} = ${userId})`,
      })
      .from(sql`(select 1) as one`);
    return { followers: row?.followers ?? 0, following: row?.following ?? 0 };
  }

  /**
   * Profiles' people with both follow counts and their saved broadcaster scores: one prepared statement
   * for the profiles asked together (decision 0078; a profile page is read far more than written), made
   * on first use as the search pages' is.
   */
  const profileRows = preparedOnFirstUse(
    () =>
      db.select({
        id: people.id,
        username: people.username,
        fullname: people.fullname,
        avatar: people.avatar,
        description: people.description,
        country: people.country,
        accountStatus: people.accountStatus,
        followers: sql<number>`(select count(*)::int from ${follows} where ${follows.followeeId} = ${people.id})`,
        following: sql<number>`(select count(*)::int from ${follows} where ${follows.followerId} = ${people.id})`,
        score: deps.broadcasterScores().savedColumn(sql.raw('people.id')),
      }).from(people).where(sql`${people.id} = any(${sql.placeholder('ids')}::bigint[])`),
    'social_profiles',
  );
  type ProfileRow = Awaited<ReturnType<typeof profileRows>>[number];
  const profiles = createBatcher<number, ProfileRow | undefined>({
    ...COALESCED_READS,
    run: async (ids) => {
      const found = new Map((await profileRows({ ids: integerArray(ids) })).map((row) => [row.id, row]));
      return ids.map((id) => found.get(id));
    },
  });

  const names = createNameIndex(db, { totalCap: SEARCH_TOTAL_CAP, typoMinChars: TYPO_MIN_CHARS });

  /**
   * The people of the search pages that arrive together, each once and active ones only, with their saved
   * broadcaster scores; which of the (viewer, person) pairs of signed-in viewers' pages are follows; and the
   * changes to names past the oldest number asked: one prepared statement (made on first use: the scores'
   * table comes from the streams module) for the batch (decision 0078). People and follows are arrays, not
   * objects with keys: on a batch of hundreds, keys cost the database and the parse twice as much.
   */
  const pagesAndChanges = preparedOnFirstUse(
    () =>
      db.select({
        listed: sql<ListedRow[]>`coalesce((select json_agg(json_build_array(people.id, people.avatar, people.username, scores.likes, scores.overall_rating))
          from ${people} left join ${deps.broadcasterScores().savedTable(sql`${sql.placeholder('ids')}::bigint[]`)} as scores on scores.user_id = people.id
          where people.id = any(${sql.placeholder('ids')}::bigint[]) and people.account_status = 'active'), '[]'::json)`,
        followed: sql<Array<[viewer: number, user: number]>>`coalesce((select json_agg(json_build_array(mine.follower_id, mine.followee_id))
          from unnest(${sql.placeholder('viewers')}::bigint[], ${sql.placeholder('followees')}::bigint[]) as asked(viewer, id)
          join ${follows} as mine on mine.follower_id = asked.viewer and mine.followee_id = asked.id), '[]'::json)`,
        changes: sql<NameChange[]>`${nameChangesSql(sql`${sql.placeholder('after')}::bigint`)}`,
      }).from(sql`(select 1) as one`),
    'social_search_pages',
  );

  const searchPages = createBatcher<PageAsk, PageRead>({
    ...COALESCED_READS,
    run: async (asks) => {
      const ids = new Set<number>();
      const viewers: number[] = [];
      const followees: number[] = [];
      for (const ask of asks) {
        for (const id of ask.ids) {
          ids.add(id);
          if (ask.viewer !== 0) {
            viewers.push(ask.viewer);
            followees.push(id);
          }
        }
      }
      const [row] = await pagesAndChanges({
        ids: integerArray([...ids]), viewers: integerArray(viewers), followees: integerArray(followees), after: Math.min(...asks.map((ask) => ask.after)),
      });
      const found = new Map((row?.listed ?? []).map((person) => [person[0], person]));
      const followed = new Set((row?.followed ?? []).map(([viewer, user]) => `${viewer} ${user}`));
      const changes = row?.changes ?? [];
      return asks.map((ask) => {
        const listed: SearchListed[] = [];
        for (const id of ask.ids) {
          const person = found.get(id);
          if (!person) continue;
          const [, avatar, username, likes, overall_rating] = person;
          const am_following = ask.viewer !== 0 && followed.has(`${ask.viewer} ${id}`);
          listed.push({ user_id: id, avatar, username, am_following, score: likes === null ? null : { likes, overall_rating: overall_rating ?? 0 } });
        }
        return { listed, changes: changes.filter((change) => change.changeNo > ask.after) };
      });
    },
  });

  async function requireUser(userId: number) {
    const [row] = await db.select().from(people).where(eq(people.id, userId));
    if (!row || row.accountStatus !== 'active') throw notFound(MSG.userNotFound);
    return row;
  }

  /** One side of the follow graph of a user: who follows them, or whom they follow; newest first. */
  async function connections(side: 'followers' | 'following', viewerId: number, userId: number, onlyId: number | undefined, searchText: string | undefined, page: Page) {
    await requireUser(userId);
    const [self, other] = side === 'followers' ? [follows.followeeId, follows.followerId] : [follows.followerId, follows.followeeId];
    const where = and(eq(self, userId), onlyId ? eq(other, onlyId) : undefined, nameFilter(searchText));
    const [rows, [total]] = await Promise.all([
      db.select(listedUser(viewerId)).from(follows).innerJoin(people, eq(people.id, other)).where(where)
        .orderBy(...nameMatchFirst(searchText), desc(follows.createdAt), desc(people.id)).offset(page.offset).limit(page.limit),
      db.select({ n: count() }).from(follows).innerJoin(people, eq(people.id, other)).where(where),
    ]);
    return { rows: rows.map(toFollower), total: total?.n ?? 0 };
  }

  return {
    /** Removes every follow from and to the user (a deleted account). */
    async forgetFollows(userId: number) {
      await db.delete(follows).where(sql`${follows.followerId} = ${userId} or ${follows.followeeId} = ${userId}`);
    },

    /** Whether the viewer follows the user, and with the bell on. */
    async relation(viewerId: number | null, userId: number) {
      const state = await followState(viewerId, userId);
      return { isFollowing: state.am_following, notify: state.following_notify };
    },

    /** Everyone the user follows (the Following channel). */
    async followeeIds(userId: number): Promise<number[]> {
      const rows = await db.select({ id: follows.followeeId }).from(follows).where(eq(follows.followerId, userId));
      return rows.map((r) => r.id);
    },

    async profile(userId: number, viewerId: number | null): Promise<PublicProfile> {
      const user = await profiles.submit(userId);
      if (!user || user.accountStatus !== 'active') throw notFound(MSG.userNotFound);
      const [scores, follow, standing] = await Promise.all([scoresOf([user]), followState(viewerId, userId), subscriptionStanding(viewerId, userId)]);
      return {
        user_id: user.id,
        username: user.username,
        fullname: user.fullname,
        avatar: user.avatar,
        description: user.description,
        country: user.country,
        followers: user.followers,
        following: user.following,
        ...(scores.get(userId) ?? NO_SCORE),
        ...follow,
        ...standing,
        is_self: viewerId === userId,
      };
    },

    /** Sets the follow state idempotently; following turns notifications on unless told otherwise. */
    async setFollowing(followerId: number, followeeId: number, follow: boolean, notify = true) {
      // Spec part 1 §6: owners do not follow themselves; a refusal of the caller, not of the input.
      if (followerId === followeeId) throw forbidden(MSG.cannotFollowSelf);
      await requireUser(followeeId);
      if (follow) {
        const followed = await db.transaction(async (tx) => {
          const [row] = await tx.insert(follows).values({ followerId, followeeId, notify }).onConflictDoUpdate({
            target: [follows.followerId, follows.followeeId],
            set: { notify },
          }).returning({ isNew: sql<boolean>`xmax = 0`, at: follows.createdAt });
          // Only a follow that did not exist is news for the followee (xmax is 0 on a row just inserted).
          if (!row?.isNew) return null;
          const news = { followerId, followeeId, at: row.at.toISOString() };
          await deps.outbox.write(tx, 'social.followed', news);
          return news;
        });
        if (followed) await deps.outbox.afterCommit('social.followed', followed);
      } else {
        await db.delete(follows).where(and(eq(follows.followerId, followerId), eq(follows.followeeId, followeeId)));
      }
      return { is_following: follow, notify: follow && notify, followers: (await counts(followeeId)).followers };
    },

    async setNotify(followerId: number, followeeId: number, notify: boolean) {
      if (followerId === followeeId) throw forbidden(MSG.cannotFollowSelf);
      const updated = await db
        .update(follows)
        .set({ notify })
        .where(and(eq(follows.followerId, followerId), eq(follows.followeeId, followeeId)))
        .returning({ notify: follows.notify });
      if (updated.length === 0) throw badRequest(MSG.notifyNeedsFollow, 'id');
      return { notify };
    },

    async followers(viewerId: number, userId: number, searchText: string | undefined, page: Page) {
      const { rows, total } = await connections('followers', viewerId, userId, undefined, searchText, page);
      return { followers: rows, total };
    },

    async following(viewerId: number, userId: number, onlyId: number | undefined, searchText: string | undefined, page: Page) {
      const { rows, total } = await connections('following', viewerId, userId, onlyId, searchText, page);
      return { following: rows, total };
    },

    /**
     * Names that start with the text come first, in name order; names that contain it elsewhere follow;
     * when the first page is still not full, names within trigram similarity fill it (typos, from 4
     * characters). The total counts up to SEARCH_TOTAL_CAP. Matched in this instance's name index
     * (decision 0075), then the page's people read in one prepared statement with those of the searches
     * that arrive together (decision 0078).
     */
    async searchUsers(text: string, viewerId: number | null, page: Page) {
      const { total, listed: found } = await names.search(text, page, (wanted, after) => searchPages.submit({ ids: wanted, after, viewer: viewerId ?? 0 }));
      const scores = await scoresOf(found.map((r) => ({ id: r.user_id, score: r.score })));
      // Built field by field: a page is fifty people, and spreading them was a twentieth of a search's time.
      const users = found.map((r) => {
        const { likes, overall_rating } = scores.get(r.user_id) ?? NO_SCORE;
        return { user_id: r.user_id, avatar: r.avatar, username: r.username, am_following: r.am_following, likes, overall_rating };
      });
      return { users, total };
    },
  };
}

export type SocialService = ReturnType<typeof createSocialService>;
