/** Demo data for a fresh installation: an admin, three broadcasters, five viewers, a welcome message. */
import { randomBytes } from 'node:crypto';
import type { Permission } from '../../common/permissions';
import type { Db } from '../platform/db/client';
import { hasAnyAccount, type AccountsService } from '../modules/accounts';
import type { SystemService } from '../modules/system';

/** The password of every demo account but the administrator's. */
export const DEMO_PASSWORD = 'limelight-demo';

interface DemoAccount {
  username: string;
  role?: 'admin';
  extraPermissions?: Permission[];
  termsAccepted?: boolean;
  note: string;
}

export const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    username: 'admin',
    role: 'admin',
    extraPermissions: ['GRANT PERMISSION', 'UPDATE STREAM_ANY', 'ALLOW REPORT_STREAM_HIDE', 'ALLOW REFERRAL_ACCESS'],
    note: 'administrator and moderator',
  },
  { username: 'broadcaster1', extraPermissions: ['CREATE STREAM_LIVE_PLUS14', 'CREATE STREAM_UPLOAD_PLUS14'], note: 'broadcaster (G, 14+)' },
  { username: 'broadcaster2', extraPermissions: ['ALLOW REFERRAL_ACCESS'], note: 'broadcaster with referral access' },
  { username: 'broadcaster3', note: 'broadcaster' },
  { username: 'viewer1', note: 'viewer' },
  { username: 'viewer2', note: 'viewer' },
  { username: 'viewer3', note: 'viewer' },
  { username: 'viewer4', note: 'viewer' },
  { username: 'viewer5', termsAccepted: false, note: 'viewer who has not accepted the terms yet' },
];

/**
 * Seeds only an installation without users; returns the accounts created with their passwords (empty
 * when it did nothing). The administrator's password is made now, at random, unless given: a published
 * one would let anyone in. Callers print it once.
 */
export type CreatedDemoAccount = DemoAccount & { password: string; userId: number };

export async function seedDemoData(
  deps: { db: Db; accounts: AccountsService; system: SystemService },
  options: { adminPassword?: string } = {},
): Promise<CreatedDemoAccount[]> {
  const hasUsers = () => hasAnyAccount(deps.db);
  if (await hasUsers()) return [];
  const adminPassword = options.adminPassword ?? randomBytes(12).toString('base64url');
  const created: CreatedDemoAccount[] = [];
  try {
    await deps.db.transaction(async (tx) => {
      for (const [index, account] of DEMO_ACCOUNTS.entries()) {
        const password = account.role === 'admin' ? adminPassword : DEMO_PASSWORD;
        const userId = await deps.accounts.createAccount(tx, {
          username: account.username,
          email: `${account.username}@demo.limelight.example`,
          password,
          birthdayIso: `199${index}-0${(index % 9) + 1}-15`,
          country: ['US', 'GB', 'CA', 'DE', 'FR', 'BR', 'JP', 'AU', 'IN'][index] ?? 'US',
          termsAccepted: account.termsAccepted ?? true,
          skin: 'limelight',
          role: account.role,
          extraPermissions: account.extraPermissions,
        });
        created.push({ ...account, password, userId });
      }
    });
  } catch (error) {
    // Another instance starting on the same database seeded first (the usernames are unique): nothing to do.
    if (await hasUsers()) return [];
    throw error;
  }
  await deps.system.addMessage({
    title: 'Welcome to this demo',
    content:
      '<p>This is a demo installation. Sign in as any demo account, follow a broadcaster and explore.</p>' +
      '<p>Broadcasters go live from OBS with the RTMP address and key on their dashboard.</p>',
    frequency: 'once',
    locale: 'en',
  });
  return created;
}
