/**
 * Accounts: sign-up, sign-in (password and social), sessions, recovery, settings and preferences.
 * It owns the users table; other modules read people through `accounts` (publicUsers, the `people`
 * read model, activeUserSql).
 */
import multipart from '@fastify/multipart';
import { installAuth } from '../../platform/http/auth';
import type { AppModule, ModuleContext } from '../../platform/module';
import { AVATAR_MAX_BYTES } from './avatar-image';
import { createAccountAdmin, type AccountAdmin } from './admin';
import { createClosureService, type ClosureService } from './closure-service';
import { registerRecoveryRoutes } from './recovery-routes';
import { createRecoveryService } from './recovery-service';
import { registerAccountRoutes } from './routes';
import { createAccountsService, type AccountsService, type ReferralCodes } from './service';
import { registerSettingsRoutes } from './settings-routes';
import { createSettingsService, type SettingsService } from './settings-service';
import { registerSocialLoginRoutes } from './social-login-routes';
import { createSocialLoginService } from './social-login-service';
import { createSocialProviders } from './social-providers';

export { BROADCAST_KEY_PATTERN, type AccountsService } from './service';
export type { SettingsService } from './settings-service';
export type { ClosureService } from './closure-service';
import './events';
export { activeUserSql, nameChangesSql, people } from './people';
export { hasAnyAccount } from './people';
export { createAccountAdmin } from './admin';
export { ensureInterests } from './interests';
export { hashPassword } from './passwords';
export { notificationReachSql } from './notification-reach';
export type { AccountAdmin, Actor, SuspensionTerms, UserRef } from './admin';

declare module '../../platform/module' {
  interface ModuleServices {
    accounts: AccountsService;
    settings: SettingsService;
    accountClosure: ClosureService;
    /** Permissions, roles and suspension, by the rules `npm run admin` shares (audited). */
    accountAdmin: AccountAdmin;
  }
  interface ModuleHooks {
    referralCodes: ReferralCodes;
    /** The session user's `env.next_withdraw_date`: when the user can next ask for a payout (decision 0061). */
    nextWithdrawDate: (userId: number) => Promise<Date | null>;
  }
}

export async function createAccountsModule(ctx: ModuleContext): Promise<AppModule> {
  const { db, config, platform } = ctx;
  const accounts = createAccountsService({
    db,
    sessions: platform.sessions,
    env: { streamViewerLikeLimit: config.streamViewerLikeLimit, ratingThreshold: config.ratingThreshold, kountRiskThreshold: config.depositRisk.threshold },
    signupsPerAddress: config.signupsPerAddress,
    referralCodes: ctx.hook('referralCodes', 'referrals'),
    nextWithdrawDate: ctx.hook('nextWithdrawDate', 'payouts'),
  });
  installAuth(ctx.app, accounts.resolveSession);
  const settings = createSettingsService({ db, files: ctx.files, linkSecret: await ctx.secret('email-links'), forgetUser: platform.sessions.forgetUser });
  const closure = createClosureService({ db, outbox: platform.outbox, files: ctx.files, forgetUser: platform.sessions.forgetUser });
  const recovery = createRecoveryService({ db, sessions: platform.sessions, mailer: platform.mailer, codeKey: await ctx.secret('recovery') });
  const socialLogin = createSocialLoginService({ db, accounts, sessions: platform.sessions, providers: createSocialProviders(config.oauth) });

  return {
    name: 'accounts',
    services: { accounts, settings, accountClosure: closure, accountAdmin: createAccountAdmin({ db, forgetUser: platform.sessions.forgetUser }) },
    async routes(app) {
      await app.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5 }, throwFileSizeLimit: true });
      registerAccountRoutes(app, { db, accounts, settings, sessions: platform.sessions, captcha: platform.captcha, csrfTokenFor: platform.csrfTokenFor });
      registerSettingsRoutes(app, { settings, accounts, closure, files: ctx.files });
      registerRecoveryRoutes(app, { recovery });
      registerSocialLoginRoutes(app, { db, sessions: platform.sessions, accounts, socialLogin, captcha: platform.captcha });
    },
    jobs: [
      { name: 'purge-expired-sessions', everyMs: 15 * 60_000, roles: ['worker'], run: platform.sessions.purgeExpired },
      { name: 'purge-spent-captchas', everyMs: 15 * 60_000, roles: ['worker'], run: platform.captcha.purgeSpent },
      { name: 'purge-social-sign-ins', everyMs: 15 * 60_000, roles: ['worker'], run: socialLogin.purgeExpired },
      {
        name: 'deleted-accounts',
        everyMs: 60 * 60_000,
        roles: ['worker'],
        // Archives past their 3 months go (the other modules' clean-up follows each deletion through the event outbox).
        run: async () => void (await closure.purgeArchives()),
      },
    ],
  };
}
