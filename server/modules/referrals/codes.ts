/** Referral links: each holder's two programme links (made on first use) and campaign links. */
import { randomBytes } from 'node:crypto';
import { and, asc, count, eq } from 'drizzle-orm';
import { MAX_REFERRAL_LINKS, REFERRAL_TYPES, type ReferralLink, type ReferralType } from '../../../common/api/referrals';
import { fill, MSG } from '../../../common/messages';
import { SKINS, type SkinId } from '../../../common/skins';
import type { Db } from '../../platform/db/client';
import { conflict, notFound } from '../../platform/http/errors';
import { referralCodes } from './tables';

export type ReferralCode = typeof referralCodes.$inferSelect;

/** Where a link points: the sign-up page of the skin, on the origin the person uses. */
export interface LinkView {
  skin: SkinId;
  origin: string;
}

/** 10 letters and digits: 50 bits, unguessable and short enough to read out. */
const newCode = () => randomBytes(10).toString('base64url').replace(/[-_]/g, '').slice(0, 10).toLowerCase().padEnd(10, '0');

export function linkOf(row: ReferralCode, view: LinkView): ReferralLink {
  const query = new URLSearchParams({ referralCode: row.code, ...(row.campaign ? { campaign: row.campaign } : {}) });
  return {
    referral_code_id: row.id,
    code: row.code,
    type: row.type,
    campaign: row.campaign,
    url: `${view.origin}${SKINS[view.skin].prefix}/user/sign-up?${query.toString()}`,
    created_at: row.createdAt.toISOString(),
  };
}

export function createReferralCodes({ db }: { db: Db }) {
  async function insert(ownerId: number, type: ReferralType, campaign: string | null) {
    const [row] = await db.insert(referralCodes).values({ ownerId, code: newCode(), type, campaign }).onConflictDoNothing().returning();
    return row ?? null;
  }

  async function all(ownerId: number): Promise<ReferralCode[]> {
    return db.select().from(referralCodes).where(eq(referralCodes.ownerId, ownerId)).orderBy(asc(referralCodes.id));
  }

  return {
    /** The holder's links, oldest first; the two programme links are made the first time. */
    async links(ownerId: number): Promise<ReferralCode[]> {
      const rows = await all(ownerId);
      if (REFERRAL_TYPES.every((type) => rows.some((row) => row.type === type && row.campaign === null))) return rows;
      for (const type of REFERRAL_TYPES) await insert(ownerId, type, null);
      return all(ownerId);
    },

    /** The holder's first link (for the session user). */
    async firstId(ownerId: number): Promise<number> {
      return (await this.links(ownerId))[0]!.id;
    },

    /** One of the holder's links; another's or none is 404. */
    async owned(ownerId: number, codeId: number): Promise<ReferralCode> {
      const [row] = await db.select().from(referralCodes).where(and(eq(referralCodes.id, codeId), eq(referralCodes.ownerId, ownerId)));
      if (!row) throw notFound(MSG.referralLinkUnknown);
      return row;
    },

    async create(ownerId: number, type: ReferralType, campaign: string | null): Promise<ReferralCode> {
      await this.links(ownerId);
      const [held] = await db.select({ n: count() }).from(referralCodes).where(eq(referralCodes.ownerId, ownerId));
      if ((held?.n ?? 0) >= MAX_REFERRAL_LINKS) throw conflict(fill(MSG.referralTooManyLinks, { max: MAX_REFERRAL_LINKS }));
      const row = await insert(ownerId, type, campaign);
      if (!row) throw conflict(MSG.referralLinkExists);
      return row;
    },

    async byCode(code: string): Promise<ReferralCode | null> {
      const [row] = await db.select().from(referralCodes).where(eq(referralCodes.code, code.toLowerCase()));
      return row ?? null;
    },
  };
}

export type ReferralCodes = ReturnType<typeof createReferralCodes>;
