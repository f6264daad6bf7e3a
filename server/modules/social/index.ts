/** Social: profiles, follow and user search. It owns the follow graph. */
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { follows } from './tables';
import type { Executor } from '../../platform/db/client';
import type { AppModule, ModuleContext } from '../../platform/module';
import { registerSocialRoutes } from './routes';
import { createSocialService, type BroadcasterScoreReads, type SocialService, type SubscriptionStanding } from './service';
import './events';

export { NO_SCORE, type BroadcasterScore, type BroadcasterScoreReads, type SocialService } from './service';

declare module '../../platform/module' {
  interface ModuleServices {
    social: SocialService;
  }
  interface ModuleHooks {
    /** Profiles and user search show what the streams module reports of each broadcaster. */
    broadcasterScores: BroadcasterScoreReads;
    /** Profiles show whether the caller is subscribed to the user, and may subscribe. */
    subscriptionStanding: SubscriptionStanding;
  }
}

export function createSocialModule(ctx: ModuleContext): AppModule {
  const { db, events, platform } = ctx;
  const social = createSocialService({
    db, outbox: platform.outbox, broadcasterScores: ctx.hook('broadcasterScores', 'streams'), subscriptionStanding: ctx.hook('subscriptionStanding', 'subscriptions'),
  });
  // A deleted account follows no one and has no followers.
  events.onDurable('account.deleted', ({ userId }) => social.forgetFollows(userId));
  return { name: 'social', services: { social }, routes: (app) => registerSocialRoutes(app, { social }) };
}

/** True (as SQL) while the follower follows the followee; either may be a column of the embedding statement. */
export const isFollowingSql = (followerId: number | SQL | AnyColumn, followeeId: number | SQL | AnyColumn) =>
  sql`exists (select 1 from ${follows} f where f.follower_id = ${followerId} and f.followee_id = ${followeeId})`;

/** Everyone following the user, as `user_id` (the audience of a message to many). */
export const followersSql = (followeeId: number) => sql`select follower_id as user_id from ${follows} where followee_id = ${followeeId}`;

/** The followers of a broadcaster who asked to hear when they go live (the bell on), as `user_id`. */
export const notifyingFollowersSql = (followeeId: number) =>
  sql`select follower_id as user_id from ${follows} where followee_id = ${followeeId} and notify`;

/**
 * Follows as analytics facts (a subquery): `creator_id` gained a follower at `at`. An unfollow removes
 * the row; the figures folded from it stay (a day's new followers are those it gained).
 */
export const followFactsSql = sql`select followee_id as creator_id, created_at as at from ${follows}`;

/** A follow made in the past, for history brought in (demo data); nothing when it exists. */
export async function recordPastFollow(exec: Executor, followerId: number, followeeId: number, at: Date): Promise<void> {
  await exec.insert(follows).values({ followerId, followeeId, createdAt: at }).onConflictDoNothing();
}
