import { describe, expect, it } from 'vitest';
import { markMenuRequest, menuRequests, saveTipMenu, sendTip, tipMenu, TIP_MENU } from '../../../common/api/tips';
import { fill, MSG } from '../../../common/messages';
import { streamChannelOf } from '../../../common/realtime';
import type { HttpSession } from '../../testing/http-session';
import { useListeningTestApp } from '../../testing/listening-app';
import { createLedger } from '../ledger/service';

const served = useListeningTestApp();
const { socketOf } = served;

let keys = 0;
const newKey = () => `menu-${process.pid}-${(keys += 1)}`;
const con = async (userId: number) => (await createLedger({ db: served.t.resources.database.db }).balances(userId)).CON;

async function fan(coins: number) {
  const signedIn = await served.t.given.signedInUser();
  if (coins > 0) await served.t.given.coins(signedIn.user, coins);
  return signedIn;
}

async function socketOn(streamId: number, client?: HttpSession) {
  const socket = await socketOf(client);
  const subscribed = await socket.request({ op: 'subscribe', channel: streamChannelOf(streamId) });
  expect(subscribed).toMatchObject({ op: 'subscribed' });
  return { socket, history: subscribed.history as Array<{ type: string; data?: Record<string, unknown> }> };
}

const menu = [{ label: 'Sing a song', price: 50 }, { label: 'Dance', price: 100 }];

