/**
 * The operator console (`/admin`; decision 0024): the reports queue, users, featured streams, system
 * messages, the mail outbox, the audit log and the periodic jobs. Who may call which: `common/console.ts`; anyone else is
 * answered 404, as if the console were not there.
 */
import { z } from 'zod';
import { ACTIONS_FOR, AUDIT_TARGET_TYPES, REPORT_ACTIONS, REPORT_KINDS, SUSPENSION_DAYS } from '../console';
import { CUSTOM_CHANNEL, LIMITS } from '../constants';
import { fill, MSG } from '../messages';
import { PERMISSIONS, ROLES } from '../permissions';
import { defineCall, noInput, success } from './define';
import { RATINGS } from './streams';
import { numeric, oneOf, requiredText, userId, wholeNumber } from './fields';

const itemId = numeric(z.number({ error: MSG.mustBeStreamId }).int().positive().max(Number.MAX_SAFE_INTEGER));
const page = { offset: wholeNumber(0, 1_000_000).default(0), limit: wholeNumber(1, 100).default(25) };
const person = z.object({ user_id: z.number(), username: z.string() });

export const consoleReport = z.object({
  kind: z.enum(REPORT_KINDS),
  item_id: z.number(),
  reporter: person,
  /** The complaint type (inappropriate, crime, troll, other) and the reporter's details. */
  type: z.string(),
  comment: z.string(),
  created_at: z.string(),
  owner: person,
  /** Stream title, post caption or comment text. */
  preview: z.string(),
  /** The stream's live picture, when it has a public one. */
  image: z.string().nullable(),
  item_state: z.enum(['live', 'shown', 'hidden', 'deleted']),
  handled: z.object({ by: person, at: z.string(), resolution: z.enum(REPORT_ACTIONS) }).nullable(),
});
export type ConsoleReport = z.infer<typeof consoleReport>;

export const reports = defineCall({
  method: 'GET',
  path: '/api/admin/reports',
  summary: 'The reports queue: stream, post and comment reports, open or handled, newest first',
  refusals: [404],
  input: z.strictObject({ status: z.enum(['open', 'handled']).default('open'), ...page }),
  output: success({ reports: z.array(consoleReport), total: z.number() }),
});

export const reportAction = defineCall({
  method: 'POST',
  path: '/api/admin/report-action',
  summary: 'Acts on a reported item (End Stream, Delete, Hide, Suspend User) or dismisses its reports; its open reports are handled',
  refusals: [403, 404],
  input: z.strictObject({
    kind: z.enum(REPORT_KINDS, { error: oneOf(REPORT_KINDS) }),
    item_id: itemId,
    action: z.enum(REPORT_ACTIONS, { error: MSG.mustBeReportAction }),
  }).refine((input) => ACTIONS_FOR[input.kind].includes(input.action), { message: MSG.mustBeReportAction, path: ['action'] }),
  output: success({ handled: z.number() }),
});

export const consoleUser = z.object({
  user_id: z.number(),
  username: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  status: z.enum(['active', 'suspended', 'deleted']),
  joined: z.string(),
});

export const users = defineCall({
  method: 'GET',
  path: '/api/admin/users',
  summary: 'Users whose username or e-mail contains the text, by username',
  refusals: [404],
  input: z.strictObject({ query: z.string().trim().max(100).optional(), ...page }),
  output: success({ users: z.array(consoleUser), total: z.number() }),
});

export const user = defineCall({
  method: 'GET',
  path: '/api/admin/user',
  summary: 'One user: role, permissions, status, when they joined, their streams, posts and reports',
  refusals: [404],
  input: z.strictObject({ id: userId }),
  output: success({
    user: consoleUser.extend({
      perms: z.array(z.string()),
      counts: z.object({ streams: z.number(), posts: z.number(), reports_against: z.number() }),
    }),
  }),
});

const userChange = <S extends z.ZodRawShape>(path: string, summary: string, extra: S) =>
  defineCall({ method: 'POST', path, summary, refusals: [403, 404], input: z.strictObject({ id: userId, ...extra }), output: success({}) });

