/**
 * Who may moderate what (spec part 1 §6 Roles and permissions): one rule for the operator console, the
 * public routes moderators use (post deletion, stream deletion and report-stream-action, viewer bans)
 * and the web's menus. Administrators may do everything; GRANT PERMISSION ends and deletes streams,
 * deletes posts, comments and reported direct messages and suspends users; ALLOW REPORT_STREAM_HIDE hides streams; UPDATE
 * STREAM_ANY changes others' streams (featured, followers only, 18+, thumbnail, men/women). Seeing
 * every post and stream without paying is the pay wall's rule, not a right to act.
 */
import type { Permission } from '../permissions';

export const MODERATION_RIGHTS = [
  'stream.end', 'stream.delete', 'stream.hide', 'stream.edit', 'viewer.ban',
  'post.delete', 'comment.delete', 'direct-message.delete', 'user.suspend', 'report.dismiss',
] as const;
export type ModerationRight = (typeof MODERATION_RIGHTS)[number];

/** The permissions that give each right (any one of them); administrators hold every right. */
export const RIGHT_NEEDS: Record<ModerationRight, readonly Permission[]> = {
  'stream.end': ['GRANT PERMISSION'],
  'stream.delete': ['GRANT PERMISSION'],
  'stream.hide': ['ALLOW REPORT_STREAM_HIDE'],
  'stream.edit': ['UPDATE STREAM_ANY'],
  'viewer.ban': ['GRANT PERMISSION', 'UPDATE STREAM_ANY'],
  'post.delete': ['GRANT PERMISSION'],
  'comment.delete': ['GRANT PERMISSION'],
  'direct-message.delete': ['GRANT PERMISSION'],
  'user.suspend': ['GRANT PERMISSION'],
  'report.dismiss': ['GRANT PERMISSION', 'ALLOW REPORT_STREAM_HIDE'],
};

export interface Moderator {
  role: string;
  perms: readonly string[];
}

export function mayModerate(person: Moderator | null | undefined, right: ModerationRight): boolean {
  if (!person) return false;
  return person.role === 'admin' || RIGHT_NEEDS[right].some((p) => person.perms.includes(p));
}
