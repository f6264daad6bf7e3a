/**
 * Scheduled paid video calls (spec part 2 §1–§9, decision 0019), one file per concern: the caller's place
 * in a meeting (`standing.ts`), the host's calendar (`calendar.ts`) and its refunds (`refunds.ts`), the
 * room's calls and payments (`room.ts`), who is in the room (`presence.ts`), the room's realtime channel
 * and signalling (`signalling.ts`, handed to the chat module, which runs the gateway) and the guests'
 * ratings (`ratings.ts`). The only writer of the meetings tables; money moves through the ledger.
 */
import type { Config } from '../../config';
import type { Db } from '../../platform/db/client';
import type { EventOutbox } from '../../platform/event-outbox';
import type { DomainEventHub } from '../../platform/events';
import type { Principal } from '../../platform/http/auth';
import type { AccountsService } from '../accounts';
import type { ChatService } from '../chat';
import type { Ledger } from '../ledger';
import { createCalendar } from './calendar';
import { createRoomPresence } from './presence';
import { createRatings } from './ratings';
import { createRefunds } from './refunds';
import { createRoomCalls } from './room';
import { createRoomChat } from './signalling';
import { createStandings } from './standing';

export interface MeetingsDeps {
  db: Db;
  accounts: AccountsService;
  ledger: Ledger;
  chat: ChatService;
  log: { warn(obj: object, msg: string): void };
  events: DomainEventHub;
  feePercent: number;
  conference: Config['conference'];
  /** Events that follow a commit at least once (a paid guest told to the host, invitations). */
  outbox: EventOutbox;
  clock?: () => Date;
}

export function createMeetingsService(deps: MeetingsDeps) {
  const { db, accounts, ledger, chat, events, outbox } = deps;
  const clock = deps.clock ?? (() => new Date());
  const standings = createStandings({ db, accounts });
  const presence = createRoomPresence({ db, accounts, chat, standings, log: deps.log });
  const roomChat = createRoomChat({ db, accounts, chat, standings, presence });
  const calendar = createCalendar({ db, accounts, ledger, chat, events, outbox, standings, refunds: createRefunds({ ledger }), clock });
  const calls = createRoomCalls({ db, accounts, ledger, chat, events, outbox, feePercent: deps.feePercent, conference: deps.conference, standings, presence, roomChat, clock });
  const ratings = createRatings({ db, standings });

  return {
    ...calendar,
    ...calls,
    ...ratings,
    detail: async (id: number, principal: Principal) => standings.detailOf((await standings.partyOf(id, principal)).row, principal.userId),
    roomStanding: standings.roomStanding,
    rules: roomChat.rules,
    forgetInstance: presence.forgetInstance,
  };
}

export type MeetingsService = ReturnType<typeof createMeetingsService>;
