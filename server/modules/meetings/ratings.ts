/** A guest's word on a call: a rating once it ended, a complaint, and saving it to their list. */
import { and, eq, sql } from 'drizzle-orm';
import { MSG } from '../../../common/messages';
import type { Db } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import { conflict, forbidden } from '../../platform/http/errors';
import type { Standings } from './standing';
import { meetingRatings, meetingReports, meetingSaves } from './tables';

export function createRatings(deps: { db: Db; standings: Standings }) {
  const { db } = deps;
  const { partyOf } = deps.standings;

  async function rate(id: number, principal: Principal, rating: number) {
    const { row, host } = await partyOf(id, principal);
    if (host) throw forbidden(MSG.meetingOwnCall);
    if (row.state !== 'ended') throw conflict(MSG.meetingNotOverYet);
    await db.insert(meetingRatings).values({ meetingId: id, userId: principal.userId, rating })
      .onConflictDoUpdate({ target: [meetingRatings.meetingId, meetingRatings.userId], set: { rating, createdAt: sql`now()` } });
    return {};
  }

  async function report(id: number, principal: Principal, input: { type: (typeof meetingReports.$inferInsert)['type']; user_comment?: string | undefined }) {
    const { host } = await partyOf(id, principal);
    if (host) throw forbidden(MSG.meetingOwnCall);
    await db.insert(meetingReports).values({ meetingId: id, reporterId: principal.userId, type: input.type, comment: input.user_comment ?? '' });
    return { message: MSG.complaintFiled };
  }

  async function save(id: number, principal: Principal, saved: boolean) {
    const { host } = await partyOf(id, principal);
    if (host) throw forbidden(MSG.meetingOwnCall);
    if (saved) await db.insert(meetingSaves).values({ meetingId: id, userId: principal.userId }).onConflictDoNothing();
    else await db.delete(meetingSaves).where(and(eq(meetingSaves.meetingId, id), eq(meetingSaves.userId, principal.userId)));
    return { saved };
  }

  return { rate, report, save };
}
