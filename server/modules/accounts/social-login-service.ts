/**
 * Social sign-in: OAuth flows in flight, verified identities and their links to accounts, tickets
 * for "More Info Needed", and the sign-up of a social account.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import type { z } from 'zod';
import { SOCIAL_CODES, SOCIAL_ERRORS, type SocialErrorCode, type SocialProvider, type socialRegister } from '../../../common/api/social-login';
import { MSG } from '../../../common/messages';
import { birthdayToIso } from '../../../common/rules/birthday';
import { DEFAULT_SKIN, isSkinId, type SkinId } from '../../../common/skins';
import type { Db, Executor } from '../../platform/db/client';
import { appError, badRequest, conflict, notFound } from '../../platform/http/errors';
import type { SessionStore } from '../../platform/http/sessions';
import { uniqueViolationToConflict, type AccountsService, type ClientMeta, type NewSession } from './service';
import type { SocialProfile, SocialProviders } from './social-providers';
import { oauthFlows, socialIdentities, socialTickets, users } from './tables';

export type SocialRegisterInput = z.output<(typeof socialRegister)['input']>;

const FLOW_TTL_MS = 10 * 60_000;
export const TICKET_TTL_MS = 30 * 60_000;

export type CallbackOutcome =
  | { kind: 'signed-in'; skin: SkinId; userId: number; session: NewSession }
  /** `binder` goes into the browser's cookie: the ticket signs in only the browser that holds it. */
  | { kind: 'ticket'; skin: SkinId; ticket: string; binder: string }
  /** `reason` is for the log only: it names what failed, never a token. */
  | { kind: 'failed'; skin: SkinId | null; code: SocialErrorCode; reason: string };

const hashTicket = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/** The ticket, held by the browser it was made for (its binder cookie): a ticket alone, sent to someone else, is nothing. */
const ticketOf = (provider: SocialProvider, ticket: string, binder: string | undefined) =>
  and(
    eq(socialTickets.ticketHash, hashTicket(ticket)),
    eq(socialTickets.provider, provider),
    eq(socialTickets.binderHash, hashTicket(binder ?? '')),
    binder === undefined || binder === '' ? sql`false` : undefined,
  );

/** What went wrong at the provider, for the log: openid-client's code or the OAuth error, no token. */
function failureReason(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  const { code, error: oauthError } = error as { code?: unknown; error?: unknown };
  return [error.name, code, oauthError].filter((part) => typeof part === 'string').join(' ');
}

/** A free username in the shape sign-up accepts, from the provider's name or the email's local part. */
function usernameCandidates(name: string | null, email: string | null): string[] {
  const clean = (text: string) => text.normalize('NFKD').replace(/[^A-Za-z0-9_.]/g, '').toLowerCase().slice(0, 24);
  const base = clean(name ?? '') || clean(email?.split('@')[0] ?? '');
  const padded = base.length >= 3 ? base : `${base}user`;
  return [padded, ...Array.from({ length: 5 }, () => `${padded}${randomInt(100, 10_000)}`)];
}

