/**
 * Chat and likes on a stream: the server validates what clients ask for, stores it and publishes it.
 * Clients send COMMENT and LIKE only; every other type is published by services.
 */
import { and, asc, count, desc, eq, gt, gte, inArray, sql } from 'drizzle-orm';
import { MSG } from '../../../common/messages';
import type { Permission } from '../../../common/permissions';
import {
  CHAT_TEXT_MAX, HISTORY_LINES, type HistoryMessage, isToySend, priorityChannelOf, type RealtimeMessage, REPLAY_MAX_LINES,
  type ReplayCursor, type SendFrame, streamChannelOf, type ToySendFrame, userChannelOf,
} from '../../../common/realtime';
import { isSkinId, SKINS, type Rating } from '../../../common/skins';
import { lockForTransaction } from '../../platform/db/advisory-lock';
import { cutsFrom, playedOffset, recordedOffset } from '../../platform/media/hls-playlist';
import type { Db, Executor } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import { appError, badRequest, forbidden, notFound, tooManyRequests, unauthorized } from '../../platform/http/errors';
import type { PresenceChange, SubscribeAnswer } from '../../platform/realtime/gateway';
import type { AccountsService } from '../accounts';
import type { Ledger } from '../ledger';
import type { StreamAccess, StreamReads, StreamRow, StreamViewing, Viewer } from '../streams';
import type { ChatRulesService } from './chat-rules';
import type { ChatModeration } from './moderation';
import type { EmotesService } from './emotes';
import { commentOf, senderOf } from './sender';
import { tipMessage } from './tip-message';
import { parseChannel } from './channels';
import { chatMessages } from './tables';

/** A viewer may post this many lines on one stream inside the window (shared by every instance: counted in the database). */
export const CHAT_RATE = { lines: 10, windowMs: 10_000 };

/** Paid-chat skins: chatting needs CREATE STREAM_CHAT and the permission for the stream's rating (spec §5 Chat payment). */
const CHAT_PERMISSION: Record<Rating, Permission> = {
  G: 'CREATE STREAM_CHAT_G',
  PLUS_14: 'CREATE STREAM_CHAT_PLUS14',
  PLUS_18: 'CREATE STREAM_CHAT_PLUS18',
};

/** A transaction lock for one viewer on one stream (ids may pass 2^31: the key is a 64-bit hash). */
const lockViewerOnStream = (tx: Executor, purpose: string, streamId: number, userId: number) =>
  lockForTransaction(tx, `${purpose}:${streamId}:${userId}`);

type Publish = (channel: string, message: RealtimeMessage) => Promise<void>;

/** A meeting room's channel (`meeting:<id>`): the meetings module, later in MODULES, fills the hook `meetingRules`. */
export interface MeetingRules {
  /** Throws to refuse (the caller is signed in); answers the room's chat history. */
  authorizeSubscribe(meetingId: number, principal: Principal): Promise<{ history: HistoryMessage[] }>;
  /** COMMENT, LIKE and SIGNAL from a signed-in participant; throws to refuse. */
  handleSend(meetingId: number, frame: SendFrame, principal: Principal): Promise<void>;
  /** The member's first socket on this instance joined, or its last one left. */
  onPresenceChange(meetingId: number, principal: Principal, change: PresenceChange): void;
  /** This instance wrote the channel's member count: who is in the room can be told. */
  onPresenceWritten(meetingId: number): Promise<void>;
}

/** Toy-device operations sent on a room's channel (`stream:<id>` or `meeting:<id>`): the toys module, later in MODULES, fills the hook `toyRules`. */
export interface ToyRules {
  /** Throws to refuse; the viewer is signed in. */
  handleSend(place: { room: 'stream' | 'meeting'; streamId: number }, frame: ToySendFrame, viewer: Viewer & { principal: Principal }): Promise<void>;
}
/** Direct messages' typing, sent on the member's own channel (`user:<id>`): the messages module, later in MODULES, fills the hook `messageRules`. */
export interface MessageRules {
  /** Throws to refuse; tells `to` that the sender is typing when the conversation is open to them. */
  typing(senderId: number, to: number): Promise<void>;
}
type RemoveFromChannels = (userId: number, channels: string[], farewell: RealtimeMessage) => Promise<void>;
/** A viewer flicking in and out is announced at most this often. */
const PRESENCE_ANNOUNCE_MS = 10_000;

