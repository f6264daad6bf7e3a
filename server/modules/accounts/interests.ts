/** The interest list offered at sign-up (reference data, present in every installation). */
import type { Db } from '../../platform/db/client';
import { interests } from './tables';

export const INTERESTS = [
  'Art', 'Beauty', 'Books', 'Comedy', 'Cooking', 'Dance', 'Education', 'Fashion', 'Fitness', 'Gaming',
  'Lifestyle', 'Movies', 'Music', 'Outdoors', 'Pets', 'Photography', 'Sports', 'Talk Shows', 'Technology', 'Travel',
] as const;

export async function ensureInterests(db: Db): Promise<void> {
  await db.insert(interests).values(INTERESTS.map((name) => ({ name }))).onConflictDoNothing();
}