const suspensionDays = oneOf(SUSPENSION_DAYS.map(String));
export const suspendUser = userChange('/api/admin/user-suspend', 'Suspends the account (administrators cannot be suspended) for `days` (absent or null: until lifted), with the reason the person is told at sign-in: its sessions end, its streams are hidden', {
  reason: requiredText(MSG.suspendReasonRequired, 300),
  days: numeric(z.number({ error: suspensionDays }).int().refine((n) => (SUSPENSION_DAYS as readonly number[]).includes(n), suspensionDays)).nullable().optional(),
});
export const liftSuspension = userChange('/api/admin/user-lift', 'Lifts the suspension: the account may sign in again', {});
export const grantPermission = userChange('/api/admin/user-grant', 'Grants a permission', { perm: z.enum(PERMISSIONS, { error: MSG.mustBePermission }) });
export const revokePermission = userChange('/api/admin/user-revoke', 'Revokes a permission', { perm: z.enum(PERMISSIONS, { error: MSG.mustBePermission }) });
export const changeRole = userChange('/api/admin/user-role', 'Changes the role (not one’s own)', { role: z.enum(ROLES, { error: oneOf(ROLES) }) });

export const featuredStream = z.object({
  stream_id: z.number(), title: z.string(), owner: person, live: z.boolean(), featured: z.boolean(), started_at: z.string().nullable(),
});

export const featured = defineCall({
  method: 'GET',
  path: '/api/admin/featured',
  summary: 'Featured streams, and live streams that could be',
  refusals: [404],
  input: noInput,
  output: success({ streams: z.array(featuredStream) }),
});

export const setFeatured = defineCall({
  method: 'POST',
  path: '/api/admin/featured-set',
  summary: 'Makes a stream featured, or removes it from featured',
  refusals: [404],
  input: z.strictObject({ stream_id: itemId, featured: z.boolean({ error: MSG.mustBeTrueOrFalse }) }),
  output: success({}),
});

/** A custom channel: one an administrator makes of chosen broadcasters, shown in the channel selector. */
export const customChannel = z.object({
  id: z.number(), name: z.string(), rating: z.enum(RATINGS), link: z.string(), broadcasters: z.array(person),
});
export type CustomChannel = z.infer<typeof customChannel>;

export const customChannels = defineCall({
  method: 'GET',
  path: '/api/admin/channels',
  summary: 'The custom channels and their broadcasters',
  refusals: [404],
  input: noInput,
  output: success({ channels: z.array(customChannel) }),
});

export const createCustomChannel = defineCall({
  method: 'POST',
  path: '/api/admin/channel-create',
  summary: 'Makes a custom channel listing the streams and posts of the named broadcasters',
  refusals: [404, 409],
  input: z.strictObject({
    name: requiredText(MSG.channelNameRequired, CUSTOM_CHANNEL.nameMax),
    rating: z.enum(RATINGS, { error: oneOf(RATINGS) }),
    broadcasters: z.array(requiredText(MSG.usernameRequired, LIMITS.username.max), { error: MSG.channelBroadcastersRequired })
      .min(1, MSG.channelBroadcastersRequired)
      .max(CUSTOM_CHANNEL.broadcastersMax, fill(MSG.channelTooManyBroadcasters, { max: CUSTOM_CHANNEL.broadcastersMax })),
  }),
  output: success({ channel: customChannel }),
});

export const deleteCustomChannel = defineCall({
  method: 'POST',
  path: '/api/admin/channel-delete',
  summary: 'Removes a custom channel (its streams and posts stay)',
  refusals: [404],
  input: z.strictObject({ id: numeric(z.number({ error: MSG.noSuchChannel }).int().positive().max(2_147_483_647)) }),
  output: success({}),
});

const time = z.iso.datetime({ offset: true, error: MSG.mustBeTime });

