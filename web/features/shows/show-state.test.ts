import { describe, expect, it } from 'vitest';
import type { PublicShow, ShowOffer, ShowSeat } from '../../../common/api/shows';
import { MSG } from '../../../common/messages';
import { endedNotice, joinChoices, seatLine, shutOut } from './show-state';

const offer: ShowOffer = { private_price: 50, group_price: 20, group_min_tickets: 3, spy_price: 10, min_minutes: 5 };
const show = (over: Partial<PublicShow> = {}): PublicShow => ({
  show_id: 1, stream_id: 9, kind: 'private', state: 'live', price_per_minute: 50, spy_price: 10, min_minutes: 5, tickets: 0, min_tickets: 1, started_time: null, ...over,
});
const seat = (over: Partial<ShowSeat> = {}): ShowSeat => ({
  show_id: 1, stream_id: 9, kind: 'private', role: 'buyer', state: 'active', price_per_minute: 50, minutes_billed: 2, coins_paid: 100, paid_until: null, end_reason: null, ...over,
});

describe('a show on the stream page', () => {
  it('shuts out everyone but its active seats and the broadcaster', () => {
    expect(shutOut(null, null, false)).toBe(false);
    expect(shutOut(show({ state: 'gathering', kind: 'group' }), null, false)).toBe(false);
    expect(shutOut(show(), null, false)).toBe(true);
    expect(shutOut(show(), null, true)).toBe(false);
    expect(shutOut(show(), seat(), false)).toBe(false);
    expect(shutOut(show(), seat({ state: 'ended', end_reason: 'balance' }), false)).toBe(true);
    expect(shutOut(show(), seat({ show_id: 2 }), false)).toBe(true);
  });

  it('offers a private show, a ticket or spying as the show stands, and nothing to a viewer already in one', () => {
    expect(joinChoices(offer, null, null).map((c) => c.as)).toEqual(['private']);
    expect(joinChoices({ ...offer, private_price: 0 }, null, null)).toEqual([]);
    expect(joinChoices(offer, show({ kind: 'group', state: 'gathering', tickets: 1, min_tickets: 3 }), null)[0]).toMatchObject({ as: 'group', detail: '1 of 3 tickets, at least 5 minutes' });
    expect(joinChoices(offer, show(), null).map((c) => c.as)).toEqual(['spy']);
    expect(joinChoices(offer, show({ spy_price: null }), null)).toEqual([]);
    expect(joinChoices(offer, show(), seat())).toEqual([]);
  });

  it('says why a seat ended, and what an open one has cost', () => {
    expect(endedNotice('balance')).toBe(MSG.showEndedBalance);
    expect(endedNotice('left')).toBeNull();
    expect(seatLine(seat())).toBe('Your private show · 2 min · 100 Coins');
    expect(seatLine(seat({ state: 'waiting' }))).toMatch(/Waiting for the broadcaster/);
  });
});
