/** What the stream page makes of a show and the viewer's seat in it (decision 0085). */
import type { PublicShow, ShowOffer, ShowSeat } from '../../../common/api/shows';
import { MSG } from '../../../common/messages';
import { coins } from '../../../common/rules/format';
import type { SeatEndReason } from '../../../common/rules/shows';

export const seatIsOpen = (seat: ShowSeat) => seat.state !== 'ended';

/** A show is on that the viewer has no paid seat in: the video is theirs to watch no longer. */
export function shutOut(show: PublicShow | null, seat: ShowSeat | null, isOwner: boolean): boolean {
  if (!show || show.state !== 'live' || isOwner) return false;
  return !(seat && seat.show_id === show.show_id && seat.state === 'active');
}

/** What the viewer is told of a seat that ended (nothing when they left it themselves). */
export function endedNotice(reason: SeatEndReason | null): string | null {
  switch (reason) {
    case 'balance': return MSG.showEndedBalance;
    case 'show-ended': return MSG.showEndedByBroadcaster;
    case 'gone': return MSG.showEndedGone;
    case 'declined': return MSG.showDeclined;
    case 'expired': return MSG.showRequestExpired;
    default: return null;
  }
}

export type JoinChoice = { as: 'private' | 'group' | 'spy'; label: string; price: number; detail: string };

const minimum = (minutes: number) => (minutes > 0 ? `, at least ${minutes} minute${minutes === 1 ? '' : 's'}` : '');

/** The ways into a show the viewer has now: none while they hold an open seat. */
export function joinChoices(offer: ShowOffer, show: PublicShow | null, seat: ShowSeat | null): JoinChoice[] {
  if (seat && seatIsOpen(seat)) return [];
  if (show?.kind === 'group') {
    const detail = show.state === 'gathering' ? `${show.tickets} of ${show.min_tickets} tickets${minimum(show.min_minutes)}` : `On now${minimum(show.min_minutes)}`;
    return [{ as: 'group', label: 'Buy a group show ticket', price: show.price_per_minute, detail }];
  }
  if (show?.kind === 'private') {
    return show.state === 'live' && show.spy_price !== null ? [{ as: 'spy', label: 'Spy on the show', price: show.spy_price, detail: 'Watch the private show, quietly' }] : [];
  }
  return offer.private_price > 0 ? [{ as: 'private', label: 'Request a private show', price: offer.private_price, detail: `Just you${minimum(offer.min_minutes)}` }] : [];
}

/** The seat's line while it is open. */
export function seatLine(seat: ShowSeat): string {
  const what = seat.kind === 'private' ? (seat.role === 'spy' ? 'Spying on a private show' : 'Your private show') : 'Group show';
  if (seat.state === 'waiting') return seat.kind === 'private' ? 'Waiting for the broadcaster to accept your private show…' : 'Your ticket is held: the show starts when enough tickets are bought.';
  return `${what} · ${seat.minutes_billed} min · ${coins(seat.coins_paid)}`;
}
