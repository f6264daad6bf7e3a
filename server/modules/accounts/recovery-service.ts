/**
 * Password recovery (spec part 1 §2 Forgot password): a six-digit code mailed to the account's
 * address, stored only as an HMAC, good for 15 minutes and five wrong tries; then a new password.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, lt, or, sql } from 'drizzle-orm';
import { MSG, type Message } from '../../../common/messages';
import { SKINS, type SkinId } from '../../../common/skins';
import type { Db } from '../../platform/db/client';
import { badRequest, notFound, tooManyRequests } from '../../platform/http/errors';
import type { SessionStore } from '../../platform/http/sessions';
import type { Mailer } from '../../platform/mail/mailer';
import { createThrottle, LONGEST_BUCKET_WINDOW_MS, takeToken } from '../../platform/throttle';
import { forgiveLoginFailures } from './service';
import { maskEmail } from './mask-email';
import { hashPassword } from './passwords';
import { recoveryCodes, users } from './tables';

export const RECOVERY = {
  codeTtlMs: 15 * 60_000,
  maxFailedAttempts: 5,
  /** Codes mailed inside the window, per account and per client address. */
  sendsPerAccount: 5,
  /** Codes mailed per account in a day: with 5 tries a code, at most 50 guesses a day at a six-digit code. */
  codesPerDay: 10,
  sendsPerAddress: 30,
  /** Unknown usernames looked up inside the window per client address (slows down enumeration). */
  missesPerAddress: 30,
  // The throttle purge job keeps 15 minutes of events: a longer window would be cut short.
  windowMs: 15 * 60_000,
} as const;

type CodeState = 'valid' | 'missing' | 'wrong' | 'dead' | 'expired';

const REFUSAL: Record<Exclude<CodeState, 'valid'>, Message> = {
  missing: MSG.recoveryCodeInvalid,
  wrong: MSG.recoveryCodeInvalid,
  dead: MSG.recoveryTooManyTries,
  expired: MSG.recoveryCodeExpired,
};

interface Account {
  id: number;
  username: string;
  email: string;
}

function recoveryMail(account: Account, code: string, skin: SkinId) {
  const name = SKINS[skin].name;
  return {
    to: account.email,
    subject: `Your ${name} recovery code`,
    text: [
      `Hello ${account.username},`,
      '',
      `Your ${name} recovery code is:`,
      '',
      code,
      '',
      `It is valid for ${RECOVERY.codeTtlMs / 60_000} minutes.`,
      'If you did not ask to reset your password, ignore this email:',
      'your password stays as it is.',
    ].join('\n'),
  };
}

