/** The report dialog's rules: the complaint's choices and check, the moderator's actions (spec part 1 §5 Report); loaded with the dialog. */
import { COMPLAINT_TYPES } from '../../../common/api/stream-interactions';
import { MSG } from '../../../common/messages';
import type { Role } from '../../../common/permissions';
import { mayModerate, type ModerationRight } from '../../../common/rules/moderation';
import type { ComplaintType, ModerationEvent } from './stream-interactions';

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

/** The right each report action needs (the shared moderation rule, common/rules/moderation.ts). */
const ACTION_NEEDS: Record<ModerationEvent, ModerationRight> = {
  END_STREAM: 'stream.end',
  DELETE_STREAM: 'stream.delete',
  SUSPEND_USER: 'user.suspend',
  REMOVE_FEATURED: 'stream.edit',
  MAKE_FEATURED: 'stream.edit',
  MAKE_FOLLOWERS_ONLY: 'stream.edit',
  MOVE_TO_18: 'stream.edit',
  CHANGE_THUMBNAIL: 'stream.edit',
  SET_STREAM_PAID: 'stream.edit',
  MOVE_USER_TO_MEN: 'stream.edit',
  MOVE_USER_TO_WOMEN: 'stream.edit',
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
  SET_STREAM_PAID: 'Set stream to paid',
  MOVE_USER_TO_MEN: 'Move User to Men',
  MOVE_USER_TO_WOMEN: 'Move User to Women',
};

/** Actions that take a confirmation first (spec part 1 §4 Report modal: Suspend User). */
export const CONFIRM_FIRST: ReadonlySet<ModerationEvent> = new Set(['SUSPEND_USER']);

/** The moderator actions a user may take, in the table's order; none for a plain viewer. */
export function moderationActionsFor(user: { role: Role; perms: readonly string[] } | null): ModerationEvent[] {
  if (!user) return [];
  return (Object.keys(ACTION_NEEDS) as ModerationEvent[]).filter((event) => mayModerate(user, ACTION_NEEDS[event]));
}
