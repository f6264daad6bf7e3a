/**
 * A broadcaster's chat rules for their streams (decision 0081): who may chat (everyone, followers,
 * subscribers), slow mode, blocked words and links. Enforced by the server on every line but the owner's
 * and a platform moderator's; each change is recorded in the audit log. Read through a cache every
 * instance drops when the rules change.
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
import { mayActOnAnyStream, type StreamAccess, type StreamRow, type Viewer } from '../streams';
import { chatMessages, chatRules } from './tables';

type RulesRow = Omit<typeof chatRules.$inferSelect, 'userId' | 'updatedAt'>;
const NO_RULES: RulesRow = { slowModeSeconds: 0, audience: 'everyone', blockLinks: false, blockedWords: [] };
/** Compiled word lists kept per instance (by their words): a channel's matcher is built once, not per line. */
const MATCHERS_KEPT = 1_000;

export type ChatRulesInput = Required<Omit<ChatRules, 'blocked_words'>> & { blocked_words: string[] };

export function createChatRules(deps: {
  db: Db;
  cache: ReadCache;
  social: Pick<SocialService, 'relation'>;
  streamAccess: Pick<StreamAccess, 'mayChatWithPriority'>;
}) {
  const { db, cache } = deps;
  const tag = (userId: number) => `chat-rules:${userId}`;
  const matchers = new Map<string, (text: string) => string | null>();

  const rulesOf = (userId: number): Promise<RulesRow> => cache.get(tag(userId), [tag(userId)], async () => {
    const [row] = await db.select().from(chatRules).where(eq(chatRules.userId, userId));
    return row ? { slowModeSeconds: row.slowModeSeconds, audience: row.audience, blockLinks: row.blockLinks, blockedWords: row.blockedWords } : NO_RULES;
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

  const toWire = (rules: RulesRow, forOwner: boolean): ChatRules => ({
    slow_mode_seconds: rules.slowModeSeconds,
    audience: rules.audience,
    block_links: rules.blockLinks,
    ...(forOwner ? { blocked_words: rules.blockedWords } : {}),
  });

  return {
    async of(userId: number, caller: Principal | null): Promise<ChatRules> {
      return toWire(await rulesOf(userId), caller?.userId === userId);
    },

    async save(userId: number, input: ChatRulesInput): Promise<ChatRules> {
      const next: RulesRow = {
        slowModeSeconds: input.slow_mode_seconds, audience: input.audience, blockLinks: input.block_links,
        blockedWords: [...new Set(input.blocked_words.map((word) => word.toLowerCase()))],
      };
      await db.transaction(async (tx) => {
        const [before] = await tx.select().from(chatRules).where(eq(chatRules.userId, userId)).for('update');
        await tx.insert(chatRules).values({ userId, ...next, updatedAt: new Date() })
          .onConflictDoUpdate({ target: chatRules.userId, set: { ...next, updatedAt: new Date() } });
        await recordAudit(tx, {
          actorId: userId, action: 'chat.rules', targetType: 'user', targetId: userId,
          before: before ? toWire(before, true) : null, after: toWire(next, true),
        });
      });
      await cache.invalidate([tag(userId)]);
      return toWire(next, true);
    },

    /**
     * Refuses a line the stream's rules do not let this viewer write; answers the slow mode's seconds, which
     * the line's own transaction checks (`assertNotTooSoon`). The owner and platform moderators are not held.
     */
    async check(row: StreamRow, viewer: Viewer & { principal: Principal }, text: string): Promise<number> {
      const { principal } = viewer;
      if (principal.userId === row.userId || mayActOnAnyStream(principal, 'UPDATE STREAM_ANY')) return 0;
      const rules = await rulesOf(row.userId);
      if (rules.audience === 'followers' && !(await deps.social.relation(principal.userId, row.userId)).isFollowing) throw forbidden(MSG.chatFollowersOnly);
      if (rules.audience === 'subscribers' && !(await deps.streamAccess.mayChatWithPriority(row, viewer))) throw forbidden(MSG.chatSubscribersOnly);
      if (rules.blockLinks && hasLink(text)) throw badRequest(MSG.chatNoLinks, 'text');
      if (matcherOf(rules.blockedWords)(text) !== null) throw badRequest(MSG.chatBlockedWord, 'text');
      return rules.slowModeSeconds;
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
