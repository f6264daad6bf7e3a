/**
 * A broadcaster's chat rules for their streams (decision 0081): who may chat (everyone, followers,
 * subscribers), slow mode, blocked words and links, each line that trips a filter refused or held for a
 * moderator; and the operator's words refused in every chat (decision 0083). Enforced by the server on every
 * line (the channel's rules on all but its moderators' lines); each change is recorded in the audit log.
 * Read through a cache every instance drops when the rules change.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { ChatRules } from '../../../common/api/chat';
import { fill, MSG } from '../../../common/messages';
import { blockedWordMatcher, hasLink } from '../../../common/rules/chat-filter';
import type { Db, Executor } from '../../platform/db/client';
import { recordAudit } from '../../platform/audit/audit';
import type { ReadCache } from '../../platform/cache/read-cache';
import type { Principal } from '../../platform/http/auth';
import { badRequest, forbidden, tooManyRequests } from '../../platform/http/errors';
import type { SocialService } from '../social';
import { type ChannelModerators, mayActOnAnyStream, type StreamAccess, type StreamRow, type Viewer } from '../streams';
import { chatMessages, chatRules, platformChatFilter } from './tables';

type RulesRow = Omit<typeof chatRules.$inferSelect, 'userId' | 'updatedAt'>;
const NO_RULES: RulesRow = { slowModeSeconds: 0, audience: 'everyone', blockLinks: false, blockedWords: [], filterAction: 'refuse' };
const PLATFORM_TAG = 'platform-chat-filter';

/** What the rules make of a line: the slow mode its transaction checks, and whether it waits for a moderator. */
export interface LineVerdict {
  slowModeSeconds: number;
  held: boolean;
}
/** Compiled word lists kept per instance (by their words): a channel's matcher is built once, not per line. */
const MATCHERS_KEPT = 1_000;

export type ChatRulesInput = Required<Omit<ChatRules, 'blocked_words'>> & { blocked_words: string[] };
const lowerCasedOnce = (words: string[]) => [...new Set(words.map((word) => word.toLowerCase()))];

