/**
 * The owner's pages hear of coins reaching their wallet at once: after a tip or a sale committed, a
 * BALANCE frame with their balances goes to their own channel (the top bar's coins). A frame lost with a
 * socket costs nothing: the page reads the balance again when it comes back.
 */
import { userChannelOf } from '../../../common/realtime-channels';
import type { RealtimeMessage } from '../../../common/realtime';
import type { DomainEventHub } from '../../platform/events';
import type { Ledger } from '../ledger';

export function pushBalanceChanges(deps: {
  events: DomainEventHub;
  ledger: Pick<Ledger, 'balances'>;
  publish: (channel: string, message: RealtimeMessage) => Promise<void>;
}) {
  const tell = async (userId: number) => deps.publish(userChannelOf(userId), { type: 'BALANCE', balance: await deps.ledger.balances(userId) });
  deps.events.on('tip.received', ({ ownerId }) => tell(ownerId));
  deps.events.on('payment.received', ({ payeeId }) => tell(payeeId));
}
