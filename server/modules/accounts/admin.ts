/** Account administration: permissions and roles (used by `npm run admin` and test factories). */
import { and, eq, sql } from 'drizzle-orm';
import type { Permission, Role } from '../../../common/permissions';
import type { Db } from '../../platform/db/client';
import { fill, MSG } from '../../../common/messages';
import { notFound } from '../../platform/http/errors';
import { userPermissions, users } from './tables';

export function createAccountAdmin(deps: { db: Db }) {
  const { db } = deps;

  async function idOf(username: string): Promise<number> {
    const [row] = await db.select({ id: users.id }).from(users).where(eq(sql`lower(${users.username})`, username.toLowerCase()));
    if (!row) throw notFound(fill(MSG.noUserNamed, { username }));
    return row.id;
  }

  return {
    async grant(username: string, perm: Permission) {
      await db.insert(userPermissions).values({ userId: await idOf(username), perm }).onConflictDoNothing();
    },
    async revoke(username: string, perm: Permission) {
      await db.delete(userPermissions).where(and(eq(userPermissions.userId, await idOf(username)), eq(userPermissions.perm, perm)));
    },
    async setRole(username: string, role: Role) {
      await db.update(users).set({ role }).where(eq(users.id, await idOf(username)));
    },
  };
}
