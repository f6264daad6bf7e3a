/**
 * The console's calls (`/api/admin/...`). Each names its part of the console; a caller who may not use
 * that part is answered 404 (the console is not told to exist), signed in or not.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/console';
import { mayUseArea, type ConsoleArea } from '../../../common/console';
import { fill, MSG } from '../../../common/messages';
import { readAudit } from '../../platform/audit/audit';
import type { Db } from '../../platform/db/client';
import { jobStatuses } from '../../platform/jobs/job-runs';
import type { OwnedJob } from '../../platform/jobs/scheduler';
import { ACCESS, type Access } from '../../platform/http/access';
import type { Principal } from '../../platform/http/auth';
import { badRequest, notFound } from '../../platform/http/errors';
import { addRoute } from '../../platform/http/route';
import { listMail, type MailTransport } from '../../platform/mail/outbox';
import type { AccountAdmin, AccountsService } from '../accounts';
import type { ChannelsService } from '../channels';
import { postCountSql } from '../posts';
import { featuredCandidatesSql, streamCountSql, type StreamModeration } from '../streams';
import type { SystemService } from '../system';
import type { ReportsQueue } from './reports';

const tags = ['console'];

const REPORTS = ACCESS.hiddenUnless('GRANT PERMISSION', 'ALLOW REPORT_STREAM_HIDE');
const FEATURED = ACCESS.hiddenUnless('UPDATE STREAM_ANY');
const ADMINS = ACCESS.hiddenUnless();

async function caller(request: { currentPrincipal(): Promise<Principal | null> }, area: ConsoleArea): Promise<Principal> {
  const principal = await request.currentPrincipal();
  if (!principal || !mayUseArea(principal, area)) throw notFound();
  return principal;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function registerConsoleRoutes(app: FastifyInstance, deps: {
  db: Db; accounts: AccountsService; accountAdmin: AccountAdmin; channels: ChannelsService; streamModeration: StreamModeration; system: SystemService;
  queue: ReportsQueue; mailTransport: MailTransport; jobs: readonly OwnedJob[];
}) {
  const { db } = deps;
  const options = (access: Access) => ({ auth: 'anonymous' as const, access, tags });
  const nameOf = async (ids: number[]) => {
    const found = await deps.accounts.publicUsers([...new Set(ids)]);
    return (id: number) => ({ user_id: id, username: found.get(id)?.username ?? '' });
  };
  const consoleUser = (u: { id: number; username: string; email: string; role: 'user' | 'admin'; status: 'active' | 'suspended' | 'deleted'; createdAt: Date }) => ({
    user_id: u.id, username: u.username, email: u.email, role: u.role, status: u.status, joined: u.createdAt.toISOString(),
  });

  // Reports
  addRoute(app, api.reports, options(REPORTS), async ({ request, input }) => {
    await caller(request, 'reports');
    return deps.queue.list(input);
  });
  addRoute(app, api.reportAction, options(REPORTS), async ({ request, input }) => {
    const principal = await caller(request, 'reports');
    return { handled: await deps.queue.act(principal, input) };
  });

  // Users
  addRoute(app, api.users, options(ADMINS), async ({ request, input }) => {
    await caller(request, 'users');
    const found = await deps.accountAdmin.search(input);
    return { users: found.users.map(consoleUser), total: found.total };
  });
  addRoute(app, api.user, options(ADMINS), async ({ request, input }) => {
    await caller(request, 'users');
    const found = await deps.accountAdmin.view(input.id);
    const { rows } = await db.execute<{ streams: number; posts: number }>(sql`select ${streamCountSql(input.id)} as streams, ${postCountSql(input.id)} as posts`);
    return {
      user: {
        ...consoleUser(found), perms: found.perms,
        counts: { streams: Number(rows[0]?.streams ?? 0), posts: Number(rows[0]?.posts ?? 0), reports_against: await deps.queue.countAgainst(input.id) },
      },
    };
  });
  addRoute(app, api.suspendUser, options(ADMINS), async ({ request, input }) => {
    const principal = await caller(request, 'users');
    await deps.accountAdmin.view(input.id);
    const until = input.days ? new Date(Date.now() + input.days * 86_400_000) : null;
    await deps.streamModeration.suspendOwner(principal.userId, input.id, { reason: input.reason, until });
    return {};
  });
  addRoute(app, api.liftSuspension, options(ADMINS), async ({ request, input }) => {
    const principal = await caller(request, 'users');
    await deps.accountAdmin.lift(principal.userId, { userId: input.id });
    return {};
  });
  addRoute(app, api.grantPermission, options(ADMINS), async ({ request, input }) => {
    const principal = await caller(request, 'users');
    await deps.accountAdmin.grant(principal.userId, { userId: input.id }, input.perm);
    return {};
  });
  addRoute(app, api.revokePermission, options(ADMINS), async ({ request, input }) => {
    const principal = await caller(request, 'users');
    await deps.accountAdmin.revoke(principal.userId, { userId: input.id }, input.perm);
    return {};
  });
  addRoute(app, api.changeRole, options(ADMINS), async ({ request, input }) => {
    const principal = await caller(request, 'users');
    await deps.accountAdmin.setRole(principal.userId, { userId: input.id }, input.role);
    return {};
  });

  // Featured streams
  addRoute(app, api.featured, options(FEATURED), async ({ request }) => {
    await caller(request, 'featured');
    const { rows } = await db.execute<{ id: number; title: string; user_id: number; live: boolean; featured: boolean; started_at: string | null }>(featuredCandidatesSql);
    const owner = await nameOf(rows.map((r) => Number(r.user_id)));
    return {
      streams: rows.map((r) => ({
        stream_id: Number(r.id), title: r.title, owner: owner(Number(r.user_id)), live: r.live, featured: r.featured, started_at: iso(r.started_at),
      })),
    };
  });
  addRoute(app, api.setFeatured, options(FEATURED), async ({ request, input }) => {
    const principal = await caller(request, 'featured');
    const changed = await deps.streamModeration.act(principal, [input.stream_id], input.featured ? 'MAKE_FEATURED' : 'REMOVE_FEATURED', undefined);
    if (changed === 0) throw notFound();
    return {};
  });

  // System messages
  addRoute(app, api.systemMessages, options(ADMINS), async ({ request }) => {
    await caller(request, 'messages');
    return { messages: await deps.system.allMessages() };
  });
  addRoute(app, api.createSystemMessage, options(ADMINS), async ({ request, input }) => {
    const principal = await caller(request, 'messages');
    const message = await deps.system.createMessage(principal.userId, {
      title: input.title, content: input.content, frequency: input.frequency, locale: input.locale,
      startsAt: input.starts_at ? new Date(input.starts_at) : null, endsAt: input.ends_at ? new Date(input.ends_at) : null,
    });
    return { message };
  });
  addRoute(app, api.retireSystemMessage, options(ADMINS), async ({ request, input }) => {
    const principal = await caller(request, 'messages');
    return { message: await deps.system.retireMessage(principal.userId, input.id) };
  });

  // Custom channels
  addRoute(app, api.customChannels, options(ADMINS), async ({ request }) => {
    await caller(request, 'channels');
    const found = await deps.channels.customChannels();
    const name = await nameOf(found.flatMap((c) => c.broadcasterIds));
    return { channels: found.map(({ broadcasterIds, ...c }) => ({ ...c, broadcasters: broadcasterIds.map(name) })) };
  });
  addRoute(app, api.createCustomChannel, options(ADMINS), async ({ request, input }) => {
    const principal = await caller(request, 'channels');
    const ids = await deps.accounts.activeIdsByUsername(input.broadcasters);
    const unknown = input.broadcasters.filter((n) => !ids.has(n));
    if (unknown.length > 0) throw badRequest(fill(MSG.channelUnknownBroadcasters, { names: unknown.join(', ') }), 'broadcasters');
    const broadcasterIds = [...new Set(ids.values())];
    const id = await deps.channels.createCustom(principal.userId, { name: input.name, rating: input.rating, broadcasterIds });
    const created = (await deps.channels.customChannels()).find((c) => c.id === id)!;
    const name = await nameOf(created.broadcasterIds);
    return { channel: { id, name: created.name, rating: created.rating, link: created.link, broadcasters: created.broadcasterIds.map(name) } };
  });
  addRoute(app, api.deleteCustomChannel, options(ADMINS), async ({ request, input }) => {
    const principal = await caller(request, 'channels');
    await deps.channels.deleteCustom(principal.userId, input.id);
    return {};
  });

  // The mail outbox
  addRoute(app, api.outbox, options(ADMINS), async ({ request, input, reply }) => {
    await caller(request, 'outbox');
    reply.header('cache-control', 'no-store');
    return { messages: await listMail(db, input), transport: deps.mailTransport };
  });

  // The periodic jobs, as run by whichever instances run them
  addRoute(app, api.jobs, options(ADMINS), async ({ request, reply }) => {
    await caller(request, 'jobs');
    reply.header('cache-control', 'no-store');
    const statuses = await jobStatuses(db, deps.jobs);
    return {
      jobs: statuses.map((j) => ({
        name: j.name, every_ms: j.everyMs, roles: [...j.roles], runs: j.runs, failures: j.failures,
        last_started_at: iso(j.lastStartedAt), last_duration_ms: j.lastDurationMs, last_instance: j.lastInstance,
        last_error: j.lastError, last_failed_at: iso(j.lastFailedAt),
      })),
    };
  });

  // The audit log: read only, here and everywhere (the table refuses changes).
  addRoute(app, api.auditLog, options(ADMINS), async ({ request, input }) => {
    await caller(request, 'audit');
    const rows = await readAudit(db, { before: input.before, limit: input.limit, targetType: input.target_type, targetId: input.target_id });
    const actor = await nameOf(rows.flatMap((r) => (r.actorId === null ? [] : [r.actorId])));
    return {
      entries: rows.map((r) => ({
        id: r.id, actor: r.actorId === null ? null : actor(r.actorId), action: r.action, target_type: r.targetType, target_id: r.targetId,
        before: r.before, after: r.after, created_at: r.createdAt.toISOString(),
      })),
    };
  });
}
