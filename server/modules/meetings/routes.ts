/** HTTP handlers of meetings: the spec's five calendar calls (part 2 §7 Meetings) and the room's calls. */
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/meetings';
import { ACCESS, type Access, type Outcome } from '../../platform/http/access';
import { addRoute } from '../../platform/http/route';
import type { MeetingsService } from './service';

/**
 * A meeting's people (spec part 2 §6): `owner` is its host, `other` an invitee (a follower of the
 * host); anyone else — moderators and admins too: the call is private — does not see it (404).
 */
export const meetingParty = (host: Outcome, invitee: Outcome): Access =>
  ACCESS.with(ACCESS.signedIn, { cells: { user: 404, moderator: 404, admin: 404, owner: host, other: invitee } });
/** The host alone; an invitee is refused (403). */
const HOST_ONLY = meetingParty('ok', 403);
/** The participants but the host (pay, rate, report, save the host's call). */
const GUEST_ONLY = meetingParty(403, 'ok');

export function registerMeetingRoutes(app: FastifyInstance, deps: { meetings: MeetingsService }) {
  const { meetings } = deps;
  const tags = ['meetings'];

  // Anyone signed in may host: there is no hosting permission in spec part 1 §6; invitees must follow the host.
  addRoute(app, api.createMeeting, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) => ({
    data: { meeting_id: await meetings.create(principal, input) },
  }));

  addRoute(app, api.scheduleMeetings, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) => ({
    meetings: await meetings.list(principal, input),
  }));

  addRoute(app, api.meetingInvitations, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ principal }) => ({
    count: await meetings.newInvitations(principal),
  }));

  addRoute(app, api.scheduleMeeting, { auth: 'user', access: meetingParty('ok', 'ok'), tags }, async ({ input, principal }) => ({
    data: await meetings.detail(input.id, principal),
  }));

  addRoute(app, api.updateScheduleMeeting, { auth: 'user', access: HOST_ONLY, tags }, async ({ input, principal }) => ({
    data: { meeting_id: await meetings.update(input.id, principal, input.params) },
  }));

  addRoute(app, api.deleteScheduleMeeting, { auth: 'user', access: HOST_ONLY, tags }, async ({ input, principal }) => meetings.remove(input.id, principal));

  addRoute(app, api.joinMeeting, { auth: 'user', access: meetingParty('ok', 'ok'), tags }, async ({ input, principal }) => ({
    data: await meetings.join(input.id, principal),
  }));

  addRoute(app, api.payMeeting, { auth: 'user', access: GUEST_ONLY, tags }, async ({ input, principal, idempotencyKey }) =>
    meetings.pay(input.id, principal, input.amount, idempotencyKey));

  addRoute(app, api.kickFromMeeting, { auth: 'user', access: HOST_ONLY, tags }, async ({ input, principal }) => meetings.kick(input.id, principal, input.user_id));

  addRoute(app, api.endMeeting, { auth: 'user', access: HOST_ONLY, tags }, async ({ input, principal }) => meetings.end(input.id, principal));

  addRoute(app, api.rateMeeting, { auth: 'user', access: GUEST_ONLY, tags }, async ({ input, principal }) => meetings.rate(input.id, principal, input.rating));

  addRoute(app, api.reportMeeting, { auth: 'user', access: GUEST_ONLY, tags }, async ({ input, principal }) => meetings.report(input.id, principal, input));

  addRoute(app, api.saveMeeting, { auth: 'user', access: GUEST_ONLY, tags }, async ({ input, principal }) => meetings.save(input.id, principal, input.save));
}
