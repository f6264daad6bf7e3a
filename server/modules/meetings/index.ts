/**
 * Scheduled paid video calls (decision 0019): the calendar, the room's calls, and the rules of the
 * room's realtime channel, which it hands to the chat module (the gateway's owner, earlier in MODULES).
 */
import { ACCESS } from '../../platform/http/access';
import type { AppModule, ModuleContext } from '../../platform/module';
import { registerMeetingRoutes } from './routes';
import { createMeetingsService, type MeetingsService } from './service';

export type { MeetingsService } from './service';

declare module '../../platform/module' {
  interface ModuleServices {
    meetings: MeetingsService;
  }
}

const RULES = 'server/modules/meetings/signalling.ts';
/** The room's people: the host (`owner`) and an invitee (`other`); others 403, visitors 401. */
const ROOM = ACCESS.with(ACCESS.signedIn, { cells: { user: 403, moderator: 403, admin: 403 } });

export function createMeetingsModule(ctx: ModuleContext): AppModule {
  const chat = ctx.service('chat');
  const meetings = createMeetingsService({
    db: ctx.db,
    accounts: ctx.service('accounts'),
    ledger: ctx.service('ledger'),
    chat,
    log: ctx.log,
    events: ctx.events,
    outbox: ctx.platform.outbox,
    feePercent: ctx.config.platformFees.meeting_fee ?? 0,
    conference: ctx.config.conference,
  });
  ctx.fill('meetingRules', meetings.rules);
  // The account's row stays as a shell (its wallets are in the books): its meetings and invitations go here.
  ctx.events.onDurable('account.deleted', ({ userId }) => meetings.forgetAccount(userId));
  return {
    name: 'meetings',
    services: { meetings },
    routes: (app) => registerMeetingRoutes(app, { meetings }),
    realtime: [
      // The host and invited, not-kicked people, while the meeting has not ended; others 403, visitors 401.
      { op: 'subscribe', name: 'meeting:<id>', auth: 'user', access: ROOM, handler: RULES },
      // Between two paid participants in the room (the host counts as paid); others 403.
      { op: 'send', name: 'SIGNAL', auth: 'user', access: ROOM, handler: RULES },
    ],
    stop: () => meetings.forgetInstance().catch((error: unknown) => ctx.log.warn({ err: error }, 'meeting presence not cleared')),
  };
}
