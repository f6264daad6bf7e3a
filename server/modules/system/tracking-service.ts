/** Campaign and referral tracking (spec part 2 §7 track-event): events per tracker id and signed-in user. */
import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, isNotNull, or, type SQL } from 'drizzle-orm';
import type { TRACK_ACTIONS } from '../../../common/api/tracking';
import { LOGIN_THROTTLE } from '../../../common/constants';
import type { Db } from '../../platform/db/client';
import { MSG } from '../../../common/messages';
import { tooManyRequests } from '../../platform/http/errors';
import { createThrottle } from '../../platform/throttle';
import { trackingEvents } from './tables';

export interface TrackEvent {
  action: (typeof TRACK_ACTIONS)[number];
  referralCode?: string;
  campaign?: string;
  tracker?: string;
  refId?: string;
}

export interface TrackContext {
  /** The signed-in caller, never a user id taken from the request body. */
  userId: number | null;
  ip: string;
  userAgent?: string;
}

/** A sign-up, told to whoever credits it: the referral codes its browser's tracker saw, first first. */
export interface Registration {
  userId: number;
  referralCodes: string[];
}

/** How many of a tracker's referral codes a sign-up is told (the first valid one is credited). */
const CODES_TOLD = 5;

/** Actions that show a tracker or user is no longer new. */
const RETURNING_ACTIONS = ['user_login', 'user_registered'] as const;

/** Anonymous writes need a ceiling: this many events per address per window (the throttle's 15 minutes). */
const EVENTS_PER_ADDRESS = 100;

export function createTrackingService(deps: {
  db: Db;
  /** Who is told of sign-ups: the hook the referral programme, a later module, fills. */
  registrations: () => (registration: Registration) => Promise<void>;
}) {
  const { db } = deps;
  const throttle = createThrottle(db, LOGIN_THROTTLE);

  /** The referral codes this tracker carried, earliest first (first touch), each once. */
  async function referralCodesOf(tracker: string): Promise<string[]> {
    const rows = await db.select({ code: trackingEvents.referralCode }).from(trackingEvents)
      .where(and(eq(trackingEvents.tracker, tracker), isNotNull(trackingEvents.referralCode)))
      .orderBy(asc(trackingEvents.createdAt), asc(trackingEvents.id)).limit(50);
    return [...new Set(rows.map((row) => row.code!))].slice(0, CODES_TOLD);
  }

  return {
    /** Stores the event; answers the tracker id, made up when the client has none yet. */
    async track(event: TrackEvent, context: TrackContext): Promise<string> {
      const perAddress = [{ key: `tracking:ip:${context.ip}`, limit: EVENTS_PER_ADDRESS }];
      if (await throttle.isLimited(perAddress)) throw tooManyRequests(MSG.tooManyTrackingEvents);
      await throttle.record(perAddress);
      const tracker = event.tracker || randomBytes(16).toString('base64url');
      await db.insert(trackingEvents).values({
        action: event.action,
        referralCode: event.referralCode || null,
        campaign: event.campaign || null,
        tracker,
        userId: context.userId,
        refId: event.refId || null,
        ip: context.ip,
        userAgent: context.userAgent?.slice(0, 300) ?? null,
      });
      if (event.action === 'user_registered' && context.userId !== null) {
        await deps.registrations()({ userId: context.userId, referralCodes: await referralCodesOf(tracker) });
      }
      return tracker;
    },

    /** New until a login or registration was tracked for this tracker or this user. */
    async isNewUser(tracker: string | undefined, userId: number | null): Promise<boolean> {
      const whose: SQL[] = [];
      if (tracker) whose.push(eq(trackingEvents.tracker, tracker));
      if (userId !== null) whose.push(eq(trackingEvents.userId, userId));
      if (whose.length === 0) return true;
      const [seen] = await db
        .select({ id: trackingEvents.id })
        .from(trackingEvents)
        .where(and(inArray(trackingEvents.action, [...RETURNING_ACTIONS]), or(...whose)))
        .limit(1);
      return !seen;
    },
  };
}

export type TrackingService = ReturnType<typeof createTrackingService>;
