import { describe, expect, it } from 'vitest';
import { replayChat } from '../../../common/api/chat';
import { saveTipMenu, sendTip } from '../../../common/api/tips';
import type { HttpSession } from '../../testing/http-session';
import { useListeningTestApp } from '../../testing/listening-app';

const served = useListeningTestApp();

/** A line that goes through. */
async function say(client: HttpSession, streamId: number, text: string) {
  expect(await served.say(client, streamId, text)).toMatchObject({ op: 'ack' });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const end = (streamId: number) =>
  served.t.app.services.broadcastCallbacks.onEnded({ streamId, broadcastId: 'b1', playlistKey: `media/${streamId}/b1/index.m3u8`, lengthSeconds: 30 });

describe('replay chat', () => {
  it('answers the broadcast’s lines and tips in order, each at its place in the video, page by page', async () => {
    const live = await served.t.given.liveStream();
    const [song] = (await live.client.call(saveTipMenu, { items: [{ label: 'Sing a song', price: 5 }] })).items;
    const viewer = await served.t.given.signedInUser();
    await served.t.given.coins(viewer.user, 50);
    await say(viewer.client, live.streamId, 'first');
    await pause(20);
    await viewer.client.call(sendTip, { stream_id: live.streamId, amount: 5, menu_item_id: song!.item_id }, { idempotencyKey: `replay-${process.pid}-1` });
    await pause(20);
    await say(viewer.client, live.streamId, 'second');
    await pause(20);
    await say(live.client, live.streamId, 'thanks');
    await end(live.streamId);

    const all = await served.t.client().call(replayChat, { id: live.streamId });
    expect(all.lines.map((l) => (l.message.type === 'COMMENT' ? l.message.text : `tip ${l.message.data.recipient_amount} ${l.message.data.menu_item}`)))
      .toEqual(['first', 'tip 5 Sing a song', 'second', 'thanks']);
    const offsets = all.lines.map((l) => l.offset_ms);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    expect(offsets[0]).toBeGreaterThanOrEqual(0);
    expect(all.next_from_ms).toBeNull();
    expect(all.lines.at(-1)!.message.sender.is_owner).toBe(true);

    // Two at a time, from where each answer stopped: the same lines, each once when keyed by type and timetoken.
    const seen = new Map<string, string>();
    let from: number | null = 0;
    for (let pages = 0; from !== null && pages < 10; pages += 1) {
      const page: { lines: Array<{ message: { type: string; timetoken: string } }>; next_from_ms: number | null } =
        await served.t.client().call(replayChat, { id: live.streamId, from_ms: from, limit: 2 });
      for (const line of page.lines) seen.set(`${line.message.type}:${line.message.timetoken}`, line.message.type);
      from = page.next_from_ms;
    }
    expect(from).toBeNull();
    expect(seen.size).toBe(4);

    // From the second line's place on, the first is gone.
    const later = await served.t.client().call(replayChat, { id: live.streamId, from_ms: all.lines[2]!.offset_ms });
    expect(later.lines.map((l) => l.message.type === 'COMMENT' && l.message.text)).toEqual(['second', 'thanks']);
  });

  it('keeps a paid broadcast’s chat behind its pay wall, and answers nothing for one that never went live', async () => {
    const paid = await served.t.given.liveStream({ tip_viewer_min_amount: 20 });
    await say(paid.client, paid.streamId, 'for those who paid');
    const stranger = await served.t.given.signedInUser();
    expect((await stranger.client.refusal(replayChat, { id: paid.streamId })).status).toBe(402);
    expect((await served.t.client().refusal(replayChat, { id: paid.streamId })).status).toBe(402);
    expect((await paid.client.call(replayChat, { id: paid.streamId })).lines).toHaveLength(1);

    const owner = await served.t.given.signedInUser();
    const own = await owner.client.post('/api/streams/get-live-stream', {});
    const unseen = (own.body.stream as { stream_id: number }).stream_id;
    expect(await owner.client.call(replayChat, { id: unseen })).toEqual({ response: 'success', started_time: null, lines: [], next_from_ms: null });
    expect((await served.t.client().refusal(replayChat, { id: unseen })).status).toBe(404);
  });
});