export function createChatService(deps: {
  db: Db;
  streamReads: Pick<StreamReads, 'findStream'>;
  streamAccess: Pick<StreamAccess, 'lookup' | 'assertPaidUp' | 'mayChatWithPriority' | 'keptOut'>;
  streamViewing: Pick<StreamViewing, 'activeViewers' | 'savedLikes'>;
  accounts: AccountsService;
  ledger: Ledger;
  publish: Publish;
  removeFromChannels: RemoveFromChannels;
  recheckChannel: (channel: string) => Promise<void>;
  likeLimit: number;
  log: { warn(obj: object, msg: string): void };
  /** This instance's id in realtime_presence (the meetings module counts its people per instance). */
  presenceInstanceId: string;
  /** The signed-in members of a channel on every instance. */
  signedInMembers: (channel: string) => Promise<number[]>;
  /** The broadcasters' chat rules (slow mode, who may chat, blocked words, links) and the operator's words. */
  chatRules: ChatRulesService;
  /** The emotes a line uses, checked for its sender. */
  emotes: Pick<EmotesService, 'usedBy' | 'imagesOf'>;
  /** Time-outs, and the moderators told of held lines. */
  moderation: Pick<ChatModeration, 'assertNotTimedOut' | 'announceHeld'>;
  /** The hooks the meetings and toys modules fill. */
  meetingRules: () => MeetingRules;
  toyRules: () => ToyRules;
  messageRules: () => MessageRules;
}) {
  const { db, meetingRules, toyRules, messageRules } = deps;

  async function senders(userIds: number[], ownerId: number) {
    const users = await deps.accounts.publicUsers([...new Set(userIds)]);
    return (userId: number, priority: boolean) => senderOf(users, ownerId, userId, priority);
  }

  type StoredComment = typeof chatMessages.$inferSelect;
  type StoredTip = Awaited<ReturnType<Ledger['tipsOnStream']>>[number];

  /** Comments and tips (each oldest first) as one list of messages, merged by time. */
  async function asHistory(comments: StoredComment[], tips: StoredTip[], ownerId: number): Promise<HistoryMessage[]> {
    const [people, images] = await Promise.all([
      deps.accounts.publicUsers([...comments.map((r) => r.userId), ...tips.map((tip) => tip.userId)]),
      deps.emotes.imagesOf(comments.flatMap((r) => r.emotes ?? [])),
    ]);
    const lines = [
      ...comments.map((r) => ({ at: r.createdAt, message: commentOf(r, people, ownerId, images) satisfies HistoryMessage })),
      ...tips.map((tip) => ({
        at: tip.createdAt,
        message: tipMessage({
          transferId: tip.id, tipperId: tip.userId, streamOwnerId: ownerId, amount: tip.amount, at: tip.createdAt, tipper: people.get(tip.userId),
          message: tip.message ?? undefined, menuItem: tip.menuItem ?? undefined,
        }),
      })),
    ];
    // The sort is stable, so lines of the same instant keep their order (comments before tips).
    lines.sort((a, b) => a.at.getTime() - b.at.getTime());
    return lines.map((line) => line.message);
  }

  /** The channel's newest COMMENTs (after `afterId` when given), oldest first. */
  async function lastComments(streamId: number, priority: boolean, limit: number, afterId?: number): Promise<StoredComment[]> {
    const rows = await db.select().from(chatMessages)
      .where(and(
        eq(chatMessages.streamId, streamId), eq(chatMessages.type, 'COMMENT'), eq(chatMessages.priority, priority), eq(chatMessages.status, 'shown'),
        afterId === undefined ? undefined : gt(chatMessages.id, afterId),
      ))
      .orderBy(desc(chatMessages.id)).limit(limit);
    return rows.reverse();
  }

  /**
   * The channel's last HISTORY_LINES lines, oldest first: on the public channel its COMMENTs and the
   * stream's tips merged by time, on the priority channel its COMMENTs.
   */
  async function history(streamId: number, ownerId: number, priority: boolean): Promise<HistoryMessage[]> {
    const [comments, tips] = await Promise.all([
      lastComments(streamId, priority, HISTORY_LINES),
      // Tips are read from the ledger (the tip path writes nothing more); they show on the public channel only.
      priority ? Promise.resolve([]) : deps.ledger.tipsOnStream(streamId, HISTORY_LINES),
    ]);
    return (await asHistory(comments, tips.reverse(), ownerId)).slice(-HISTORY_LINES);
  }

  /**
   * The stream's tips after transfer `afterId`, oldest first, at most REPLAY_MAX_LINES + 1 (the ledger reads
   * the newest first): a short read is enough when it reaches the cursor or the stream's first tip.
   */
  async function tipsAfter(streamId: number, afterId: number): Promise<StoredTip[]> {
    let newest: StoredTip[] = [];
    for (const limit of [HISTORY_LINES + 1, REPLAY_MAX_LINES + 1]) {
      newest = await deps.ledger.tipsOnStream(streamId, limit);
      if (newest.length < limit || newest.some((tip) => tip.id <= afterId)) break;
    }
    return newest.filter((tip) => tip.id > afterId).reverse();
  }

  /**
   * What a resubscribing client missed: the COMMENTs and (on the public channel) tips after its cursor,
   * at most REPLAY_MAX_LINES of each, the newest; `skipped` when more came.
   */
  async function replay(streamId: number, ownerId: number, priority: boolean, after: ReplayCursor): Promise<SubscribeAnswer> {
    // A cursor past any id there can be (the client's own string) reads as "nothing after it".
    const afterId = (token: string) => Math.min(Number(token), Number.MAX_SAFE_INTEGER);
    const [comments, tips] = await Promise.all([
      lastComments(streamId, priority, REPLAY_MAX_LINES + 1, afterId(after.comment)),
      priority ? Promise.resolve([]) : tipsAfter(streamId, afterId(after.tip)),
    ]);
    const skipped = comments.length > REPLAY_MAX_LINES || tips.length > REPLAY_MAX_LINES;
    return { history: await asHistory(comments.slice(-REPLAY_MAX_LINES), tips.slice(-REPLAY_MAX_LINES), ownerId), replay: { skipped } };
  }

  /** Likes this user gave the stream: realtime likes stored here, or those saved by leave-stream if more. */
  async function likesGiven(tx: Executor, streamId: number, userId: number): Promise<number> {
    const [live] = await tx.select({ n: sql<number>`count(*)::int` }).from(chatMessages)
      .where(and(eq(chatMessages.streamId, streamId), eq(chatMessages.userId, userId), eq(chatMessages.type, 'LIKE')));
    return Math.max(live?.n ?? 0, await deps.streamViewing.savedLikes(streamId, userId, tx));
  }

  function assertMayChat(row: StreamRow, principal: Principal) {
    if (!row.chatEnabled) throw forbidden(MSG.chatDisabled);
    // The stream's own skin decides: a client naming another skin does not chat for free.
    if (!isSkinId(row.skin) || !SKINS[row.skin].flags.paidChat || principal.userId === row.userId) return;
    const paid = principal.perms.includes('CREATE STREAM_CHAT') && principal.perms.includes(CHAT_PERMISSION[row.rating]);
    if (!paid) throw appError('chat_payment_required');
  }

  async function assertNotFlooding(tx: Executor, streamId: number, userId: number) {
    const [recent] = await tx.select({ n: count() }).from(chatMessages).where(and(
      eq(chatMessages.streamId, streamId),
      eq(chatMessages.userId, userId),
      eq(chatMessages.type, 'COMMENT'),
      gte(chatMessages.createdAt, new Date(Date.now() - CHAT_RATE.windowMs)),
    ));
    if ((recent?.n ?? 0) >= CHAT_RATE.lines) throw tooManyRequests(MSG.chatTooFast);
  }

  async function comment(row: StreamRow, viewer: Viewer & { principal: Principal }, text: string, priority: boolean) {
    const { principal } = viewer;
    const trimmed = text.trim();
    if (trimmed === '') throw badRequest(MSG.leaveMessage, 'text');
    const cut = [...trimmed].slice(0, CHAT_TEXT_MAX).join('');
    const verdict = await deps.chatRules.check(row, viewer, cut);
    const used = await deps.emotes.usedBy(db, cut, { userId: principal.userId, skin: viewer.skin });
    const stored = await db.transaction(async (tx) => {
      // Counted and written under one lock per viewer and stream, on every instance.
      await lockViewerOnStream(tx, 'chat', row.id, principal.userId);
      await deps.moderation.assertNotTimedOut(tx, row.userId, principal.userId);
      await assertNotFlooding(tx, row.id, principal.userId);
      await deps.chatRules.assertNotTooSoon(tx, row.id, principal.userId, verdict.slowModeSeconds);
      const [inserted] = await tx.insert(chatMessages)
        .values({ streamId: row.id, userId: principal.userId, type: 'COMMENT', text: cut, priority, status: verdict.held ? 'held' : 'shown', emotes: used?.codes ?? null })
        .returning({ id: chatMessages.id, createdAt: chatMessages.createdAt });
      return inserted!;
    });
    const people = await deps.accounts.publicUsers([principal.userId]);
    const line = commentOf({ ...stored, userId: principal.userId, text: cut, priority, emotes: used?.codes }, people, row.userId, used?.images);
    if (verdict.held) return deps.moderation.announceHeld(row.userId, row.id, priority, line);
    await deps.publish(priority ? priorityChannelOf(row.id) : streamChannelOf(row.id), line);
  }

  async function like(row: StreamRow, principal: Principal) {
    if (principal.userId === row.userId) throw forbidden(MSG.cannotLikeOwnStream);
    await db.transaction(async (tx) => {
      // One viewer's likes on one stream are counted one at a time, on every instance.
      await lockViewerOnStream(tx, 'like', row.id, principal.userId);
      if ((await likesGiven(tx, row.id, principal.userId)) + 1 >= deps.likeLimit) {
        throw appError('like_limit');
      }
      await tx.insert(chatMessages).values({ streamId: row.id, userId: principal.userId, type: 'LIKE' });
    });
    const senderOf = await senders([principal.userId], row.userId);
    await deps.publish(streamChannelOf(row.id), { type: 'LIKE', likes: 1, sender: senderOf(principal.userId, false) });
  }

  const lastAnnounced = new Map<string, number>();

  /** Only the owner hears who arrives and leaves (on their own user channel): viewers' identities are not broadcast. */
  async function announcePresence(streamId: number, principal: Principal, change: PresenceChange) {
    const key = `${streamId}:${principal.userId}:${change}`;
    const now = Date.now();
    if (now - (lastAnnounced.get(key) ?? 0) < PRESENCE_ANNOUNCE_MS) return;
    if (lastAnnounced.size > 10_000) lastAnnounced.clear();
    lastAnnounced.set(key, now);
    const row = await deps.streamReads.findStream(streamId);
    if (row.userId === principal.userId) return;
    const senderOf = await senders([principal.userId], row.userId);
    await deps.publish(userChannelOf(row.userId), { type: change, sender: senderOf(principal.userId, false), data: { stream_id: streamId } });
  }

  return {
    async authorizeSubscribe(channel: string, viewer: Viewer, after?: ReplayCursor): Promise<SubscribeAnswer> {
      const parsed = parseChannel(channel);
      if (!parsed) throw notFound(MSG.noSuchChannel);
      // A user's, a priority and a meeting channel need a sign-in first (401), like every 'user' operation.
      if ((parsed.kind !== 'stream' || parsed.priority) && !viewer.principal) throw unauthorized();
      if (parsed.kind === 'user') {
        if (viewer.principal?.userId !== parsed.userId) throw forbidden();
        return { history: [] };
      }
      if (parsed.kind === 'meeting') return meetingRules().authorizeSubscribe(parsed.meetingId, viewer.principal!);
      const row = await deps.streamAccess.lookup(parsed.streamId, viewer);
      await deps.streamAccess.assertPaidUp(row, viewer);
      if (parsed.priority && !(await deps.streamAccess.mayChatWithPriority(row, viewer))) throw forbidden(MSG.priorityChatOnly);
      // The broadcaster watching their own stream is not one of its viewers (decision 0046).
      const uncounted = row.userId === viewer.principal?.userId;
      if (after) return { ...(await replay(row.id, row.userId, parsed.priority, after)), uncounted };
      return { history: await history(row.id, row.userId, parsed.priority), uncounted };
    },

    async handleSend(channel: string, frame: SendFrame, viewer: Viewer): Promise<void> {
      const parsed = parseChannel(channel);
      const principal = viewer.principal;
      if (isToySend(frame)) {
        if (!principal) throw unauthorized();
        if (!parsed || parsed.kind === 'user' || (parsed.kind === 'stream' && parsed.priority)) throw forbidden(MSG.channelNotWritable);
        const place = parsed.kind === 'meeting' ? { room: 'meeting' as const, streamId: parsed.meetingId } : { room: 'stream' as const, streamId: parsed.streamId };
        return toyRules().handleSend(place, frame, { ...viewer, principal });
      }
      if (parsed?.kind === 'meeting') {
        if (!principal) throw unauthorized();
        return meetingRules().handleSend(parsed.meetingId, frame, principal);
      }
      if (frame.type === 'DM-TYPING') {
        if (!principal) throw unauthorized();
        if (parsed?.kind !== 'user' || parsed.userId !== principal.userId) throw forbidden(MSG.channelNotWritable);
        return messageRules().typing(principal.userId, frame.to);
      }
      if (!parsed || parsed.kind !== 'stream') throw forbidden(MSG.channelNotWritable);
      if (!principal) throw unauthorized();
      const row = await deps.streamAccess.lookup(parsed.streamId, viewer);
      await deps.streamAccess.assertPaidUp(row, viewer);
      if (parsed.priority && !(await deps.streamAccess.mayChatWithPriority(row, viewer))) throw forbidden(MSG.priorityChatOnly);
      if (frame.type === 'LIKE') {
        if (parsed.priority) throw forbidden(MSG.likesNotOnPriority);
        return like(row, principal);
      }
      if (frame.type !== 'COMMENT') throw forbidden(MSG.channelNotWritable);
      assertMayChat(row, principal);
      return comment(row, { ...viewer, principal }, frame.text, parsed.priority);
    },

    /** Viewers are the members of a stream's public channel; a meeting's members are the people in the room. */
    countsPresence: (channel: string) => {
      const parsed = parseChannel(channel);
      return (parsed?.kind === 'stream' && !parsed.priority) || parsed?.kind === 'meeting';
    },

    /** VIEWERS on each stream channel whose membership changed: pages show the count without asking again. */
    async publishViewerCounts(channels: string[]): Promise<void> {
      for (const channel of channels) {
        const parsed = parseChannel(channel);
        if (parsed?.kind === 'meeting') await meetingRules().onPresenceWritten(parsed.meetingId);
        if (parsed?.kind !== 'stream' || parsed.priority) continue;
        const viewers = await deps.streamViewing.activeViewers(parsed.streamId);
        await deps.publish(channel, { type: 'VIEWERS', viewers });
      }
    },

    /** Likes given on the stream in realtime (LIKE): every viewer's (the stream info's rlikes), or one viewer's. */
    realtimeLikes: {
      async onStreams(streamIds: number[]): Promise<Map<number, number>> {
        if (streamIds.length === 0) return new Map();
        const rows = await db.select({ streamId: chatMessages.streamId, n: sql<number>`count(*)::int` }).from(chatMessages)
          .where(and(inArray(chatMessages.streamId, streamIds), eq(chatMessages.type, 'LIKE')))
          .groupBy(chatMessages.streamId);
        return new Map(rows.map((r) => [r.streamId, r.n]));
      },
      async byViewer(streamId: number, userId: number, exec: Executor): Promise<number> {
        const [row] = await exec.select({ n: sql<number>`count(*)::int` }).from(chatMessages)
          .where(and(eq(chatMessages.streamId, streamId), eq(chatMessages.userId, userId), eq(chatMessages.type, 'LIKE')));
        return row?.n ?? 0;
      },
    },

    /** CONNECTED / DISCONNECTED to the owner when a signed-in viewer arrives or goes. */
    onPresenceChange(channel: string, principal: Principal, change: PresenceChange) {
      const parsed = parseChannel(channel);
      if (parsed?.kind === 'meeting') meetingRules().onPresenceChange(parsed.meetingId, principal, change);
      if (parsed?.kind !== 'stream') return;
      announcePresence(parsed.streamId, principal, change).catch((error: unknown) => deps.log.warn({ err: error }, 'presence not announced'));
    },

    /** BLOCKED to a banned viewer's sockets; they leave the stream's channels on every instance. */
    async blockViewer(streamId: number, userId: number): Promise<void> {
      const farewell = { type: 'BLOCKED', text: String(userId), data: { user_id: userId } } as const;
      await deps.removeFromChannels(userId, [streamChannelOf(streamId), priorityChannelOf(streamId)], farewell);
    },

    /** The stream's audience, rating or existence changed: viewers on its channels are checked again. */
    async recheckStream(streamId: number): Promise<void> {
      await deps.recheckChannel(streamChannelOf(streamId));
      await deps.recheckChannel(priorityChannelOf(streamId));
    },

    /**
     * The broadcast's public chat from `fromMs` into it, for its replay: COMMENTs and tips merged by time,
     * each with its offset from the start. The same rules as watching (the pay wall included).
     */
    async replayChat(streamId: number, viewer: Viewer, fromMs: number, limit: number) {
      const row = await deps.streamAccess.lookup(streamId, viewer);
      await deps.streamAccess.assertPaidUp(row, viewer);
      if (!row.startedAt) return { started_time: null, lines: [], next_from_ms: null };
      const start = row.startedAt.getTime();
      // The replay lacks its shows' minutes (decision 0085): offsets are the replay's, and what was said
      // while a show was on is not played back.
      const cuts = cutsFrom(start, await deps.streamAccess.keptOut(row.id));
      const inCut = (offset: number) => cuts.some((cut) => offset >= cut.from && offset < cut.to);
      const recorded = recordedOffset(fromMs, cuts);
      const since = new Date(start + (cuts.find((cut) => recorded >= cut.from && recorded < cut.to)?.to ?? recorded));
      const [comments, tips] = await Promise.all([
        db.select().from(chatMessages)
          .where(and(
            eq(chatMessages.streamId, row.id), eq(chatMessages.type, 'COMMENT'), eq(chatMessages.priority, false), eq(chatMessages.status, 'shown'),
            gte(chatMessages.createdAt, since),
          ))
          .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id)).limit(limit + 1),
        deps.ledger.tipsOnStreamFrom(row.id, since, limit + 1),
      ]);
      // Each source's first `limit` lines hold the merged first `limit`.
      const merged = (await asHistory(comments, tips, row.userId)).map((message) => ({ at: Date.parse(message.chatTime) - start, message }));
      const page = merged.slice(0, limit);
      const lines = page.filter(({ at }) => !inCut(at)).map(({ at, message }) => ({ offset_ms: playedOffset(at, cuts), message }));
      return { started_time: row.startedAt.toISOString(), lines, next_from_ms: merged.length > limit ? playedOffset(page.at(-1)!.at, cuts) : null };
    },

    /** A service-originated message on a stream's channel (STREAM-END, STREAM-OPTIONS, TIP...). */
    publishToStream: (streamId: number, message: RealtimeMessage) => deps.publish(streamChannelOf(streamId), message),

    /** The signed-in people watching a stream now, on every instance (the broadcaster's picker of viewers). */
    watcherIds: (streamId: number) => deps.signedInMembers(streamChannelOf(streamId)),
    /** The gateway's fan-out, for the meeting rooms' frames. */
    publish: deps.publish,
    removeFromChannels: deps.removeFromChannels,
    recheckChannel: deps.recheckChannel,
    presenceInstanceId: deps.presenceInstanceId,
  };
}

export type ChatService = ReturnType<typeof createChatService>;
