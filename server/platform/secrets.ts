/** Secrets generated once per installation and shared by every instance through the database. */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from './db/client';
import { appSecrets } from './db/platform-tables';

export function loadSecret(db: Db, name: string): Promise<string> {
  return loadGeneratedSecret(db, name, () => randomBytes(32).toString('base64url'));
}

/** The secret named so, made by `make` the first time any instance asks (the first insert wins). */
export async function loadGeneratedSecret(db: Db, name: string, make: () => string): Promise<string> {
  await db.insert(appSecrets).values({ name, value: make() }).onConflictDoNothing();
  const [row] = await db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.name, name));
  if (!row) throw new Error(`secret ${name} missing after insert`);
  return row.value;
}
