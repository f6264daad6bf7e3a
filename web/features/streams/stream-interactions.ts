/** Rules of the stream page's interactions: service messages, the rating wall, bookmarks (the report dialog's: report-rules.ts). */
import type { COMPLAINT_TYPES } from '../../../common/api/stream-interactions';
import type { MODERATION_EVENTS, StreamInfo } from '../../../common/api/streams';
import type { RealtimeMessage } from '../../../common/realtime';

export type ComplaintType = (typeof COMPLAINT_TYPES)[number];
export type ModerationEvent = (typeof MODERATION_EVENTS)[number];

/** What the page does about a realtime service message (spec part 1 §4 Realtime message types). */
export type ServiceAction = { kind: 'stream-end' } | { kind: 'block-check' } | { kind: 'chat-options'; chatEnabled: boolean };

/** `noPaywallSubscriber`: the viewer's subscription lifts the pay wall (spec part 1 §3: BLOCKED then checks nothing). */
export function serviceAction(message: RealtimeMessage, viewerId: number | null, noPaywallSubscriber = false): ServiceAction | null {
  switch (message.type) {
    case 'STREAM-END':
      return { kind: 'stream-end' };
    case 'BLOCKED':
      // Only the banned viewer checks whether they may still watch, unless a no-paywall subscription covers them.
      return viewerId !== null && message.data.user_id === viewerId && !noPaywallSubscriber ? { kind: 'block-check' } : null;
    case 'STREAM-OPTIONS':
      return { kind: 'chat-options', chatEnabled: message.options.chat_enabled };
    default:
      return null;
  }
}

/** The rating wall is for signed-in viewers who are not the owner and have not rated yet (spec part 1 §4 Video state). */
export function asksForRating(stream: Pick<StreamInfo, 'is_owner' | 'has_rated'>, signedIn: boolean): boolean {
  return signedIn && !stream.is_owner && !stream.has_rated;
}

/** Viewers can bookmark streams that are not theirs and not private (spec part 1 §5 Bookmark, §6). */
export function canSave(stream: Pick<StreamInfo, 'is_owner' | 'audience'>): boolean {
  return !stream.is_owner && stream.audience !== 'PRIVATE';
}

/** Like, tip and report wait while the viewer has paused a live stream (spec part 1 §4 Video state). */
export function interactionsPaused(stream: Pick<StreamInfo, 'live'>, paused: boolean): boolean {
  return paused && stream.live === 'Y';
}
