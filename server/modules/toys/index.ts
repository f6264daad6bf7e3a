/**
 * Toy-device access (spec part 2 §4, decision 0020): a broadcaster grants one viewer remote control of
 * their connected toy for a tip. The state machine (`access.ts`), the device and control (`control.ts`),
 * the providers chosen by TOYS (`providers.ts`) and the rooms it lives in (`rooms.ts`: live streams and
 * meetings). Its realtime operations ride the rooms' channels: the chat module hands them over.
 */
import { ACCESS } from '../../platform/http/access';
import type { AppModule, ModuleContext } from '../../platform/module';
import { createAccessMachine, type AccessMachine } from './access';
import { createCallbacks } from './callbacks';
import { createControl, type Control } from './control';
import { lovenseProvider, simulatedProvider } from './providers';
import { createRecords } from './records';
import { createRooms } from './rooms';
import { registerToyRoutes } from './routes';

declare module '../../platform/module' {
  interface ModuleServices {
    toys: { access: AccessMachine; control: Control };
  }
}

const RULES = 'server/modules/toys/control.ts';
/** The viewer holding APPROVED access in the room; the broadcaster and anyone else 403, visitors 401. */
const APPROVED_VIEWER = ACCESS.with(ACCESS.signedIn, { cells: { user: 403, owner: 403, other: 'ok', moderator: 403, admin: 403 } });
/** The room's broadcaster; viewers and anyone else 403, visitors 401. */
const BROADCASTER = ACCESS.with(ACCESS.signedIn, { cells: { user: 403, owner: 'ok', other: 403, moderator: 403, admin: 403 } });

export async function createToysModule(ctx: ModuleContext): Promise<AppModule> {
  const chat = ctx.service('chat');
  const accounts = ctx.service('accounts');
  const secret = await ctx.secret('toys-lovense');
  const settings = ctx.config.toys;
  const provider = settings.kind === 'lovense' ? lovenseProvider(settings, secret) : simulatedProvider(secret);
  const rooms = createRooms({ streamReads: ctx.service('streamReads'), streamAccess: ctx.service('streamAccess'), meetings: ctx.service('meetings') });
  const records = createRecords({ db: ctx.db, accounts, publish: chat.publish });
  const access = createAccessMachine({
    db: ctx.db, ledger: ctx.service('ledger'), accounts, chat, rooms, records, provider, feePercent: ctx.config.platformFees.toy_tip ?? 0, outbox: ctx.platform.outbox,
  });
  const control = createControl({ db: ctx.db, chat, rooms, records, access, provider, log: ctx.log });
  const callbacks = createCallbacks({ db: ctx.db, provider, isUser: async (userId) => (await accounts.publicUsers([userId])).has(userId) });
  ctx.fill('toyRules', { handleSend: (place, frame, viewer) => control.handleSend(place, frame, viewer) });
  // A broadcast or a call that ends takes every access of its room with it.
  ctx.events.on('stream.ended', ({ streamId }) => access.closeRoom({ room: 'stream', streamId }, 'ROOM_CLOSED'));
  ctx.events.on('meeting.ended', ({ meetingId }) => access.closeRoom({ room: 'meeting', streamId: meetingId }, 'ROOM_CLOSED'));
  return {
    name: 'toys',
    services: { toys: { access, control } },
    routes: (app) => registerToyRoutes(app, { access, control, rooms, provider, callbacks, accounts, watcherIds: chat.watcherIds }),
    jobs: [{ name: 'purge-toy-callback-nonces', everyMs: 60 * 60_000, roles: ['worker'], run: callbacks.purgeOld }],
    realtime: [
      { op: 'send', name: 'lovense-command', auth: 'user', access: APPROVED_VIEWER, handler: RULES },
      { op: 'send', name: 'lovense-add-device-request', auth: 'user', access: APPROVED_VIEWER, handler: RULES },
      // Any viewer in the room may hang up (nothing open: nothing happens); the broadcaster has their own.
      { op: 'send', name: 'lovense-viewer-end-call', auth: 'user', access: APPROVED_VIEWER, handler: RULES },
      { op: 'send', name: 'lovense-host-end-call', auth: 'user', access: BROADCASTER, handler: RULES },
    ],
    stop: async () => control.stop(),
  };
}
