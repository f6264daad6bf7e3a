/**
 * Broadcasters' emotes (decision 0084): a small image each, with a code unique on the site. A line that
 * writes `:code:` of an emote is written by its broadcaster or by a subscriber whose plan reaches the
 * emote's level (where the sender's skin has subscriptions), or it is refused; the codes it used are
 * stored with it, and its COMMENT carries their images for everyone to see. Emotes are read by code
 * through a cache every instance drops when one is added or removed.
 */
import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Emote } from '../../../common/api/chat';
import { fill, MSG } from '../../../common/messages';
import { EMOTES, emoteCodesIn } from '../../../common/rules/emotes';
import { SKINS, type SkinId } from '../../../common/skins';
import type { ReadCache } from '../../platform/cache/read-cache';
import { lockForTransaction } from '../../platform/db/advisory-lock';
import type { Db, Executor } from '../../platform/db/client';
import { badRequest, conflict, forbidden, notFound } from '../../platform/http/errors';
import { squareWebp } from '../../platform/images/square-webp';
import type { FileStore } from '../../platform/storage/storage';
import type { AccountsService } from '../accounts';
import { activePlanLevel } from '../subscriptions';
import { emotes } from './tables';

export const EMOTE_PREFIX = 'emotes/';
const TAG = 'emotes';

type EmoteRow = typeof emotes.$inferSelect;
/** What a line needs of an emote: whose it is, who may use it, its image. */
interface KnownEmote {
  ownerId: number;
  minPlanLevel: number;
  url: string;
}

const urlOf = (file: string) => `/media/${file}`;
const toWire = (row: EmoteRow): Emote => ({ code: row.code, url: urlOf(row.file), min_plan_level: row.minPlanLevel });

export function createEmotes(deps: { db: Db; files: FileStore; cache: ReadCache; accounts: Pick<AccountsService, 'publicUsers'> }) {
  const { db, files, cache } = deps;

  async function list(ownerId: number): Promise<Emote[]> {
    const rows = await db.select().from(emotes).where(eq(emotes.ownerId, ownerId)).orderBy(asc(emotes.id));
    return rows.map(toWire);
  }

  /** The emotes of these codes that exist (cached per set of codes: a line's are few). */
  const known = (codes: readonly string[]): Promise<Record<string, KnownEmote>> => cache.get(`${TAG}:${codes.join(',')}`, [TAG], async () => {
    const rows = await db.select().from(emotes).where(inArray(emotes.code, [...codes]));
    return Object.fromEntries(rows.map((row) => [row.code, { ownerId: row.ownerId, minPlanLevel: row.minPlanLevel, url: urlOf(row.file) }]));
  });

  async function mayUse(exec: Executor, senderId: number, skin: SkinId, emote: KnownEmote): Promise<boolean> {
    if (emote.ownerId === senderId) return true;
    if (!SKINS[skin].flags.subscriptions) return false;
    const level = await activePlanLevel(exec, senderId, emote.ownerId);
    return level !== null && level >= emote.minPlanLevel;
  }

  return {
    list,

    async add(ownerId: number, code: string, minPlanLevel: number, upload: Buffer): Promise<Emote[]> {
      const image = await squareWebp(upload, { sizePx: EMOTES.sizePx, maxBytes: EMOTES.maxBytes, tooBig: MSG.emoteTooBig });
      const file = `${EMOTE_PREFIX}${ownerId}-${randomBytes(8).toString('hex')}.webp`;
      await files.put(file, image);
      try {
        await db.transaction(async (tx) => {
          await lockForTransaction(tx, `emotes:${ownerId}`);
          const [owned] = await tx.select({ n: count() }).from(emotes).where(eq(emotes.ownerId, ownerId));
          if ((owned?.n ?? 0) >= EMOTES.perBroadcaster) throw conflict(fill(MSG.emotesTooMany, { max: EMOTES.perBroadcaster }));
          const added = await tx.insert(emotes).values({ ownerId, code, minPlanLevel, file }).onConflictDoNothing().returning({ id: emotes.id });
          if (added.length === 0) throw conflict(MSG.emoteCodeTaken, 'code');
        });
      } catch (error) {
        await files.remove(file);
        throw error;
      }
      await cache.invalidate([TAG]);
      return list(ownerId);
    },

    async remove(ownerId: number, code: string): Promise<Emote[]> {
      const [removed] = await db.delete(emotes).where(and(eq(emotes.ownerId, ownerId), eq(emotes.code, code))).returning({ file: emotes.file });
      if (!removed) throw notFound(MSG.emoteUnknown);
      await cache.invalidate([TAG]);
      await files.remove(removed.file);
      return list(ownerId);
    },

    /**
     * The emotes a line uses, checked for its sender (refused when one is not theirs to use): the codes to
     * store with the line and their images for its COMMENT; null when it uses none.
     */
    async usedBy(exec: Executor, text: string, sender: { userId: number; skin: SkinId }): Promise<{ codes: string[]; images: Record<string, string> } | null> {
      const written = emoteCodesIn(text);
      if (written.length === 0) return null;
      if (written.length > EMOTES.perLineMax) throw badRequest(fill(MSG.emotesTooManyInLine, { max: EMOTES.perLineMax }), 'text');
      const found = await known(written);
      const codes = written.filter((code) => found[code] !== undefined);
      if (codes.length === 0) return null;
      for (const code of codes) {
        const emote = found[code]!;
        if (await mayUse(exec, sender.userId, sender.skin, emote)) continue;
        const owner = (await deps.accounts.publicUsers([emote.ownerId])).get(emote.ownerId);
        throw forbidden(fill(MSG.emoteForSubscribers, { name: owner ? owner.fullname || owner.username : 'this broadcaster', code }));
      }
      return { codes, images: Object.fromEntries(codes.map((code) => [code, found[code]!.url])) };
    },

    /** The images of the codes stored with lines (history, replay); an emote removed since is left out. */
    async imagesOf(codes: readonly string[]): Promise<Record<string, string>> {
      if (codes.length === 0) return {};
      const found = await known([...new Set(codes)].sort());
      return Object.fromEntries(Object.entries(found).map(([code, emote]) => [code, emote.url]));
    },
  };
}

export type EmotesService = ReturnType<typeof createEmotes>;