export function createRecoveryService(deps: {
  db: Db;
  sessions: SessionStore;
  mailer: Mailer;
  /** HMAC key of the stored codes: a leaked table row does not give the code away. */
  codeKey: string;
  now?: () => Date;
}) {
  const { db, sessions, mailer } = deps;
  const now = deps.now ?? (() => new Date());
  const throttle = createThrottle(db, { windowMs: RECOVERY.windowMs });
  const hashCode = (userId: number, code: string) =>
    createHmac('sha256', deps.codeKey).update(`${userId}:${code}`).digest('hex');

  /** The account a username or email names. Unknown names count against the caller's address. */
  async function findAccount(login: string, ip: string): Promise<Account> {
    const misses = [{ key: `recovery:miss:${ip}`, limit: RECOVERY.missesPerAddress }];
    if (await throttle.isLimited(misses)) throw tooManyRequests(MSG.recoveryTooManyRequests);
    const lowered = login.toLowerCase();
    const [row] = await db
      .select({ id: users.id, username: users.username, email: users.email })
      .from(users)
      .where(or(eq(sql`lower(${users.username})`, lowered), eq(sql`lower(${users.email})`, lowered)))
      .limit(1);
    if (!row) {
      await throttle.record(misses);
      throw notFound(MSG.recoveryUserNotFound);
    }
    return row;
  }

  function judge(row: typeof recoveryCodes.$inferSelect | undefined, code: string): CodeState {
    if (!row) return 'missing';
    if (row.failedAttempts >= RECOVERY.maxFailedAttempts) return 'dead';
    if (row.expiresAt.getTime() <= now().getTime()) return 'expired';
    const expected = Buffer.from(row.codeHash, 'hex');
    const given = Buffer.from(hashCode(row.userId, code), 'hex');
    return expected.length === given.length && timingSafeEqual(expected, given) ? 'valid' : 'wrong';
  }

  /** Refuses a code that is not the live one. A wrong try is counted and committed; the fifth ends the code. */
  async function verifyCode(userId: number, code: string): Promise<void> {
    const state = await db.transaction(async (tx) => {
      const [row] = await tx.select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId)).for('update');
      const judged = judge(row, code);
      if (judged !== 'wrong') return judged;
      const [counted] = await tx
        .update(recoveryCodes)
        .set({ failedAttempts: sql`${recoveryCodes.failedAttempts} + 1` })
        .where(eq(recoveryCodes.userId, userId))
        .returning({ failedAttempts: recoveryCodes.failedAttempts });
      return (counted?.failedAttempts ?? 0) >= RECOVERY.maxFailedAttempts ? 'dead' : 'wrong';
    });
    if (state !== 'valid') throw badRequest(REFUSAL[state], 'recoveryCode');
  }

  return {
    /** Step 2: where the code would go, masked. */
    async maskedEmail(login: string, ip: string): Promise<string> {
      return maskEmail((await findAccount(login, ip)).email);
    },

    /** Step 3: a new code replaces any earlier one (and its count of wrong tries), then it is mailed. */
    async sendCode(login: string, skin: SkinId, ip: string) {
      const account = await findAccount(login, ip);
      const keys = [
        { key: `recovery:send:user:${account.id}`, limit: RECOVERY.sendsPerAccount },
        { key: `recovery:send:ip:${ip}`, limit: RECOVERY.sendsPerAddress },
      ];
      if (await throttle.isLimited(keys)) throw tooManyRequests(MSG.recoveryTooManyRequests);
      if (!(await takeToken(db, `recovery:day:${account.id}`, { capacity: RECOVERY.codesPerDay, windowMs: LONGEST_BUCKET_WINDOW_MS }))) {
        throw tooManyRequests(MSG.recoveryTooManyRequests);
      }
      await throttle.record(keys);
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const fresh = {
        codeHash: hashCode(account.id, code),
        expiresAt: new Date(now().getTime() + RECOVERY.codeTtlMs),
        failedAttempts: 0,
        createdAt: now(),
      };
      await db
        .insert(recoveryCodes)
        .values({ userId: account.id, ...fresh })
        .onConflictDoUpdate({ target: recoveryCodes.userId, set: fresh });
      await mailer.send(recoveryMail(account, code, skin));
      return { email: maskEmail(account.email), expires_in_seconds: RECOVERY.codeTtlMs / 1000 };
    },

    async checkCode(login: string, code: string, ip: string): Promise<void> {
      const account = await findAccount(login, ip);
      await verifyCode(account.id, code);
    },

    /** Step 4: the new password replaces the old, the code is spent and every session of the user ends. */
    async resetPassword(login: string, code: string, password: string, ip: string): Promise<void> {
      const account = await findAccount(login, ip);
      await verifyCode(account.id, code);
      // Hashed before the transaction: argon2 takes a while, and PGlite runs one transaction at a time.
      const passwordHash = await hashPassword(password);
      await db.transaction(async (tx) => {
        // Spent only if it is still the live code: another request may have replaced or used it meanwhile.
        const spent = await tx
          .delete(recoveryCodes)
          .where(
            and(
              eq(recoveryCodes.userId, account.id),
              eq(recoveryCodes.codeHash, hashCode(account.id, code)),
              lt(recoveryCodes.failedAttempts, RECOVERY.maxFailedAttempts),
              gt(recoveryCodes.expiresAt, now()),
            ),
          )
          .returning({ userId: recoveryCodes.userId });
        if (spent.length === 0) throw badRequest(MSG.recoveryCodeInvalid, 'recoveryCode');
        await tx.update(users).set({ passwordHash }).where(eq(users.id, account.id));
        await sessions.destroyAllForUser(tx, account.id);
      });
      await sessions.forgetUser(account.id);
      await forgiveLoginFailures(db, account);
    },
  };
}

export type RecoveryService = ReturnType<typeof createRecoveryService>;
