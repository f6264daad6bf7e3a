/**
 * Managing offers: administrators manage every offer, advertisers (CREATE AD_OFFER) their own. A creative
 * comes from the manager's finished upload; replacing it removes the old folder once the row points at
 * the new one. Pausing takes it off every stream for a while; withdrawing (campaign.ts) for good, its
 * counted activity still paid. Its campaign balance is funded and given back in campaign.ts.
 */
import { and, count, desc, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import type { AdActivity, AdType, ManagedOffer } from '../../../common/api/ads';
import { MSG } from '../../../common/messages';
import { mayManageOffers } from '../../../common/permissions';
import type { Db } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import { badRequest, forbidden, notFound } from '../../platform/http/errors';
import type { FileStore } from '../../platform/storage/storage';
import type { ResumableUploads } from '../../platform/uploads/resumable';
import type { AccountsService } from '../accounts';
import type { MediaAddresses, Viewer } from '../streams';
import { CREATIVE_FILES, pictureOf, removeCreative, storeCreative, type StoredCreative } from './creatives';
import { adActivity, adOffers } from './tables';

export type OfferRow = typeof adOffers.$inferSelect;

interface OfferFields {
  name?: string;
  short_description?: string;
  description?: string;
  rating?: OfferRow['rating'];
  ad_link?: string;
  dim_x?: number;
  dim_y?: number;
  commission?: { impression: number; click: number; complete: number };
  paused?: boolean;
}

/** What a new offer needs besides its creative. */
export type NewOffer = OfferFields & Required<Pick<OfferFields, 'name' | 'short_description' | 'rating' | 'ad_link'>> & { type: AdType };

export const commissionOf = (row: OfferRow) => ({ impression: row.commissionImpression, click: row.commissionClick, complete: row.commissionComplete });

export const commissionFor = (row: OfferRow, activity: AdActivity) => commissionOf(row)[activity];

/** Where a viewer fetches the offer's picture and (a pre-roll's) video, signed for them. */
export function creativeAddresses(addresses: MediaAddresses, viewer: Viewer, row: OfferRow) {
  const sign = addresses(viewer);
  return { thumbnail: sign(row.id, pictureOf(row.type)), video: row.type === 'PREROLL' ? sign(row.id, CREATIVE_FILES.video) : null };
}

export function createOffers(deps: { db: Db; files: FileStore; uploads: ResumableUploads; accounts: AccountsService; addresses: MediaAddresses }) {
  const { db, files, uploads } = deps;

  function assertManager(principal: Principal) {
    if (!mayManageOffers(principal.role, principal.perms)) throw forbidden(MSG.adsOfferPermissionNeeded);
  }

  /** What the manager may see: an administrator every offer, an advertiser their own. */
  const managedBy = (principal: Principal): SQL | undefined =>
    principal.role === 'admin' ? undefined : eq(adOffers.ownerId, principal.userId);

  async function managedOffer(principal: Principal, id: number): Promise<OfferRow> {
    assertManager(principal);
    const [row] = await db.select().from(adOffers).where(and(eq(adOffers.id, id), isNull(adOffers.deletedAt), managedBy(principal)));
    if (!row) throw notFound(MSG.adsOfferUnknown);
    return row;
  }

  /** The creative of the manager's finished upload, for an offer of this type; the upload goes either way. */
  async function creativeFrom(principal: Principal, uploadId: string, type: AdType) {
    const upload = await uploads.finished(uploadId, principal.userId);
    if (!upload) throw notFound(MSG.uploadUnknown);
    try {
      return await upload.withLocalFile((file) => storeCreative(files, file, type));
    } finally {
      await uploads.remove(upload.id);
    }
  }

  async function countedOf(ids: number[]) {
    const counted = new Map<number, Record<AdActivity, number>>(ids.map((id) => [id, { impression: 0, click: 0, complete: 0 }]));
    if (ids.length === 0) return counted;
    const rows = await db.select({ offerId: adActivity.offerId, activity: adActivity.activity, n: count() }).from(adActivity)
      .where(inArray(adActivity.offerId, ids)).groupBy(adActivity.offerId, adActivity.activity);
    for (const row of rows) counted.get(row.offerId)![row.activity] = row.n;
    return counted;
  }

  async function toManaged(rows: OfferRow[], viewer: Viewer): Promise<ManagedOffer[]> {
    const [owners, counted] = await Promise.all([deps.accounts.publicUsers([...new Set(rows.map((r) => r.ownerId))]), countedOf(rows.map((r) => r.id))]);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      short_description: row.shortDescription,
      description: row.description,
      type: row.type,
      rating: row.rating,
      ad_link: row.adLink,
      dim_x: row.dimX,
      dim_y: row.dimY,
      commission: commissionOf(row),
      ...creativeAddresses(deps.addresses, viewer, row),
      duration_seconds: row.durationSeconds,
      owner: { user_id: row.ownerId, username: owners.get(row.ownerId)?.username ?? '' },
      counted: counted.get(row.id)!,
      balance: row.budget,
      paused: row.pausedAt !== null,
      created_at: row.createdAt.toISOString(),
    }));
  }

  function assertMayCreate(principal: Principal, input: NewOffer) {
    assertManager(principal);
    if (input.rating === 'PLUS_18' && principal.role !== 'admin' && !principal.perms.includes('CREATE STREAM_UPLOAD_PLUS18')) {
      throw forbidden(MSG.uploadPermissionNeeded);
    }
  }

  /** The offer's row with its stored creative; the creative goes if the row cannot be written. */
  async function insertOffer(principal: Principal, input: NewOffer, creative: StoredCreative): Promise<OfferRow> {
    try {
      const [row] = await db.insert(adOffers).values({
        ownerId: principal.userId,
        type: input.type,
        name: input.name,
        shortDescription: input.short_description,
        rating: input.rating,
        adLink: input.ad_link,
        ...fieldsOf(input),
        dimX: input.dim_x ?? creative.width,
        dimY: input.dim_y ?? creative.height,
        creativeKey: creative.key,
        durationSeconds: creative.durationSeconds,
      }).returning();
      return row!;
    } catch (error) {
      await removeCreative(files, creative.key);
      throw error;
    }
  }

  const fieldsOf = (input: OfferFields) => ({
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.short_description !== undefined ? { shortDescription: input.short_description } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.rating !== undefined ? { rating: input.rating } : {}),
    ...(input.ad_link !== undefined ? { adLink: input.ad_link } : {}),
    ...(input.dim_x !== undefined ? { dimX: input.dim_x } : {}),
    ...(input.dim_y !== undefined ? { dimY: input.dim_y } : {}),
    ...(input.commission
      ? { commissionImpression: input.commission.impression, commissionClick: input.commission.click, commissionComplete: input.commission.complete }
      : {}),
    ...(input.paused !== undefined ? { pausedAt: input.paused ? new Date() : null } : {}),
  });

  return {
    /** The offer the caller manages, not withdrawn; 404 otherwise. */
    managed: managedOffer,

    /** One managed offer as its manager sees it. */
    async one(principal: Principal, viewer: Viewer, id: number): Promise<ManagedOffer> {
      return (await toManaged([await managedOffer(principal, id)], viewer))[0]!;
    },

    async list(principal: Principal, viewer: Viewer, offset: number, limit: number) {
      assertManager(principal);
      const where = and(isNull(adOffers.deletedAt), managedBy(principal));
      const [rows, [total]] = await Promise.all([
        db.select().from(adOffers).where(where).orderBy(desc(adOffers.id)).offset(offset).limit(limit),
        db.select({ n: count() }).from(adOffers).where(where),
      ]);
      return { offers: await toManaged(rows, viewer), total: total?.n ?? 0 };
    },

    async create(principal: Principal, viewer: Viewer, input: NewOffer & { upload_id: string }) {
      assertMayCreate(principal, input);
      const row = await insertOffer(principal, input, await creativeFrom(principal, input.upload_id, input.type));
      return (await toManaged([row], viewer))[0]!;
    },

    /** A banner or chat offer from a picture the server holds (the demo's), as create makes one from an upload. */
    async createFromPicture(principal: Principal, input: NewOffer, picture: Buffer): Promise<number> {
      assertMayCreate(principal, input);
      return (await insertOffer(principal, input, await storeCreative(files, picture, input.type))).id;
    },

    async update(principal: Principal, viewer: Viewer, input: OfferFields & { id: number; upload_id?: string }) {
      const before = await managedOffer(principal, input.id);
      if (input.rating === 'PLUS_18' && before.rating !== 'PLUS_18' && principal.role !== 'admin' && !principal.perms.includes('CREATE STREAM_UPLOAD_PLUS18')) {
        throw forbidden(MSG.uploadPermissionNeeded);
      }
      const changes = fieldsOf(input);
      if (Object.keys(changes).length === 0 && input.upload_id === undefined) throw badRequest(MSG.nothingToUpdate);
      const creative = input.upload_id === undefined ? null : await creativeFrom(principal, input.upload_id, before.type);
      const [row] = await db.update(adOffers).set({
        ...changes,
        ...(creative
          ? { creativeKey: creative.key, durationSeconds: creative.durationSeconds, dimX: input.dim_x ?? creative.width, dimY: input.dim_y ?? creative.height }
          : {}),
        updatedAt: new Date(),
      }).where(eq(adOffers.id, before.id)).returning();
      if (creative) await removeCreative(files, before.creativeKey);
      return (await toManaged([row!], viewer))[0]!;
    },
  };
}

export type Offers = ReturnType<typeof createOffers>;
