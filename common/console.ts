/**
 * Who may use which part of the operator console (`/admin`), one rule for the server's calls and the
 * web's gate (spec part 1 §6): administrators everything; GRANT PERMISSION the reports queue with End
 * Stream, Delete, Suspend User and Dismiss; ALLOW REPORT_STREAM_HIDE the queue with Hide and Dismiss;
 * UPDATE STREAM_ANY the featured streams. Users, payments (held accounts, refunds; decision 0057), payouts (decision 0061), custom channels, system messages, the outbox, the audit log and the jobs
 * are administrators' only. Anyone else is not told the console exists.
 */
import type { Permission } from './permissions';
import { mayModerate, type ModerationRight } from './rules/moderation';

export const CONSOLE_AREAS = ['reports', 'users', 'payments', 'payouts', 'featured', 'channels', 'messages', 'chat', 'outbox', 'audit', 'jobs'] as const;
export type ConsoleArea = (typeof CONSOLE_AREAS)[number];

export const REPORT_KINDS = ['stream', 'post', 'comment', 'direct-message'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** What a moderator does about a report: to its item (or the item's owner), or nothing (Dismiss). */
export const REPORT_ACTIONS = ['END_STREAM', 'DELETE', 'HIDE', 'SUSPEND_USER', 'DISMISS'] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];
/** A handled report's resolution is the action taken. */
export const REPORT_RESOLUTIONS = REPORT_ACTIONS;

/** The actions each kind of item offers. */
export const ACTIONS_FOR: Record<ReportKind, readonly ReportAction[]> = {
  stream: ['END_STREAM', 'DELETE', 'HIDE', 'SUSPEND_USER', 'DISMISS'],
  post: ['DELETE', 'SUSPEND_USER', 'DISMISS'],
  comment: ['DELETE', 'SUSPEND_USER', 'DISMISS'],
  'direct-message': ['DELETE', 'SUSPEND_USER', 'DISMISS'],
};

/** The right each action needs (the shared moderation rule, `common/rules/moderation.ts`). */
export const ACTION_NEEDS: Record<ReportAction, ModerationRight> = {
  END_STREAM: 'stream.end',
  DELETE: 'stream.delete',
  SUSPEND_USER: 'user.suspend',
  HIDE: 'stream.hide',
  DISMISS: 'report.dismiss',
};

const AREA_NEEDS: Record<ConsoleArea, readonly Permission[]> = {
  reports: ['GRANT PERMISSION', 'ALLOW REPORT_STREAM_HIDE'],
  featured: ['UPDATE STREAM_ANY'],
  users: [],
  payments: [],
  payouts: [],
  channels: [],
  messages: [],
  chat: [],
  outbox: [],
  audit: [],
  jobs: [],
};

interface Person {
  role: string;
  perms: readonly string[];
}

export function mayUseArea(person: Person | null | undefined, area: ConsoleArea): boolean {
  if (!person) return false;
  return person.role === 'admin' || AREA_NEEDS[area].some((p) => person.perms.includes(p));
}

/** The console's parts this person may open, in the order of its tabs; empty: no console. */
export const consoleAreas = (person: Person | null | undefined): ConsoleArea[] => CONSOLE_AREAS.filter((area) => mayUseArea(person, area));

export const mayUseConsole = (person: Person | null | undefined): boolean => consoleAreas(person).length > 0;

/** Whether the person may take the action on an item of this kind (Delete: the stream's, post's or comment's right). */
export function mayTakeAction(person: Person | null | undefined, action: ReportAction, kind: ReportKind = 'stream'): boolean {
  const right = action === 'DELETE' && kind !== 'stream' ? (`${kind}.delete` as const) : ACTION_NEEDS[action];
  return mayModerate(person, right);
}

/** Audit log actions, as recorded (`target_type` says on what). */
export const AUDIT_ACTIONS = [
  'stream.end', 'stream.delete', 'stream.hide', 'stream.suspend-owner', 'stream.feature', 'stream.unfeature', 'stream.followers-only',
  'stream.move-to-18', 'stream.thumbnail', 'stream.set-paid', 'stream.move-to-men', 'stream.move-to-women',
  'stream.ban-viewer', 'post.delete', 'comment.delete', 'direct-message.delete', 'report.dismiss',
  'user.suspend', 'user.lift', 'user.grant', 'user.revoke', 'user.role', 'user.password_reset',
  'message.create', 'message.retire',
  'coins.grant',
  'channel.create',
  'channel.delete',
  // A broadcaster changed their chat's rules (slow mode, who may chat, blocked words, links).
  'chat.rules', 'chat.moderator-add', 'chat.moderator-remove', 'chat.line-delete', 'chat.line-approve', 'chat.time-out', 'chat.platform-filter',
  'payment.refund',
  // An administrator read someone's tax information (masked): personal data, so who looked is kept.
  'user.tax-info-read',
  'payout.approve', 'payout.reject', 'payout.export', 'payout.send', 'payout.paid', 'payout.failed', 'payout.cancel', 'payout.returned',
  // An operator gave up on a payout the processor never answered; the processor paid one already failed.
  'payout.mark-failed', 'payout.late-success',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
/** What an audit entry is about. */
export const AUDIT_TARGET_TYPES = ['stream', 'post', 'comment', 'direct-message', 'user', 'message', 'channel', 'payment', 'payout'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** How long a suspension from the console may last, in days (none: until lifted). */
export const SUSPENSION_DAYS = [1, 3, 7, 30] as const;
