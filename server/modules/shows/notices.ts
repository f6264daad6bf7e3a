/**
 * What a show's change tells, gathered while its transaction runs and sent once it committed: SHOW on the
 * stream's channel, SHOW-SEAT to each viewer whose seat changed, SHOW-REQUESTS to the broadcaster, the
 * playback decisions taken again (stream.playback-changed) and the admission cache dropped everywhere.
 */
import { streamChannelOf, userChannelOf, type RealtimeMessage } from '../../../common/realtime';
import type { PublicShow, ShowSeat } from '../../../common/api/shows';
import type { DomainEventHub } from '../../platform/events';

export interface ShowChannels {
  publish(channel: string, message: RealtimeMessage): Promise<void>;
  events: DomainEventHub;
}

export interface ShowNotices {
  show(streamId: number, show: PublicShow | null): void;
  seat(userId: number, seat: ShowSeat): void;
  requests(ownerId: number, streamId: number): void;
  send(): Promise<void>;
}

export function showNotices(channels: ShowChannels): ShowNotices {
  const shows = new Map<number, PublicShow | null>();
  const seats = new Map<string, { userId: number; seat: ShowSeat }>();
  const panels = new Map<number, number>();
  return {
    show: (streamId, show) => void shows.set(streamId, show),
    seat: (userId, seat) => void seats.set(`${seat.show_id}:${userId}`, { userId, seat }),
    requests: (ownerId, streamId) => void panels.set(ownerId, streamId),
    async send() {
      for (const [streamId, show] of shows) {
        await channels.publish(streamChannelOf(streamId), { type: 'SHOW', data: { stream_id: streamId, show } });
        await channels.events.emit('stream.playback-changed', { streamId });
      }
      for (const { userId, seat } of seats.values()) {
        await channels.publish(userChannelOf(userId), { type: 'SHOW-SEAT', data: { seat } });
        if (seat.state === 'ended' && !shows.has(seat.stream_id)) await channels.events.emit('stream.playback-changed', { streamId: seat.stream_id, userId });
      }
      for (const [ownerId, streamId] of panels) await channels.publish(userChannelOf(ownerId), { type: 'SHOW-REQUESTS', data: { stream_id: streamId } });
    },
  };
}
