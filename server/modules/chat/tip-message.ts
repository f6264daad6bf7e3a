/**
 * The TIP realtime message (spec part 1 §3, §4): one builder for the message published when a tip
 * commits and for the tip lines in a stream's chat history, so both read the same. Depends on
 * nothing but the wire types.
 */
import type { RealtimeMessageOf } from '../../../common/realtime';

/** The tipper as accounts' publicUsers answers it. */
export interface Tipper {
  username: string;
  fullname: string;
  avatar: string | null;
}

export interface TipFacts {
  /** The ledger transfer: its id is the message's timetoken (the web keys lines by type and timetoken). */
  transferId: number;
  tipperId: number;
  streamOwnerId: number;
  /** Coins the tipper gave. */
  amount: number;
  at: Date;
  /** Unknown (a deleted account): the line carries an empty name. */
  tipper: Tipper | undefined;
  /** What the tipper wrote with the tip, if anything. */
  message?: string | undefined;
  /** The tip menu's action it bought, if any. */
  menuItem?: string | undefined;
}

export function tipMessage(tip: TipFacts): RealtimeMessageOf<'TIP'> {
  const name = tip.tipper ? tip.tipper.fullname || tip.tipper.username : '';
  return {
    type: 'TIP',
    text: `${name} tipped the streamer.`,
    data: {
      recipient_amount: tip.amount,
      recipient_currency: 'CON',
      ...(tip.message ? { message: tip.message } : {}),
      ...(tip.menuItem ? { menu_item: tip.menuItem } : {}),
    },
    sender: { name, user_id: tip.tipperId, avatar: tip.tipper?.avatar ?? null, is_priority: false, is_owner: tip.tipperId === tip.streamOwnerId },
    chatTime: tip.at.toISOString(),
    timetoken: String(tip.transferId),
  };
}
