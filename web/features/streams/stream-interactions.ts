/** Rules of the stream page's interactions: service messages, the rating wall, reports, moderator actions, bookmarks. */
import { COMPLAINT_TYPES } from '../../../common/api/stream-interactions';
import type { MODERATION_EVENTS, StreamInfo } from '../../../common/api/streams';
import { MSG } from '../../../common/messages';
import type { Permission, Role } from '../../../common/permissions';
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

export const COMPLAINT_LABEL: Record<ComplaintType, string> = {
  inappropriate: 'Inappropriate content',
  crime: 'Crime or illegal activity',
  troll: 'Trolling or harassment',
  other: 'Something else',
};

export const COMPLAINT_OPTIONS = COMPLAINT_TYPES.map((value) => ({ value, label: COMPLAINT_LABEL[value] }));

const isComplaintType = (value: string): value is ComplaintType => (COMPLAINT_TYPES as readonly string[]).includes(value);

/** The report form's answer: the call's input, or the message under the type field (spec part 1 §5 Report). */
export function checkComplaint(type: string, comment: string): { ok: true; input: { type: ComplaintType; user_comment?: string } } | { ok: false; error: string } {
  if (!isComplaintType(type)) return { ok: false, error: MSG.complaintTypeRequired };
  const trimmed = comment.trim();
  return { ok: true, input: trimmed ? { type, user_comment: trimmed } : { type } };
}

/** The spec's moderator table (part 1 §6): what each report action needs; an admin may take them all. */
const ACTION_NEEDS: Record<ModerationEvent, Permission> = {
  END_STREAM: 'GRANT PERMISSION',
  DELETE_STREAM: 'GRANT PERMISSION',
  SUSPEND_USER: 'GRANT PERMISSION',
  REMOVE_FEATURED: 'UPDATE STREAM_ANY',
  MAKE_FEATURED: 'UPDATE STREAM_ANY',
  MAKE_FOLLOWERS_ONLY: 'UPDATE STREAM_ANY',
  MOVE_TO_18: 'UPDATE STREAM_ANY',
  CHANGE_THUMBNAIL: 'UPDATE STREAM_ANY',
  MOVE_USER_TO_MEN: 'UPDATE STREAM_ANY',
  MOVE_USER_TO_WOMEN: 'UPDATE STREAM_ANY',
};

export const MODERATION_LABEL: Record<ModerationEvent, string> = {
  END_STREAM: 'End Stream',
  DELETE_STREAM: 'Delete Stream',
  SUSPEND_USER: 'Suspend User',
  REMOVE_FEATURED: 'Remove from Featured',
  MAKE_FEATURED: 'Make Featured',
  MAKE_FOLLOWERS_ONLY: 'Make Followers Only',
  MOVE_TO_18: 'Move to 18+',
  CHANGE_THUMBNAIL: 'Change Thumbnail',
  MOVE_USER_TO_MEN: 'Move User to Men',
  MOVE_USER_TO_WOMEN: 'Move User to Women',
};

/** Actions that take a confirmation first (spec part 1 §4 Report modal: Suspend User). */
export const CONFIRM_FIRST: ReadonlySet<ModerationEvent> = new Set(['SUSPEND_USER']);

/** The moderator actions a user may take, in the table's order; none for a plain viewer. */
export function moderationActionsFor(user: { role: Role; perms: readonly string[] } | null): ModerationEvent[] {
  if (!user) return [];
  return (Object.keys(ACTION_NEEDS) as ModerationEvent[]).filter((event) => user.role === 'admin' || user.perms.includes(ACTION_NEEDS[event]));
}
