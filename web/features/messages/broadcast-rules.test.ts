import { describe, expect, it } from 'vitest';
import type { MessageBroadcast } from '../../../common/api/messages';
import { fill, MSG } from '../../../common/messages';
import {
  anySending, audienceLabel, audienceText, listedBroadcasts, nextBroadcastOffset, NOTHING_PENDING, pendingFor, planTitle, planTitleOf,
  pollInterval, queuedText, SENDING_POLL_MS, stateText,
} from './broadcast-rules';
import type { BroadcastDraft, PlanChoice } from './broadcast-rules';

const FAN: PlanChoice = { plan_id: 11, name: 'Fan', period_label: 'Monthly' };
const FAN_YEARLY: PlanChoice = { plan_id: 12, name: 'Fan', period_label: 'Yearly' };
const VIP: PlanChoice = { plan_id: 13, name: 'VIP', period_label: 'Monthly' };

const broadcast = (id: number, state: MessageBroadcast['state'] = 'done', more: Partial<MessageBroadcast> = {}): MessageBroadcast => ({
  broadcast_id: id,
  audience: 'followers',
  plan_id: null,
  text: `message ${id}`,
  media: null,
  price: 0,
  unlocks: 0,
  coins: 0,
  state,
  delivered: 3,
  read: 1,
  created_time: new Date(Date.UTC(2026, 10, 30, 10, id)).toISOString(),
  finished_time: null,
  ...more,
});

describe('whom a message to many goes to, in words', () => {
  it('names a plan by its name, with its period when another plan has the same name', () => {
    expect(planTitle(VIP, [FAN, VIP])).toBe('VIP');
    expect(planTitle(FAN, [FAN, VIP])).toBe('Fan');
    expect(planTitle(FAN, [FAN, FAN_YEARLY, VIP])).toBe('Fan (Monthly)');
    expect(planTitle(FAN_YEARLY, [FAN, FAN_YEARLY, VIP])).toBe('Fan (Yearly)');
    expect(planTitleOf(12, [FAN, FAN_YEARLY])).toBe('Fan (Yearly)');
    expect(planTitleOf(99, [FAN, FAN_YEARLY])).toBeNull();
  });

  it('says the audience as a sentence does, and fills the queued text with it', () => {
    expect(audienceText('followers')).toBe('your followers');
    // A follower audience has no plan, whatever is passed.
    expect(audienceText('followers', 'Fan')).toBe('your followers');
    expect(audienceText('subscribers')).toBe('your subscribers');
    expect(audienceText('subscribers', 'VIP')).toBe('the subscribers of VIP');
    expect(queuedText('followers')).toBe(fill(MSG.broadcastQueued, { audience: 'your followers' }));
    expect(queuedText('followers')).toBe('Your message is on its way to your followers.');
    expect(queuedText('subscribers', 'Fan (Yearly)')).toBe('Your message is on its way to the subscribers of Fan (Yearly).');
  });

  it('labels each message of the list by its audience, a plan withdrawn since too', () => {
    const plans = [FAN, VIP];
    expect(audienceLabel({ audience: 'followers', plan_id: null }, plans)).toBe('Followers');
    expect(audienceLabel({ audience: 'subscribers', plan_id: null }, plans)).toBe('All subscribers');
    expect(audienceLabel({ audience: 'subscribers', plan_id: 13 }, plans)).toBe('Subscribers of VIP');
    expect(audienceLabel({ audience: 'subscribers', plan_id: 99 }, plans)).toBe('Subscribers of one plan');
  });
});

describe('the list of messages sent to many', () => {
  it('says each state', () => {
    expect(stateText('sending')).toBe('Sending…');
    expect(stateText('done')).toBe('Delivered');
  });

  it('is read again every few seconds only while one is being delivered', () => {
    expect(anySending([broadcast(1), broadcast(2, 'sending')])).toBe(true);
    expect(pollInterval([broadcast(1), broadcast(2, 'sending')])).toBe(SENDING_POLL_MS);
    expect(SENDING_POLL_MS).toBe(3_000);
    expect(pollInterval([broadcast(1), broadcast(2)])).toBe(false);
    expect(pollInterval([])).toBe(false);
    // Not read yet: the first read is the query's own.
    expect(pollInterval(undefined)).toBe(false);
  });

  it('reads the next page while the server has more, and shows each message once', () => {
    const first = { broadcasts: [broadcast(5), broadcast(4)], total: 5 };
    expect(nextBroadcastOffset(first, [first])).toBe(2);
    const second = { broadcasts: [broadcast(4), broadcast(3), broadcast(2)], total: 6 };
    expect(nextBroadcastOffset(second, [first, second])).toBe(5);
    expect(nextBroadcastOffset({ broadcasts: [broadcast(1)], total: 6 }, [first, second, { broadcasts: [broadcast(1)], total: 6 }])).toBeUndefined();
    expect(nextBroadcastOffset({ broadcasts: [], total: 9 }, [{ broadcasts: [], total: 9 }])).toBeUndefined();
    // One sent between two reads pushed message 4 onto the second page as well.
    expect(listedBroadcasts([first, second]).map((b) => b.broadcast_id)).toEqual([5, 4, 3, 2]);
  });
});

describe('the key of a send', () => {
  const draft: BroadcastDraft = { audience: 'followers', plan_id: null, text: 'Thank you all!', media_id: null, price: 0 };
  let made = 0;
  const fresh = () => `key-${(made += 1)}`;

  it('keeps the key while the same draft is sent again (a retry), and makes a fresh one for any other draft', () => {
    const first = pendingFor(NOTHING_PENDING, draft, fresh);
    expect(first.key).toBe('key-1');
    expect(pendingFor(first, { ...draft }, fresh)).toBe(first);
    expect(pendingFor(first, { ...draft, text: 'Thank you all!!' }, fresh).key).toBe('key-2');
    expect(pendingFor(first, { ...draft, audience: 'subscribers' }, fresh).key).toBe('key-3');
    expect(pendingFor(first, { ...draft, media_id: 9, price: 30 }, fresh).key).not.toBe(first.key);
    const subscribers = pendingFor(NOTHING_PENDING, { ...draft, audience: 'subscribers' }, fresh);
    expect(pendingFor(subscribers, { ...draft, audience: 'subscribers', plan_id: 11 }, fresh).key).not.toBe(subscribers.key);
    // Once sent the pending key is dropped: the same text sent again is a new message.
    expect(pendingFor(NOTHING_PENDING, draft, fresh).key).not.toBe(first.key);
  });
});
