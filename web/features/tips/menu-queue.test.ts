import { describe, expect, it } from 'vitest';
import type { MenuRequest } from '../../../common/api/tips';
import { fill, MSG } from '../../../common/messages';
import { sampleSender, sampleTip } from '../../../common/testing/realtime-samples';
import { ApiError } from '../../api/client';
import { menuRefusal, queueMarked, queueShown, queueWith, requestOfTip } from './menu-queue';

const request = (request_id: number, time: string, over: Partial<MenuRequest> = {}): MenuRequest => ({
  request_id,
  user_id: 1_000_001,
  name: 'Ann',
  avatar: null,
  label: 'Sing a song',
  price: 50,
  time,
  done: false,
  ...over,
});
const menuTip = (timetoken: string) => {
  const tip = sampleTip(50, timetoken);
  return { ...tip, data: { ...tip.data, menu_item: 'Sing a song' } };
};

describe('requests from TIP frames', () => {
  it('reads the action a tip bought: the timetoken is the request, the tipper who asked', () => {
    const tip = menuTip('77');
    expect(requestOfTip({ ...tip, sender: sampleSender({ name: 'Bo', avatar: '/a.png' }) })).toEqual({
      request_id: 77,
      user_id: 1_000_001,
      name: 'Bo',
      avatar: '/a.png',
      label: 'Sing a song',
      price: 50,
      time: tip.chatTime,
      done: false,
    });
  });

  it('reads nothing from a tip that bought no action', () => {
    expect(requestOfTip(sampleTip(50))).toBeNull();
  });
});

describe('the queue', () => {
  const first = request(1, '2026-11-30T10:00:00.000Z');
  const second = request(2, '2026-11-30T10:01:00.000Z', { label: 'Dance', price: 100 });

  it('adds a request once, oldest first', () => {
    expect(queueWith([first], second)).toEqual([first, second]);
    expect(queueWith([second], first)).toEqual([first, second]);
    expect(queueWith([first, second], { ...second })).toEqual([first, second]);
  });

  it('ticks a request off and back', () => {
    const ticked = queueMarked([first, second], 1, true);
    expect(ticked.map((r) => r.done)).toEqual([true, false]);
    expect(queueMarked(ticked, 1, false)).toEqual([first, second]);
    expect(queueMarked([first], 9, true)).toEqual([first]);
  });

  it('shows what is still to do first, then what is done', () => {
    const third = request(3, '2026-11-30T10:02:00.000Z');
    const shown = queueShown(queueMarked([first, second, third], 1, true));
    expect(shown.todo.map((r) => r.request_id)).toEqual([2, 3]);
    expect(shown.done.map((r) => r.request_id)).toEqual([1]);
  });
});

describe('refusals of a menu tip', () => {
  const refusal = (init: ConstructorParameters<typeof ApiError>[0]) => new ApiError(init);

  it("says the server's words when the price changed or the action left the menu", () => {
    const price = fill(MSG.menuItemPrice, { price: 60 });
    expect(menuRefusal(refusal({ status: 400, code: 'validation', message: price, field: 'amount' }))).toBe(price);
    expect(menuRefusal(refusal({ status: 400, code: 'validation', message: price, errors: { amount: price } }))).toBe(price);
    expect(menuRefusal(refusal({ status: 404, code: 'not_found', message: MSG.menuItemGone }))).toBe(MSG.menuItemGone);
  });

  it('leaves every other refusal to the failure modal', () => {
    expect(menuRefusal(refusal({ status: 402, code: 'insufficient_funds', message: MSG.insufficientFunds }))).toBeNull();
    expect(menuRefusal(refusal({ status: 400, code: 'validation', message: 'Must be a menu item', field: 'menu_item_id' }))).toBeNull();
    expect(menuRefusal(refusal({ status: 0, code: 'network', message: MSG.loginGenericError }))).toBeNull();
    expect(menuRefusal(new Error('boom'))).toBeNull();
  });
});