export function createSocialLoginService(deps: {
  db: Db;
  accounts: AccountsService;
  sessions: SessionStore;
  providers: SocialProviders;
  now?: () => Date;
}) {
  const { db, accounts, sessions, providers } = deps;
  const now = deps.now ?? (() => new Date());
  const later = (ms: number) => new Date(now().getTime() + ms);

  async function linkedUser(exec: Executor, provider: SocialProvider, subject: string) {
    const [row] = await exec
      .select({ userId: socialIdentities.userId })
      .from(socialIdentities)
      .where(and(eq(socialIdentities.provider, provider), eq(socialIdentities.subject, subject)));
    return row?.userId ?? null;
  }

  async function emailTaken(exec: Executor, email: string) {
    const [row] = await exec
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
      .limit(1);
    return row !== undefined;
  }

  async function usernameTaken(username: string) {
    const [row] = await db
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.username})`, username.toLowerCase()))
      .limit(1);
    return row !== undefined;
  }

  async function suggestUsername(name: string | null, email: string | null) {
    const candidates = usernameCandidates(name, email);
    for (const candidate of candidates) if (!(await usernameTaken(candidate))) return candidate;
    return candidates.at(-1) ?? '';
  }

  /** Signs in the account linked to an identity, unless it is suspended. */
  async function signIn(userId: number, meta: ClientMeta): Promise<NewSession | null> {
    const principal = await accounts.loadPrincipal(userId);
    if (!principal || principal.suspended) return null;
    const created = await sessions.create(db, userId, true, meta);
    return { ...created, remember: true };
  }

  /** The verified identity ends in a session, a refusal, or a ticket for "More Info Needed". */
  async function afterVerification(provider: SocialProvider, skin: SkinId, profile: SocialProfile, meta: ClientMeta): Promise<CallbackOutcome> {
    const failed = (code: SocialErrorCode, reason: string): CallbackOutcome => ({ kind: 'failed', skin, code, reason });
    const userId = await linkedUser(db, provider, profile.subject);
    if (userId !== null) {
      const session = await signIn(userId, meta);
      return session ? { kind: 'signed-in', skin, userId, session } : failed(SOCIAL_ERRORS.failed, 'linked account suspended');
    }
    if (!profile.email) {
      return failed(provider === 'facebook' ? SOCIAL_ERRORS.facebookEmailScope : SOCIAL_ERRORS.failed, 'no verified email');
    }
    if (await emailTaken(db, profile.email)) return failed(SOCIAL_ERRORS.emailExists, 'email belongs to an account');
    const ticket = randomBytes(32).toString('base64url');
    const binder = randomBytes(32).toString('base64url');
    await db.insert(socialTickets).values({
      ticketHash: hashTicket(ticket),
      provider,
      subject: profile.subject,
      email: profile.email,
      name: profile.name,
      binderHash: hashTicket(binder),
      expiresAt: later(TICKET_TTL_MS),
    });
    return { kind: 'ticket', skin, ticket, binder };
  }

  return {
    offers: (provider: SocialProvider) => providers[provider] !== undefined,

    responseMode: (provider: SocialProvider) => providers[provider]?.responseMode ?? 'query',

    /** Starts a flow: its state, nonce and PKCE verifier wait in the database for the callback. */
    async begin(provider: SocialProvider, skin: SkinId, redirectUri: string) {
      const client = providers[provider];
      if (!client) throw notFound();
      const checks = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
      const url = await client.authorizationUrl(redirectUri, checks);
      await db.insert(oauthFlows).values({ ...checks, provider, skin, expiresAt: later(FLOW_TTL_MS) });
      return { state: checks.state, url };
    },

    /**
     * The callback: the flow of `state` is taken (a state works once), the browser must be the one
     * that started it (`boundState`, from its cookie), then the provider's answer is redeemed.
     */
    async complete(
      provider: SocialProvider,
      callbackUrl: URL,
      boundState: string | undefined,
      meta: ClientMeta,
    ): Promise<CallbackOutcome> {
      const state = callbackUrl.searchParams.get('state');
      const client = providers[provider];
      const [flow] =
        state && client
          ? await db
              .delete(oauthFlows)
              .where(and(eq(oauthFlows.state, state), eq(oauthFlows.provider, provider)))
              .returning()
          : [];
      if (!client || !flow || flow.expiresAt <= now()) {
        return { kind: 'failed', skin: null, code: SOCIAL_ERRORS.failed, reason: 'unknown or expired state' };
      }
      const skin = isSkinId(flow.skin) ? flow.skin : DEFAULT_SKIN;
      if (boundState !== flow.state) {
        return { kind: 'failed', skin, code: SOCIAL_ERRORS.failed, reason: 'flow started in another browser' };
      }
      let profile: SocialProfile;
      try {
        profile = await client.profile(callbackUrl, flow);
      } catch (error) {
        return { kind: 'failed', skin, code: SOCIAL_ERRORS.failed, reason: failureReason(error) };
      }
      return afterVerification(provider, skin, profile, meta);
    },

    /**
     * user-social-login: a ticket whose identity got linked since signs in (and is spent); otherwise
     * the 409 that opens "More Info Needed", or the one that says the email already has an account.
     */
    async loginWithTicket(provider: SocialProvider, ticket: string, binder: string | undefined, meta: ClientMeta) {
      const ticketHash = hashTicket(ticket);
      const [row] = await db
        .select()
        .from(socialTickets)
        .where(and(ticketOf(provider, ticket, binder), gt(socialTickets.expiresAt, now())));
      if (!row) throw badRequest(MSG.socialFailed, 'token');
      const userId = await linkedUser(db, provider, row.subject);
      if (userId !== null) {
        const spent = await db.delete(socialTickets).where(eq(socialTickets.ticketHash, ticketHash)).returning();
        const session = spent.length === 1 ? await signIn(userId, meta) : null;
        if (!session) throw badRequest(MSG.socialFailed, 'token');
        return { userId, session };
      }
      if (!row.email || (await emailTaken(db, row.email))) {
        throw appError(SOCIAL_CODES.emailExists);
      }
      throw appError(SOCIAL_CODES.create, MSG.moreInfoNeeded, {
        email: row.email,
        suggested_username: await suggestUsername(row.name, row.email),
      });
    },

    /** "More Info Needed" sent: the account, its link and its session in one transaction; the ticket is spent. */
    async register(input: SocialRegisterInput, binder: string | undefined, skin: SkinId, meta: ClientMeta) {
      const provider = input.social_media_type;
      try {
        return await db.transaction(async (tx) => {
          const [ticket] = await tx
            .delete(socialTickets)
            .where(
              and(ticketOf(provider, input.social_media_token, binder), gt(socialTickets.expiresAt, now())),
            )
            .returning();
          if (!ticket?.email) throw badRequest(MSG.socialFailed, 'social_media_token');
          if ((await linkedUser(tx, provider, ticket.subject)) !== null) throw conflict(MSG.socialFailed, 'social_media_token');
          if (await emailTaken(tx, ticket.email)) throw appError(SOCIAL_CODES.emailExists);
          const userId = await accounts.createAccount(tx, {
            username: input.username,
            email: ticket.email,
            fullname: ticket.name ?? undefined,
            birthdayIso: birthdayToIso(input.birthday),
            country: input.country,
            termsAccepted: true,
            skin,
          });
          await tx.insert(socialIdentities).values({ provider, subject: ticket.subject, userId, email: ticket.email });
          // The identity is linked now: any other ticket for it is void.
          await tx.delete(socialTickets).where(and(eq(socialTickets.provider, provider), eq(socialTickets.subject, ticket.subject)));
          const created = await sessions.create(tx, userId, true, meta);
          return { userId, session: { ...created, remember: true } };
        });
      } catch (error) {
        return uniqueViolationToConflict(error);
      }
    },

    async purgeExpired() {
      await db.delete(oauthFlows).where(lt(oauthFlows.expiresAt, now()));
      await db.delete(socialTickets).where(lt(socialTickets.expiresAt, now()));
    },
  };
}

export type SocialLoginService = ReturnType<typeof createSocialLoginService>;