export function createChatRules(deps: {
  db: Db;
  cache: ReadCache;
  social: Pick<SocialService, 'relation'>;
  streamAccess: Pick<StreamAccess, 'mayChatWithPriority'>;
  moderators: Pick<ChannelModerators, 'appointedIds'>;
}) {
  const { db, cache } = deps;
  const tag = (userId: number) => `chat-rules:${userId}`;
  const matchers = new Map<string, (text: string) => string | null>();

  const rulesOf = (userId: number): Promise<RulesRow> => cache.get(tag(userId), [tag(userId)], async () => {
    const [row] = await db.select().from(chatRules).where(eq(chatRules.userId, userId));
    return row ? { slowModeSeconds: row.slowModeSeconds, audience: row.audience, blockLinks: row.blockLinks, blockedWords: row.blockedWords, filterAction: row.filterAction } : NO_RULES;
  });

  const platformWords = (): Promise<string[]> => cache.get(PLATFORM_TAG, [PLATFORM_TAG], async () => {
    const [row] = await db.select().from(platformChatFilter);
    return row?.words ?? [];
  });

  function matcherOf(words: string[]) {
    const key = words.join('\n');
    let matcher = matchers.get(key);
    if (!matcher) {
      if (matchers.size >= MATCHERS_KEPT) matchers.clear();
      matcher = blockedWordMatcher(words);
      matchers.set(key, matcher);
    }
    return matcher;
  }

  const toWire = (rules: RulesRow, withWords: boolean): ChatRules => ({
    slow_mode_seconds: rules.slowModeSeconds,
    audience: rules.audience,
    block_links: rules.blockLinks,
    filter_action: rules.filterAction,
    ...(withWords ? { blocked_words: rules.blockedWords } : {}),
  });

  /** A line's verdict from the channel's filters: refused, or held when the channel holds what they catch. */
  function filtered(rules: RulesRow, text: string): boolean {
    const caught = rules.blockLinks && hasLink(text) ? MSG.chatNoLinks : matcherOf(rules.blockedWords)(text) !== null ? MSG.chatBlockedWord : null;
    if (caught === null) return false;
    if (rules.filterAction === 'hold') return true;
    throw badRequest(caught, 'text');
  }

  return {
    /** `withWords`: the caller moderates the channel (its blocked words are theirs to see). */
    async of(userId: number, withWords: boolean): Promise<ChatRules> {
      return toWire(await rulesOf(userId), withWords);
    },

    /** `actorId`: the broadcaster or one of their moderators (checked by the caller). */
    async save(userId: number, actorId: number, input: Omit<ChatRulesInput, 'user_id'>): Promise<ChatRules> {
      const next: RulesRow = {
        slowModeSeconds: input.slow_mode_seconds, audience: input.audience, blockLinks: input.block_links,
        blockedWords: lowerCasedOnce(input.blocked_words), filterAction: input.filter_action,
      };
      await db.transaction(async (tx) => {
        const [before] = await tx.select().from(chatRules).where(eq(chatRules.userId, userId)).for('update');
        await tx.insert(chatRules).values({ userId, ...next, updatedAt: new Date() })
          .onConflictDoUpdate({ target: chatRules.userId, set: { ...next, updatedAt: new Date() } });
        await recordAudit(tx, {
          actorId, action: 'chat.rules', targetType: 'user', targetId: userId,
          before: before ? toWire(before, true) : null, after: toWire(next, true),
        });
      });
      await cache.invalidate([tag(userId)]);
      return toWire(next, true);
    },

    platformWords,

    async savePlatformWords(actorId: number, words: string[]): Promise<string[]> {
      const next = lowerCasedOnce(words);
      await db.transaction(async (tx) => {
        const [before] = await tx.select().from(platformChatFilter).for('update');
        await tx.insert(platformChatFilter).values({ id: 1, words: next, updatedAt: new Date() })
          .onConflictDoUpdate({ target: platformChatFilter.id, set: { words: next, updatedAt: new Date() } });
        await recordAudit(tx, { actorId, action: 'chat.platform-filter', targetType: 'user', targetId: actorId, before: { words: before?.words ?? [] }, after: { words: next } });
      });
      await cache.invalidate([PLATFORM_TAG]);
      return next;
    },

    /**
     * Refuses a line the rules do not let this viewer write, or holds it for a moderator; the slow mode's
     * seconds are for the line's own transaction (`assertNotTooSoon`). The operator's words hold for everyone
     * but platform moderators; the channel's rules for everyone but the channel's moderators.
     */
    async check(row: StreamRow, viewer: Viewer & { principal: Principal }, text: string): Promise<LineVerdict> {
      const { principal } = viewer;
      const platformModerator = mayActOnAnyStream(principal, 'UPDATE STREAM_ANY');
      if (!platformModerator && matcherOf(await platformWords())(text) !== null) throw badRequest(MSG.chatPlatformWord, 'text');
      const unheld = { slowModeSeconds: 0, held: false };
      if (principal.userId === row.userId || platformModerator || (await deps.moderators.appointedIds(row.userId)).includes(principal.userId)) return unheld;
      const rules = await rulesOf(row.userId);
      if (rules.audience === 'followers' && !(await deps.social.relation(principal.userId, row.userId)).isFollowing) throw forbidden(MSG.chatFollowersOnly);
      if (rules.audience === 'subscribers' && !(await deps.streamAccess.mayChatWithPriority(row, viewer))) throw forbidden(MSG.chatSubscribersOnly);
      return { slowModeSeconds: rules.slowModeSeconds, held: filtered(rules, text) };
    },

    /** Slow mode: the viewer's last line on the stream is at least `seconds` old (in the line's transaction, under its lock). */
    async assertNotTooSoon(tx: Executor, streamId: number, userId: number, seconds: number) {
      if (seconds <= 0) return;
      const [last] = await tx.select({ at: chatMessages.createdAt }).from(chatMessages)
        .where(and(eq(chatMessages.streamId, streamId), eq(chatMessages.userId, userId), eq(chatMessages.type, 'COMMENT'),
          sql`${chatMessages.createdAt} > now() - make_interval(secs => ${seconds})`))
        .orderBy(desc(chatMessages.createdAt)).limit(1);
      if (last) throw tooManyRequests(fill(MSG.chatSlowMode, { seconds }));
    },
  };
}

export type ChatRulesService = ReturnType<typeof createChatRules>;
