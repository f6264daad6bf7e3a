/**
 * Pure rules of posts in the web app (spec part 1 §2 Post view, Upload; §5): the paid post's tip, what a
 * viewer may do with a post, the carousel's page, the upload form's checks and how media read.
 */
import type { Post, PostKind } from '../../../common/api/posts';
import { POST_SCHEDULE_MAX_DAYS } from '../../../common/rules/post-schedule';
import type { RATINGS } from '../../../common/api/streams';
import { fill, MSG } from '../../../common/messages';
import { postPrice } from '../../../common/rules/pay-wall';

type Rating = (typeof RATINGS)[number];

/**
 * The price a typed tip becomes (the server's rule, common/rules/pay-wall.ts postPrice): rounded up to
 * a multiple of 10 and held between 10 and 1000; 0 (or less, or nothing readable) is free.
 * 251 → 260, 3 → 10, 5000 → 1000.
 */
export function postTip(typed: number): number {
  return Number.isFinite(typed) ? postPrice(typed) : 0;
}

/** What the tip field shows once the person leaves it: the rounded price, or what they typed when it is no number. */
export function shownTip(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return '0';
  const typed = Number(trimmed);
  return Number.isFinite(typed) ? String(postTip(typed)) : text;
}

/** What to tell the person when the price they typed is not one a post can have (the rounded price differs), else null. */
export function priceRoundedNote(text: string): { typed: string; price: string } | null {
  const trimmed = text.trim();
  const shown = shownTip(text);
  return trimmed === '' || !Number.isFinite(Number(trimmed)) || Number(trimmed) === Number(shown) ? null : { typed: trimmed, price: shown };
}

/** The page a carousel shows after moving to `index`: past the last comes the first, before the first the last. */
export function wrapIndex(index: number, count: number): number {
  if (count <= 0) return 0;
  return ((index % count) + count) % count;
}

/** The post page's app path (the skin prefix is added where it is linked). */
export const postPath = (postId: number): string => `/post/post-view?id=${postId}`;

/** Whether the viewer (null: a guest) made the post. */
export const isOwnPost = (post: Pick<Post, 'user_id'>, viewerId: number | null): boolean => viewerId !== null && post.user_id === viewerId;

/** A paid post this viewer has not bought: the purchase confirmation stands where the media would be. */
export function needsPurchase(post: Pick<Post, 'user_id' | 'has_paid' | 'price' | 'media'>, viewerId: number | null): boolean {
  return !isOwnPost(post, viewerId) && !post.has_paid && post.price > 0 && post.media.length === 0;
}

/** The audience of a private post stays (the owner edits others' audience only). */
export const canEditAudience = (post: Pick<Post, 'user_id' | 'audience'>, viewerId: number | null): boolean =>
  isOwnPost(post, viewerId) && post.audience !== 'private';

/** Ratings the uploader may give a post: one upload permission each, 18+ only in an adult skin. */
const UPLOAD_PERMISSION: Record<Rating, string> = {
  G: 'CREATE STREAM_UPLOAD_G',
  PLUS_14: 'CREATE STREAM_UPLOAD_PLUS14',
  PLUS_18: 'CREATE STREAM_UPLOAD_PLUS18',
};

export function uploadRatings(perms: readonly string[], adultSkin: boolean): Rating[] {
  return (Object.keys(UPLOAD_PERMISSION) as Rating[]).filter((r) => perms.includes(UPLOAD_PERMISSION[r]) && (r !== 'PLUS_18' || adultSkin));
}

/** A `datetime-local` value as the contract's ISO moment (with offset), or null when empty or unreadable. */
export function expiryIso(value: string): string | null {
  if (value.trim() === '') return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** The expiry field's message: empty is fine, else it must be a moment after `now`. */
export function expiryError(value: string, now: Date = new Date()): string | undefined {
  if (value.trim() === '') return undefined;
  const iso = expiryIso(value);
  return iso !== null && new Date(iso).getTime() > now.getTime() ? undefined : MSG.expiryInFuture;
}

/**
 * The publication field's message: empty (now) is fine, else a moment after `now`, at most
 * POST_SCHEDULE_MAX_DAYS ahead, and before the expiry when there is one.
 */
export function publishAtError(value: string, expires: string, now: Date = new Date()): string | undefined {
  if (value.trim() === '') return undefined;
  const at = new Date(expiryIso(value) ?? NaN).getTime();
  if (!(at > now.getTime() && at <= now.getTime() + POST_SCHEDULE_MAX_DAYS * 24 * 3600_000)) return fill(MSG.publishAtFuture, { days: POST_SCHEDULE_MAX_DAYS });
  const until = expiryIso(expires);
  return until !== null && new Date(until).getTime() <= at ? MSG.expiryAfterPublication : undefined;
}

/** The `min` of the expiry field: now, to the minute, in local time as `datetime-local` wants it. */
export function localDateTimeValue(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** "3 images", "1 image", "1 video". */
export function mediaCountLabel(kind: PostKind, count: number): string {
  const noun = kind === 'video' ? 'video' : 'image';
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

