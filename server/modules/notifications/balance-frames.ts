/**
 * The owner's pages hear of coins reaching their wallet at once: after a tip or a sale committed, a
 * BALANCE frame with their balances goes to their own channel (the top bar's coins). Never on the
 * payment's path: the handler only marks the owner, and one read and frame follow a moment later for
 * whatever arrived meanwhile (a broadcaster tipped 100 times a second gets a few frames, not 100). A frame
 * lost with a socket costs nothing: the page reads the balance again when it comes back.
 */
import { userChannelOf } from '../../../common/realtime-channels';
import type { RealtimeMessage } from '../../../common/realtime';
import type { DomainEventHub } from '../../platform/events';
import type { Ledger } from '../ledger';

/** How long a change waits for the others of its burst. */
const GATHER_MS = 100;

export function pushBalanceChanges(deps: {
  events: DomainEventHub;
  ledger: Pick<Ledger, 'balances'>;
  publish: (channel: string, message: RealtimeMessage) => Promise<void>;
  log: { warn(obj: object, msg: string): void };
}) {
  const due = new Set<number>();
  const tell = async (userId: number) => deps.publish(userChannelOf(userId), { type: 'BALANCE', balance: await deps.ledger.balances(userId) });
  const soon = (userId: number) => {
    if (due.has(userId)) return;
    due.add(userId);
    setTimeout(() => {
      due.delete(userId);
      tell(userId).catch((error: unknown) => deps.log.warn({ err: error, userId }, 'balance frame not published'));
    }, GATHER_MS).unref();
  };
  deps.events.on('tip.received', ({ ownerId }) => soon(ownerId));
  deps.events.onDurable('payment.received', ({ payeeId }) => soon(payeeId));
}