describe('tip menus', () => {
  it('are the broadcaster’s to write, and anyone’s to read', async () => {
    const live = await served.t.given.liveStream();
    const saved = await live.client.call(saveTipMenu, { items: menu });
    expect(saved.items.map(({ label, price }) => ({ label, price }))).toEqual(menu);
    expect((await served.t.client().call(tipMenu, { user_id: live.user.id })).items).toEqual(saved.items);
    const replaced = await live.client.call(saveTipMenu, { items: [{ label: '  Wave  ', price: 5 }] });
    expect(replaced.items.map(({ label, price }) => ({ label, price }))).toEqual([{ label: 'Wave', price: 5 }]);
    expect((await served.t.client().call(tipMenu, { user_id: live.user.id })).items).toEqual(replaced.items);
    expect((await live.client.call(saveTipMenu, { items: [] })).items).toEqual([]);
  });

  it('sells an action with a tip of its price: the TIP line names it, the queue lists it, the owner ticks it off', async () => {
    const live = await served.t.given.liveStream();
    const [song] = (await live.client.call(saveTipMenu, { items: menu })).items;
    const { socket } = await socketOn(live.streamId);
    const viewer = await fan(120);
    const ownerBefore = await con(live.user.id);

    const paid = await viewer.client.call(sendTip, { stream_id: live.streamId, amount: 50, menu_item_id: song!.item_id }, { idempotencyKey: newKey() });
    expect(paid.balance.CON).toBe(70);
    expect(await con(live.user.id)).toBe(ownerBefore + 40); // less the platform's 20 % fee
    const line = await socket.message('TIP');
    expect(line.message).toMatchObject({ type: 'TIP', data: { recipient_amount: 50, menu_item: 'Sing a song' }, timetoken: String(paid.transfer_id) });

    const queue = await live.client.call(menuRequests, { id: live.streamId });
    expect(queue.requests).toEqual([expect.objectContaining({ request_id: paid.transfer_id, user_id: viewer.user.id, label: 'Sing a song', price: 50, done: false })]);
    const ticked = await live.client.call(markMenuRequest, { stream_id: live.streamId, request_id: paid.transfer_id, done: true });
    expect(ticked.request).toMatchObject({ request_id: paid.transfer_id, done: true });
    expect((await live.client.call(menuRequests, { id: live.streamId })).requests[0]!.done).toBe(true);

    // A later viewer reads the line, with the action, in the chat's history.
    const later = await socketOn(live.streamId);
    expect(later.history.find((m) => m.type === 'TIP')?.data).toMatchObject({ menu_item: 'Sing a song' });
  });

  it('refuses a tip of another amount, or for an action no longer offered, moving nothing', async () => {
    const live = await served.t.given.liveStream();
    const [song, dance] = (await live.client.call(saveTipMenu, { items: menu })).items;
    const viewer = await fan(200);
    const wrong = await viewer.client.refusal(sendTip, { stream_id: live.streamId, amount: 60, menu_item_id: song!.item_id }, { idempotencyKey: newKey() });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(fill(MSG.menuItemPrice, { price: 50 }));

    await live.client.call(saveTipMenu, { items: [{ label: 'Dance', price: 100 }] });
    const gone = await viewer.client.refusal(sendTip, { stream_id: live.streamId, amount: 100, menu_item_id: dance!.item_id }, { idempotencyKey: newKey() });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe(MSG.menuItemGone);

    const elsewhere = await served.t.given.liveStream();
    const [theirs] = (await elsewhere.client.call(saveTipMenu, { items: menu })).items;
    const foreign = await viewer.client.refusal(sendTip, { stream_id: live.streamId, amount: 50, menu_item_id: theirs!.item_id }, { idempotencyKey: newKey() });
    expect(foreign.status).toBe(404);

    expect(await con(viewer.user.id)).toBe(200);
    expect((await live.client.call(menuRequests, { id: live.streamId })).requests).toEqual([]);
  });

  it('requests once for a retried tip, even after the menu changed', async () => {
    const live = await served.t.given.liveStream();
    const [song] = (await live.client.call(saveTipMenu, { items: menu })).items;
    const viewer = await fan(100);
    const key = newKey();
    const input = { stream_id: live.streamId, amount: 50, menu_item_id: song!.item_id };
    const first = await viewer.client.call(sendTip, input, { idempotencyKey: key });
    await live.client.call(saveTipMenu, { items: [] });
    const again = await viewer.client.call(sendTip, input, { idempotencyKey: key });
    expect(again.transfer_id).toBe(first.transfer_id);
    expect(await con(viewer.user.id)).toBe(50);
    expect((await live.client.call(menuRequests, { id: live.streamId })).requests).toHaveLength(1);
  });

  it('keeps the queue to the stream’s owner, and refuses input that breaks the rules', async () => {
    const live = await served.t.given.liveStream();
    const offered = (await live.client.call(saveTipMenu, { items: menu })).items;
    const song = offered[0];
    const viewer = await fan(60);
    const paid = await viewer.client.call(sendTip, { stream_id: live.streamId, amount: 50, menu_item_id: song!.item_id }, { idempotencyKey: newKey() });
    expect((await viewer.client.refusal(menuRequests, { id: live.streamId })).status).toBe(404);
    expect((await viewer.client.refusal(markMenuRequest, { stream_id: live.streamId, request_id: paid.transfer_id, done: true })).status).toBe(404);
    expect((await served.t.client().refusal(saveTipMenu, { items: menu })).status).toBe(401);
    const unknown = await live.client.refusal(markMenuRequest, { stream_id: live.streamId, request_id: paid.transfer_id + 1000, done: true });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(MSG.menuRequestUnknown);
    const cases: Array<[unknown, string]> = [
      [[{ label: ' ', price: 5 }], MSG.menuLabelNeeded],
      [[{ label: 'Wave', price: 0 }], MSG.coinsAtLeastOne],
      [[{ label: 'x'.repeat(TIP_MENU.labelMax + 1), price: 5 }], fill(MSG.atMostChars, { max: TIP_MENU.labelMax })],
      [Array.from({ length: TIP_MENU.itemsMax + 1 }, () => ({ label: 'Wave', price: 5 })), fill(MSG.menuTooLong, { max: TIP_MENU.itemsMax })],
    ];
    for (const [items, message] of cases) {
      const refused = await live.client.refusal(saveTipMenu, { items } as never);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain(message);
    }
    expect((await served.t.client().call(tipMenu, { user_id: live.user.id })).items).toEqual(offered);
  });
});