export const consoleMessage = z.object({
  id: z.number(), title: z.string(), content: z.string(), frequency: z.enum(['once', 'always']), locale: z.string(),
  starts_at: z.string().nullable(), ends_at: z.string().nullable(), created_at: z.string(),
});
export type ConsoleMessage = z.infer<typeof consoleMessage>;

export const systemMessages = defineCall({
  method: 'GET',
  path: '/api/admin/system-messages',
  summary: 'Every system message: scheduled, shown and retired',
  refusals: [404],
  input: noInput,
  output: success({ messages: z.array(consoleMessage) }),
});

export const createSystemMessage = defineCall({
  method: 'POST',
  path: '/api/admin/system-message-create',
  summary: 'A new system message, shown to users of its locale in the server notification modal from its start until its end',
  refusals: [404],
  input: z.strictObject({
    title: requiredText(MSG.titleRequired, 200),
    content: requiredText(MSG.messageContentRequired, 20_000),
    frequency: z.enum(['once', 'always'], { error: oneOf(['once', 'always']) }),
    locale: z.string().trim().regex(/^[a-z]{2}$/, MSG.localeInvalid).default('en'),
    starts_at: time.optional(),
    ends_at: time.optional(),
  }).refine((input) => !input.starts_at || !input.ends_at || new Date(input.ends_at) > new Date(input.starts_at), { message: MSG.messageEndsBeforeStart, path: ['ends_at'] }),
  output: success({ message: consoleMessage }),
});

export const retireSystemMessage = defineCall({
  method: 'POST',
  path: '/api/admin/system-message-retire',
  summary: 'Ends a system message now',
  refusals: [404],
  input: z.strictObject({ id: numeric(z.number({ error: MSG.mustBeMessageId }).int().positive().max(2_147_483_647)) }),
  output: success({ message: consoleMessage }),
});

export const outbox = defineCall({
  method: 'GET',
  path: '/api/admin/outbox',
  summary: 'The newest mail kept in the outbox',
  refusals: [404],
  input: z.strictObject({ to: z.string().trim().max(254).optional(), limit: wholeNumber(1, 200).default(50) }),
  output: success({
    messages: z.array(z.object({ id: z.number(), to: z.string(), subject: z.string(), text: z.string(), created_at: z.string() })),
    transport: z.enum(['outbox', 'smtp', 'none']),
  }),
});

export const auditEntry = z.object({
  id: z.number(),
  /** Null: the command line (`npm run admin`). */
  actor: person.nullable(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditLog = defineCall({
  method: 'GET',
  path: '/api/admin/audit-log',
  summary: 'The audit log, newest first (read only); optionally the entries about one target',
  refusals: [404],
  input: z.strictObject({
    before: numeric(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).optional(),
    limit: wholeNumber(1, 100).default(50),
    target_type: z.enum(AUDIT_TARGET_TYPES).optional(),
    target_id: z.string().trim().regex(/^\d{1,19}$/, MSG.mustBeWholeNumber).optional(),
  }),
  output: success({ entries: z.array(auditEntry) }),
});

export const consoleJob = z.object({
  name: z.string(),
  every_ms: z.number(),
  /** The instance roles that run it (decision 0051); an instance with ROLE=all runs every job. */
  roles: z.array(z.string()),
  /** Its runs over every instance; the last run's start, duration and instance; the last failure's message and moment. */
  runs: z.number(),
  failures: z.number(),
  last_started_at: z.string().nullable(),
  last_duration_ms: z.number().nullable(),
  last_instance: z.string().nullable(),
  last_error: z.string().nullable(),
  last_failed_at: z.string().nullable(),
});
export type ConsoleJob = z.infer<typeof consoleJob>;

export const jobs = defineCall({
  method: 'GET',
  path: '/api/admin/jobs',
  summary: 'The periodic jobs: the roles that run each, and its runs over every instance (last run, its duration, failures)',
  refusals: [404],
  input: noInput,
  output: success({ jobs: z.array(consoleJob) }),
});
