/** What the streams module says happened; the chat module turns these into realtime frames. */
import type { BroadcastStopReason } from '../../../common/realtime';

declare module '../../platform/events' {
  interface DomainEvents {
    /** The owner turned the chat on or off. */
    'stream.options-changed': [{ streamId: number; chatEnabled: boolean }];
    /** The stream's price changed; viewers who now owe are checked next (stream.access-changed). */
    'stream.price-changed': [{ streamId: number; tipViewerMinAmount: number }];
    /** Audience, rating, price or existence changed: who may watch must be decided again. */
    'stream.access-changed': [{ streamId: number }];
    /**
     * Who may play the stream's video changed without its settings changing (a private or group show
     * began or ended, a viewer's paid show time ran out): the playback decisions of the stream, or of
     * that viewer on it, are taken again at their next fetch.
     */
    'stream.playback-changed': [{ streamId: number; userId?: number }];
    /** The owner banned a viewer from the stream. */
    'stream.viewer-banned': [{ streamId: number; userId: number }];
    /**
     * The stream is on air and listed: live from the encoder and shown (go live), whichever came last.
     * Written to the event outbox with the change (the followers' notices); its realtime frame goes at once.
     */
    'stream.went-live': [{ streamId: number; ownerId: number; title: string }];
    /** The broadcast ended (its replay is ready). */
    'stream.ended': [{ streamId: number }];
    /**
     * The platform ended the broadcast itself (its disk filled up; after `stream.ended`), or the ingest refused the
     * owner's encoder for this stream: its owner is told why.
     */
    'stream.stopped': [{ streamId: number; ownerId: number; reason: BroadcastStopReason }];
    /** Promoted broadcasters' streams were shown in Popular to a viewer (their viewer key), one entry per tile. */
    'stream.promoted-shown': [{ ownerIds: number[]; viewerKey: string }];
  }
}

export {};
