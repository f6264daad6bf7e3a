/** One zod-validated configuration read from the environment, with embedded defaults (README "Configuration"). */
import path from 'node:path';
import { z } from 'zod';
import { numeric } from '../common/api/fields';
import { REFERRAL_TYPES, type ReferralType } from '../common/api/referrals';
import { SKIN_IDS, type SkinId } from '../common/skins';
import { TRANSFER_KINDS, type TransferKind } from '../common/rules/transfer-kinds';
import { btcPaySettings, payPalSettings } from './modules/wallet';
import { parseLiveRenditions } from './platform/media/live-renditions';
import { taxKeyFrom } from './modules/statements';

const isOn = (value: string) => ['on', 'true', '1'].includes(value);

const onOff = (fallback: boolean) =>
  z
    .enum(['on', 'off', 'true', 'false', '1', '0'])
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'on' || v === 'true' || v === '1'));

/** Platform fee percent per transfer kind when PLATFORM_FEES does not name it (video calls are free: spec part 2 policy). */
export const DEFAULT_PLATFORM_FEES: Readonly<Partial<Record<TransferKind, number>>> = { tip: 20, subscription: 20, post_purchase: 20, meeting_fee: 0, toy_tip: 20, show_minute: 20, message_unlock: 20 };

/** Ad units of the built-in offers network in every skin: pre-roll 1, banner 2, chat 3 (0 turns a placement off). */
export const DEFAULT_AD_UNITS = { preroll: 1, banner: 2, chat: 3 } as const;
export type AdUnits = { preroll: number; banner: number; chat: number };

/** `{"afterdark":{"preroll":0}}`: per skin, the ad unit ids that differ from DEFAULT_AD_UNITS. */
const adUnits = z.string().default('{}').transform((value, ctx) => {
  const unit = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
  const schema = z.partialRecord(z.enum(SKIN_IDS), z.strictObject({ preroll: unit, banner: unit, chat: unit }).partial());
  try {
    const parsed = schema.safeParse(JSON.parse(value));
    if (parsed.success) return Object.fromEntries(SKIN_IDS.map((skin) => [skin, { ...DEFAULT_AD_UNITS, ...parsed.data[skin] }])) as Record<SkinId, AdUnits>;
  } catch {
    // reported below
  }
  ctx.addIssue({ code: 'custom', message: `must be JSON like {"afterdark":{"preroll":1,"banner":2,"chat":0}} (skins: ${SKIN_IDS.join(', ')})` });
  return z.NEVER;
});

/** "tip=20,meeting_fee=0": whole percents 0–100 per ledger kind; kinds not named keep their default (else 0 %). */
const platformFees = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const fees: Partial<Record<TransferKind, number>> = { ...DEFAULT_PLATFORM_FEES };
    for (const item of (value ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '')) {
      const match = /^([a-z_]+)=(\d{1,3})$/.exec(item);
      const kind = match?.[1] as TransferKind | undefined;
      const pct = Number(match?.[2]);
      if (!match || !TRANSFER_KINDS.includes(kind!) || pct > 100) {
        ctx.addIssue({ code: 'custom', message: `"${item}" is not kind=percent (kinds: ${TRANSFER_KINDS.join(', ')}; 0–100)` });
        return z.NEVER;
      }
      fees[kind!] = pct;
    }
    return fees;
  });

/**
 * Each referral programme's rate, its share of the platform fee taken on a referred person's payments:
 * "AGENT=0.25,INFLUENCER=0.5" (shown × 100 %). At most 1: a commission never exceeds the fee it is paid from.
 */
const referralRates = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const rates: Record<ReferralType, number> = { AGENT: 0.25, INFLUENCER: 0.5 };
    for (const item of (value ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '')) {
      const match = /^([A-Z]+)=(0(\.\d{1,4})?|1(\.0+)?)$/.exec(item);
      const type = match?.[1] as ReferralType | undefined;
      if (!match || !REFERRAL_TYPES.includes(type!)) {
        ctx.addIssue({ code: 'custom', message: `"${item}" is not PROGRAMME=rate (programmes: ${REFERRAL_TYPES.join(', ')}; a rate from 0 to 1)` });
        return z.NEVER;
      }
      rates[type!] = Number(match[2]);
    }
    return rates;
  });

/** "source,720p,480p,360p": the live renditions (decision 0070); empty: each stream copied as it comes. */
const liveRenditions = z
  .string()
  .optional()
  .transform((value, ctx) => {
    try {
      return parseLiveRenditions(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `${(error as Error).message}; e.g. source,720p,480p,360p` });
      return z.NEVER;
    }
  });

const iceServers = z.array(z.strictObject({
  urls: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  username: z.string().optional(),
  credential: z.string().optional(),
}));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  ROLE: z.enum(['all', 'api', 'media', 'worker']).default('all'),
  HOST: z.string().default('0.0.0.0'),
  PORT: numeric(z.number().int().min(0).max(65535).default(3000)),
  RTMP_PORT: numeric(z.number().int().min(0).max(65535).default(1935)),
  /** How long a dropped encoder may take to reconnect and continue the same broadcast. */
  RTMP_GRACE_MS: numeric(z.number().int().min(0).max(600_000).default(15_000)),
  /**
   * A private or group show's billing period (decision 0085): a minute. Shorter only where time is
   * simulated (journeys, benchmarks); every price on the pages is per minute whatever it is.
   */
  SHOW_MINUTE_MS: numeric(z.number().int().min(1_000).max(600_000).default(60_000)),
  /**
   * Life of a signed playback address: short, so a copied address soon stops working; behind the edge
   * cache it is how long a ban or an audience change may take to reach a viewer the edge serves
   * (decision 0066). The player joins again for a new one when it is answered 403.
   */
  /**
   * Renditions of every live broadcast besides (or instead of) the encoder's own picture, scaled and
   * encoded by the media node (decision 0070): `source,720p,480p,360p`. Unset: the stream is copied.
   */
  LIVE_RENDITIONS: liveRenditions,
  PLAYBACK_TTL_SECONDS: numeric(z.number().int().min(1).max(86_400).default(120)),
  /**
   * The playback secret (tokens, seals), shared with the edge cache, which checks tokens itself
   * (decision 0066); unset: made once and kept in the database (the edge then cannot check them).
   */
  PLAYBACK_SECRET: z.string().min(32).max(200).regex(/^[\x21-\x7e]+$/, 'printable characters, no spaces').optional(),
  /** Life of a read every visitor gets alike (listings, channels) in an instance's read cache; 0 turns it off (decision 0026). */
  READ_CACHE_MS: numeric(z.number().int().min(0).max(60_000).default(1000)),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.url().optional(),
  DATABASE_POOL_SIZE: numeric(z.number().int().min(1).max(200).default(10)),
  /** PostgreSQL: a statement running, or waiting for a lock, longer than this fails and its request answers 503. */
  DATABASE_STATEMENT_TIMEOUT_MS: numeric(z.number().int().min(100).max(3_600_000).default(30_000)),
  DATABASE_LOCK_TIMEOUT_MS: numeric(z.number().int().min(10).max(3_600_000).default(3_000)),
  REDIS_URL: z.url().optional(),
  /** The prefix of every Redis channel and key; unset: one made per installation (its database), so deployments sharing a Redis do not hear each other. */
  REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'letters, digits and _ . : - (at most 64)').optional(),
  PUBLIC_URL: z.url().optional(),
  RTMP_PUBLIC_URL: z.string().optional(),
  SMTP_URL: z.url().optional(),
  /** Sender of every mail; SMTP_URL query options go to nodemailer (e.g. ?ignoreTLS=true). */
  MAIL_FROM: z.string().min(3).max(200).default('Limelight <no-reply@limelight.local>'),
  CAPTCHA: z.enum(['altcha', 'off']).default('altcha'),
  /** Unset: `sandbox` on the embedded evaluation setup, else `none` (deposits say "not available"). `stripe`: cards through Stripe Checkout (decision 0055). */
  PAYMENTS: z.enum(['sandbox', 'stripe', 'none']).optional(),
  /** Stripe's secret key (`sk_…`) and webhook signing secret (`whsec_…`): server only, never logged. */
  STRIPE_SECRET_KEY: z.string().trim().regex(/^(sk|rk)_[A-Za-z0-9_]+$/, 'a secret or restricted key (sk_… or rk_…)').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().trim().regex(/^whsec_[A-Za-z0-9_+/=]+$/, 'a webhook signing secret (whsec_…)').optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().trim().regex(/^pk_[A-Za-z0-9_]+$/, 'a publishable key (pk_…)').optional(),
  /**
   * Payouts through Stripe Connect (decision 0063): the signing secrets of the endpoints posting to
   * /api/payouts/webhooks/stripe — the Connect endpoint (`account.updated`) and the account endpoint
   * (`transfer.*`) — separated by commas. Set with PAYMENTS=stripe: Stripe is offered as a payout method.
   */
  STRIPE_CONNECT_WEBHOOK_SECRET: z.string().trim().regex(/^whsec_[A-Za-z0-9_+/=]+(\s*,\s*whsec_[A-Za-z0-9_+/=]+)*$/, 'webhook signing secrets (whsec_…), separated by commas').optional(),
  /** Another Stripe API host (a local stand-in for tests and journeys); unset: Stripe's own. */
  STRIPE_API_BASE: z.url().optional(),
  /** The sandbox takes test cards that mint coins: in production it runs only when this says so. */
  ALLOW_SANDBOX_PAYMENTS: onOff(false),
  /** Unset: a readable outbox on the embedded evaluation setup only; `on` elsewhere too (never in production). */
  MAIL_OUTBOX: z.enum(['on', 'off', 'true', 'false', '1', '0']).optional(),
  /** Toy-device access (decision 0020): a virtual toy in the host's page, or Lovense's developer API and browser SDK. */
  TOYS: z.enum(['simulated', 'lovense']).default('simulated'),
  /** Lovense's developer token (TOYS=lovense): used on the server only, never sent to a browser, never logged. */
  LOVENSE_DEVELOPER_TOKEN: z.string().trim().min(8).optional(),
  /** The "Website Name" of the Lovense developer dashboard: the browser SDK's `platform`. */
  LOVENSE_PLATFORM: z.string().trim().min(1).max(200).optional(),
  /** Lovense's developer API (getToken, getQrCode); a local fake in tests. */
  LOVENSE_API_URL: z.url().default('https://api.lovense-api.com'),
  /** Where browsers load Lovense's Basic SDK from; its origin is allowed by the content security policy. */
  LOVENSE_SDK_URL: z.url().default('https://api.lovense-api.com/basic-sdk/core.min.js'),
  TRANSLATE_URL: z.url().optional(),
  GOOGLE_CLIENT_ID: z.string().trim().optional(),
  GOOGLE_CLIENT_SECRET: z.string().trim().optional(),
  GOOGLE_ISSUER: z.url().default('https://accounts.google.com'),
  APPLE_CLIENT_ID: z.string().trim().optional(),
  /** Apple's client secret is a JWT signed with the team's key (at most 6 months valid): renew it. */
  APPLE_CLIENT_SECRET: z.string().trim().optional(),
  APPLE_ISSUER: z.url().default('https://appleid.apple.com'),
  FACEBOOK_CLIENT_ID: z.string().trim().optional(),
  FACEBOOK_CLIENT_SECRET: z.string().trim().optional(),
  FACEBOOK_AUTH_URL: z.url().default('https://www.facebook.com/v19.0/dialog/oauth'),
  FACEBOOK_TOKEN_URL: z.url().default('https://graph.facebook.com/v19.0/oauth/access_token'),
  FACEBOOK_GRAPH_URL: z.url().default('https://graph.facebook.com/v19.0'),
  /** Unset: on for the embedded evaluation setup only; demo accounts never reach a database nobody asked them for. */
  SEED_DEMO: z.enum(['on', 'off', 'true', 'false', '1', '0']).optional(),
  /** Unset: /metrics answers callers on this machine only. Set: it answers `Authorization: Bearer <token>` from anywhere. */
  METRICS_TOKEN: z.string().min(16).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Served static web app; unset in API-only tests. */
  WEB_DIST: z.string().default('./dist/web'),
  /**
   * Which X-Forwarded-For hops to believe: `off`; `on` (the one proxy in front); a number of proxies;
   * or the proxies' addresses and CIDR ranges, comma-separated. Never the left-most value a client wrote.
   */
  TRUST_PROXY: z.string().trim().default('off').transform((value, ctx) => {
    if (['off', 'false', '0', ''].includes(value)) return false as const;
    if (['on', 'true'].includes(value)) return 1;
    if (/^\d{1,2}$/.test(value)) return Number(value);
    const addresses = value.split(',').map((part) => part.trim()).filter((part) => part !== '');
    if (addresses.every((part) => /^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(part))) return addresses;
    ctx.addIssue({ code: 'custom', message: 'off, on, a number of proxies, or their addresses (comma-separated)' });
    return z.NEVER;
  }),
  STREAM_VIEWER_LIKE_LIMIT: numeric(z.number().int().positive().default(100)),
  RATING_THRESHOLD: numeric(z.number().min(0).max(5).default(3)),
  /**
   * Deposit risk (decision 0058): an attempt whose risk score (0–100) is at or above this is refused
   * (the session user's `env.kount_risk_threshold`); 101 refuses on limits only.
   */
  KOUNT_RISK_THRESHOLD: numeric(z.number().int().min(1).max(101).default(80)),
  /** The largest single deposit, in cents of the package's currency. */
  DEPOSIT_MAX_CENTS: numeric(z.number().int().min(1).max(100_000_000).default(50_000)),
  /** Deposit attempts, and cents deposited or waiting at a processor, per account in 24 hours. */
  DEPOSITS_PER_ACCOUNT_PER_DAY: numeric(z.number().int().min(1).max(100_000).default(20)),
  DEPOSIT_CENTS_PER_ACCOUNT_PER_DAY: numeric(z.number().int().min(1).max(1_000_000_000).default(100_000)),
  /** Deposit attempts per card (known from a saved or typed card), and per client address, in 24 hours, whatever the account. */
  DEPOSITS_PER_CARD_PER_DAY: numeric(z.number().int().min(1).max(100_000).default(10)),
  DEPOSITS_PER_ADDRESS_PER_DAY: numeric(z.number().int().min(1).max(1_000_000).default(50)),
  /** Open realtime sockets one client address, and one signed-in user, may hold on an instance. */
  WS_MAX_PER_ADDRESS: numeric(z.number().int().min(1).max(1_000_000).default(50)),
  WS_MAX_PER_USER: numeric(z.number().int().min(1).max(1_000_000).default(20)),
  /** Sign-ups allowed from one address per 15 minutes. */
  SIGNUPS_PER_ADDRESS: numeric(z.number().int().min(1).max(100_000).default(10)),
  /** stream-join calls one client address may make per minute (a player joins again only when its address expires). */
  STREAM_JOINS_PER_ADDRESS: numeric(z.number().int().min(1).max(100_000).default(60)),
  /** Platform fee per ledger kind in percent, e.g. "tip=20,meeting_fee=0" (docs/architecture.md §9). */
  PLATFORM_FEES: platformFees,
  /** The largest file a post upload may be, in MB (the upload page's "Maximum upload size"). */
  UPLOAD_MAX_MB: numeric(z.number().int().min(1).max(100_000).default(1024)),
  /** What one person may keep in posts and unfinished uploads together, in MB. */
  UPLOAD_QUOTA_MB: numeric(z.number().int().min(1).max(10_000_000).default(10_000)),
  /** Uploads one person may start, and posts one person may publish, in 24 hours. */
  UPLOADS_PER_DAY: numeric(z.number().int().min(1).max(100_000).default(100)),
  POSTS_PER_DAY: numeric(z.number().int().min(1).max(100_000).default(50)),
  /** The pixels of all the images of one post together, in megapixels (each image alone: at most 50). */
  POST_MAX_MEGAPIXELS: numeric(z.number().int().min(1).max(1_000).default(100)),
  /** Videos one instance transcodes at once (each ffmpeg takes the machine's cores). */
  TRANSCODE_CONCURRENCY: numeric(z.number().int().min(0).max(64).default(1)),
  /** Advertiser offers (decision 0021): the publisher network pages name, its ad unit ids per skin, the chat ad interval. */
  ADS_NETWORK: z.string().trim().regex(/^[a-z0-9-]{1,40}$/).default('limelight'),
  ADS_UNITS: adUnits,
  ADS_CHAT_INTERVAL_SECONDS: numeric(z.number().int().min(10).max(86_400).default(120)),
  /** A viewer's impression, click and completion of an offer count once in this window; an offer seen is not shown again in it. */
  ADS_WINDOW_MINUTES: numeric(z.number().int().min(1).max(10_080).default(60)),
  /** Counted activity is paid to broadcasters once per period of this length (seconds), after it closed. */
  ADS_SETTLEMENT_SECONDS: numeric(z.number().int().min(10).max(604_800).default(3600)),
  /** Creator analytics (decision 0022): how often the fold runs, and how old a fact must be to be folded (its transaction surely committed). */
  ANALYTICS_FOLD_SECONDS: numeric(z.number().int().min(1).max(86_400).default(30)),
  ANALYTICS_FOLD_LAG_SECONDS: numeric(z.number().int().min(1).max(3_600).default(60)),
  /**
   * The referral programme (decisions 0023, 0036): each programme's share of the platform fee taken on the
   * referred person's payments, and the settlement period in seconds (a day).
   */
  REFERRAL_RATES: referralRates,
  REFERRAL_SETTLEMENT_SECONDS: numeric(z.number().int().min(10).max(2_678_400).default(86_400)),
  /** Coins operators may grant (`npm run admin -- grant-coins`) per calendar month, UTC (decision 0036). */
  GRANT_BUDGET_COINS: numeric(z.number().int().min(0).max(1_000_000_000).default(1_000)),
  /**
   * Payouts (decision 0061): earnings become withdrawable this many seconds after they are earned (the
   * chargeback window, 7 days); journeys and tests shorten it. A payout is at least PAYOUT_MINIMUM_COINS.
   */
  PAYOUT_HOLD_SECONDS: numeric(z.number().int().min(0).max(366 * 86_400).default(7 * 86_400)),
  PAYOUT_MINIMUM_COINS: numeric(z.number().int().min(1).max(100_000_000).default(1_000)),
  /**
   * Notifications (decision 0025): how often the fan-out and delivery jobs look for work (they are also
   * woken at once on this instance), and the people a fan-out batch notifies in one transaction.
   */
  NOTIFY_JOB_SECONDS: numeric(z.number().int().min(1).max(3_600).default(2)),
  NOTIFY_FANOUT_BATCH: numeric(z.number().int().min(1).max(50_000).default(5_000)),
  /** How long a delivery being sent is held before another try may take it (a crashed sender's). */
  NOTIFY_DELIVERY_LEASE_SECONDS: numeric(z.number().int().min(1).max(3_600).default(120)),
  /**
   * The push services Web Push messages may go to (a browser's subscription names one): host names,
   * `*.` for any subdomain, `host:port` for a local one over plain http (tests). Others are refused.
   */
  PUSH_SERVICE_HOSTS: z.string().max(2000).default('fcm.googleapis.com,*.push.services.mozilla.com,*.notify.windows.com,*.push.apple.com'),
  /**
   * Signed-in sessions kept per instance (decision 0030): for how long at most (changes reach every
   * instance over the bus at once; this bounds only a change made where no bus reaches), and how many.
   * 0 seconds reads the database on every request.
   */
  SESSION_CACHE_SECONDS: numeric(z.number().int().min(0).max(300).default(30)),
  SESSION_CACHE_ENTRIES: numeric(z.number().int().min(100).max(1_000_000).default(50_000)),
  /** The video calls' media: the built-in WebRTC mesh over /ws, or a self-hosted Jitsi Meet (decision 0019). */
  CONFERENCE: z.enum(['builtin', 'jitsi']).default('builtin'),
  /** RTCIceServer[] as JSON for the built-in mesh (STUN/TURN); [] connects peers on one network by host candidates. */
  ICE_SERVERS: z.string().default('[]').transform((value, ctx) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'a JSON array of RTCIceServer ({"urls": "stun:…"})' });
      return z.NEVER;
    }
    const servers = iceServers.safeParse(parsed);
    if (!servers.success) {
      ctx.addIssue({ code: 'custom', message: 'a JSON array of RTCIceServer ({"urls": "stun:…", "username"?, "credential"?})' });
      return z.NEVER;
    }
    return servers.data;
  }),
  /** The Jitsi Meet domain (CONFERENCE=jitsi), e.g. meet.example.com: the token's `sub` and where the room opens. */
  CONFERENCE_DOMAIN: z.string().trim().regex(/^[A-Za-z0-9.-]+(:\d{1,5})?$/, 'a host name such as meet.example.com').optional(),
  /**
   * The key tax ids are sealed with (AES-256-GCM, decision 0062): 32 bytes, base64 or hex
   * (`openssl rand -base64 32`). Required in production with a payment processor; never logged.
   */
  TAX_DATA_KEY: z.string().trim().refine((text) => taxKeyFrom(text) !== null, '32 bytes written in base64 (44 characters) or hex (64)').optional(),
  /**
   * Where files live (decision 0065): `local` (a directory under DATA_DIR) or `s3`, any S3-compatible
   * object store: one bucket, its region, another service's endpoint (MinIO, …), path-style addresses,
   * and the access key (unset: the SDK's own chain, e.g. an instance role). The secret is never logged.
   */
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().trim().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'a bucket name (3–63 lowercase letters, digits, dots and hyphens)').optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'an http(s) address such as http://minio.internal:9000' }).optional(),
  S3_REGION: z.string().trim().regex(/^[a-z0-9-]{1,40}$/, 'a region such as us-east-1').optional(),
  S3_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: onOff(false),
  /** Jitsi token authentication (prosody mod_auth_token): the app id (`iss`) and the HS256 secret. Never logged. */
  JITSI_APP_ID: z.string().trim().min(1).optional(),
  JITSI_APP_SECRET: z.string().min(16).optional(),
});

export type Config = ReturnType<typeof loadConfig>;

/** Social sign-in clients; a provider is offered only when both its client id and secret are set. */
function socialClients(c: z.output<typeof envSchema>) {
  const client = (clientId?: string, clientSecret?: string) => (clientId && clientSecret ? { clientId, clientSecret } : null);
  const google = client(c.GOOGLE_CLIENT_ID, c.GOOGLE_CLIENT_SECRET);
  const apple = client(c.APPLE_CLIENT_ID, c.APPLE_CLIENT_SECRET);
  const facebook = client(c.FACEBOOK_CLIENT_ID, c.FACEBOOK_CLIENT_SECRET);
  return {
    google: google && { ...google, issuer: c.GOOGLE_ISSUER },
    apple: apple && { ...apple, issuer: c.APPLE_ISSUER },
    facebook: facebook && {
      ...facebook,
      authUrl: c.FACEBOOK_AUTH_URL,
      tokenUrl: c.FACEBOOK_TOKEN_URL,
      graphUrl: c.FACEBOOK_GRAPH_URL,
    },
  };
}

export type SocialClients = ReturnType<typeof socialClients>;

/** Every Stripe setting PAYMENTS=stripe needs, or a refusal to start that names the missing ones. */
function stripeSettings(c: z.output<typeof envSchema>) {
  const missing = (['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PUBLISHABLE_KEY'] as const).filter((name) => !c[name]);
  if (missing.length > 0) throw new Error(`Invalid configuration:\n  PAYMENTS: stripe needs ${missing.join(', ')}`);
  const connectWebhookSecrets = c.STRIPE_CONNECT_WEBHOOK_SECRET?.split(',').map((secret) => secret.trim()) ?? null;
  return { secretKey: c.STRIPE_SECRET_KEY!, webhookSecret: c.STRIPE_WEBHOOK_SECRET!, publishableKey: c.STRIPE_PUBLISHABLE_KEY!, apiBase: c.STRIPE_API_BASE, connectWebhookSecrets };
}

/** A processor enabled by its own settings: its options, null when none is given, a refusal when some are missing or wrong. */
function processorSettings<T>(name: string, check: { ok: true; options: T } | { ok: false; absent: boolean; missing: string[]; invalid: string[] }): T | null {
  if (check.ok) return check.options;
  if (check.absent) return null;
  const problems = [...(check.missing.length > 0 ? [`${name} needs ${check.missing.join(', ')}`] : []), ...check.invalid];
  throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
}

/** S3's largest single object written in one request (PutObject, CopyObject). */
export const S3_MAX_OBJECT_MB = 5_000;

/** STORAGE=s3 needs its bucket and region, and both parts of an access key or neither; the S3_* settings mean nothing without it. */
function storageSettings(c: z.output<typeof envSchema>, dataDir: string) {
  const local = { root: path.join(dataDir, 'files'), workDir: path.join(dataDir, 'work') };
  const given = (['S3_BUCKET', 'S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((name) => c[name] !== undefined);
  if (c.STORAGE === 'local') {
    if (given.length > 0) throw new Error(`Invalid configuration:\n  STORAGE: ${given.join(', ')} ${given.length > 1 ? 'are' : 'is'} set but STORAGE is local; set STORAGE=s3 to store files in the bucket`);
    return { kind: 'local' as const, ...local, liveDir: local.root };
  }
  const missing = (['S3_BUCKET', 'S3_REGION'] as const).filter((name) => !c[name]);
  if (missing.length > 0) throw new Error(`Invalid configuration:\n  STORAGE: s3 needs ${missing.join(' and ')}`);
  if ((c.S3_ACCESS_KEY_ID === undefined) !== (c.S3_SECRET_ACCESS_KEY === undefined)) {
    throw new Error('Invalid configuration:\n  STORAGE: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (or leave both unset for the SDK\'s own credentials)');
  }
  if (c.UPLOAD_MAX_MB > S3_MAX_OBJECT_MB) throw new Error(`Invalid configuration:\n  UPLOAD_MAX_MB: at most ${S3_MAX_OBJECT_MB} with STORAGE=s3 (the largest object S3 copies in one request)`);
  return {
    kind: 's3' as const,
    workDir: local.workDir,
    /** Live HLS is written here by ffmpeg and copied to the bucket segment by segment. */
    liveDir: path.join(dataDir, 'live'),
    s3: {
      bucket: c.S3_BUCKET!,
      region: c.S3_REGION!,
      ...(c.S3_ENDPOINT ? { endpoint: c.S3_ENDPOINT } : {}),
      forcePathStyle: c.S3_FORCE_PATH_STYLE,
      ...(c.S3_ACCESS_KEY_ID ? { credentials: { accessKeyId: c.S3_ACCESS_KEY_ID, secretAccessKey: c.S3_SECRET_ACCESS_KEY! } } : {}),
    },
  };
}

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const dataDir = path.resolve(c.DATA_DIR);
  const production = c.NODE_ENV === 'production';
  // The embedded default with nothing else set: a machine trying the platform out. Conveniences that
  // would be unsafe on a deployment (demo accounts, readable mail, test cards) default on only here.
  const evaluation = c.DATABASE_URL === undefined && !production;
  const payments = c.PAYMENTS ?? (evaluation ? 'sandbox' : 'none');
  if (payments === 'sandbox' && production && !c.ALLOW_SANDBOX_PAYMENTS) {
    throw new Error('Invalid configuration:\n  PAYMENTS: the sandbox mints coins for test cards; in production set ALLOW_SANDBOX_PAYMENTS=on to run it anyway');
  }
  const stripe = payments === 'stripe' ? stripeSettings(c) : null;
  if (!stripe && c.STRIPE_CONNECT_WEBHOOK_SECRET) throw new Error('Invalid configuration:\n  STRIPE_CONNECT_WEBHOOK_SECRET: payouts through Stripe Connect need PAYMENTS=stripe');
  const paypalDeposits = processorSettings('PayPal', payPalSettings(env));
  const payoutsWebhookId = env.PAYPAL_PAYOUTS_WEBHOOK_ID?.trim();
  if (payoutsWebhookId && !paypalDeposits) throw new Error('Invalid configuration:\n  PAYPAL_PAYOUTS_WEBHOOK_ID: payouts through PayPal need the PAYPAL_* settings');
  if (payoutsWebhookId && !/^[A-Za-z0-9-]{5,50}$/.test(payoutsWebhookId)) throw new Error('Invalid configuration:\n  PAYPAL_PAYOUTS_WEBHOOK_ID: not a webhook id');
  // PayPal Payouts (decision 0064) reuse the app's credentials; the payouts webhook is its own registration.
  const paypal = paypalDeposits && { ...paypalDeposits, payoutsWebhookId: payoutsWebhookId || null };
  const btcpay = processorSettings('BTCPay', btcPaySettings(env));
  const outbox = c.MAIL_OUTBOX === undefined ? evaluation : isOn(c.MAIL_OUTBOX);
  if (outbox && production && !c.SMTP_URL) {
    throw new Error('Invalid configuration:\n  MAIL_OUTBOX: a readable outbox shows recovery codes; in production set SMTP_URL');
  }
  // Real money in means creators are paid out, and payouts wait for tax information (decision 0062).
  if (production && (stripe || paypal || btcpay) && !c.TAX_DATA_KEY) {
    throw new Error('Invalid configuration:\n  TAX_DATA_KEY: creators give their tax ids before they are paid out; in production with a payment processor set TAX_DATA_KEY (32 bytes, base64 or hex: openssl rand -base64 32)');
  }
  const oauth = socialClients(c);
  if (c.TOYS === 'lovense' && (!c.LOVENSE_DEVELOPER_TOKEN || !c.LOVENSE_PLATFORM)) {
    throw new Error('Invalid configuration:\n  TOYS: lovense needs LOVENSE_DEVELOPER_TOKEN and LOVENSE_PLATFORM');
  }
  if (c.CONFERENCE === 'jitsi' && (!c.CONFERENCE_DOMAIN || !c.JITSI_APP_ID || !c.JITSI_APP_SECRET)) {
    throw new Error('Invalid configuration:\n  CONFERENCE: jitsi needs CONFERENCE_DOMAIN, JITSI_APP_ID and JITSI_APP_SECRET (at least 16 characters)');
  }
  return {
    env: c.NODE_ENV,
    role: c.ROLE,
    host: c.HOST,
    port: c.PORT,
    rtmpPort: c.RTMP_PORT,
    rtmpGraceMs: c.RTMP_GRACE_MS,
    showMinuteMs: c.SHOW_MINUTE_MS,
    /** Live renditions (decision 0070); empty: one copied rendition. */
    liveRenditions: c.LIVE_RENDITIONS,
    playbackTtlSeconds: c.PLAYBACK_TTL_SECONDS,
    playbackSecret: c.PLAYBACK_SECRET,
    readCacheMs: c.READ_CACHE_MS,
    dataDir,
    database: c.DATABASE_URL
      ? ({ kind: 'postgres', url: c.DATABASE_URL, poolSize: c.DATABASE_POOL_SIZE, timeouts: { statementMs: c.DATABASE_STATEMENT_TIMEOUT_MS, lockMs: c.DATABASE_LOCK_TIMEOUT_MS } } as const)
      : ({ kind: 'pglite', dir: path.join(dataDir, 'db') } as const),
    redisUrl: c.REDIS_URL,
    redisPrefix: c.REDIS_PREFIX,
    publicUrl: c.PUBLIC_URL,
    rtmpPublicUrl: c.RTMP_PUBLIC_URL,
    smtpUrl: c.SMTP_URL,
    /** How mail leaves: SMTP, the readable outbox (development), or nowhere (reported at start; sending answers 503). */
    mail: c.SMTP_URL ? ('smtp' as const) : outbox ? ('outbox' as const) : ('none' as const),
    mailFrom: c.MAIL_FROM,
    captcha: c.CAPTCHA === 'altcha',
    payments,
    /** PAYMENTS=stripe (decision 0055); the secret key and the webhook secret are never logged. */
    stripe,
    /** PayPal (Orders v2) and bitcoin through BTCPay Server, each on when all its settings are given (secrets never logged). */
    paypal,
    btcpay,
    social: { google: oauth.google !== null, apple: oauth.apple !== null, facebook: oauth.facebook !== null },
    oauth,
    seedDemo: c.SEED_DEMO === undefined ? evaluation : isOn(c.SEED_DEMO),
    logLevel: c.LOG_LEVEL,
    metricsToken: c.METRICS_TOKEN,
    webDist: path.resolve(c.WEB_DIST),
    trustProxy: c.TRUST_PROXY,
    streamViewerLikeLimit: c.STREAM_VIEWER_LIKE_LIMIT,
    ratingThreshold: c.RATING_THRESHOLD,
    /** Deposit risk (decision 0058): the score that refuses, and the limits per deposit, account, card and address per 24 hours. */
    depositRisk: {
      threshold: c.KOUNT_RISK_THRESHOLD,
      limits: {
        maxCents: c.DEPOSIT_MAX_CENTS,
        perAccount: { count: c.DEPOSITS_PER_ACCOUNT_PER_DAY, cents: c.DEPOSIT_CENTS_PER_ACCOUNT_PER_DAY },
        perCard: c.DEPOSITS_PER_CARD_PER_DAY,
        perAddress: c.DEPOSITS_PER_ADDRESS_PER_DAY,
      },
    },
    signupsPerAddress: c.SIGNUPS_PER_ADDRESS,
    streamJoinsPerAddress: c.STREAM_JOINS_PER_ADDRESS,
    realtimeCaps: { maxSocketsPerAddress: c.WS_MAX_PER_ADDRESS, maxSocketsPerUser: c.WS_MAX_PER_USER },
    translateUrl: c.TRANSLATE_URL,
    platformFees: c.PLATFORM_FEES,
    uploadMaxBytes: c.UPLOAD_MAX_MB * 1_000_000,
    /** Per-person limits on uploads and posts (checked before anything is stored). */
    postQuotas: { storedBytes: c.UPLOAD_QUOTA_MB * 1_000_000, uploadsPerDay: c.UPLOADS_PER_DAY, postsPerDay: c.POSTS_PER_DAY, pixelsPerPost: c.POST_MAX_MEGAPIXELS * 1_000_000 },
    transcodeConcurrency: c.TRANSCODE_CONCURRENCY,
    /** Where files live (decision 0065); the S3 secret is never logged. */
    storage: storageSettings(c, dataDir),
    /** Toy-device access (decision 0020); the developer token is never logged. */
    toys: c.TOYS === 'lovense'
      ? ({ kind: 'lovense', developerToken: c.LOVENSE_DEVELOPER_TOKEN!, platform: c.LOVENSE_PLATFORM!, apiUrl: c.LOVENSE_API_URL.replace(/\/+$/, ''), sdkUrl: c.LOVENSE_SDK_URL } as const)
      : ({ kind: 'simulated' } as const),
    /** Advertiser offers (decision 0021). */
    ads: {
      network: c.ADS_NETWORK,
      units: c.ADS_UNITS,
      chatIntervalSeconds: c.ADS_CHAT_INTERVAL_SECONDS,
      windowMs: c.ADS_WINDOW_MINUTES * 60_000,
      settlementMs: c.ADS_SETTLEMENT_SECONDS * 1000,
    },
    /** Creator analytics (decision 0022). */
    analytics: { foldEveryMs: c.ANALYTICS_FOLD_SECONDS * 1000, foldLagMs: c.ANALYTICS_FOLD_LAG_SECONDS * 1000 },
    /** Notifications (decision 0025). */
    notifications: {
      jobEveryMs: c.NOTIFY_JOB_SECONDS * 1000,
      fanoutBatch: c.NOTIFY_FANOUT_BATCH,
      deliveryLeaseSeconds: c.NOTIFY_DELIVERY_LEASE_SECONDS,
      pushServiceHosts: c.PUSH_SERVICE_HOSTS.split(',').map((host) => host.trim().toLowerCase()).filter((host) => host !== ''),
    },
    /** Signed-in sessions kept per instance (decision 0030). */
    sessionCache: { ttlMs: c.SESSION_CACHE_SECONDS * 1000, maxEntries: c.SESSION_CACHE_ENTRIES },
    /** The referral programme (decision 0023). */
    referrals: { rates: c.REFERRAL_RATES, settlementMs: c.REFERRAL_SETTLEMENT_SECONDS * 1000 },
    /** Operators' grants of coins (decision 0036). */
    grants: { monthlyBudgetCoins: c.GRANT_BUDGET_COINS },
    /** The key tax ids are sealed with (decision 0062); unset outside production: one kept in the database. Never logged. */
    taxDataKey: c.TAX_DATA_KEY,
    payouts: { holdSeconds: c.PAYOUT_HOLD_SECONDS, minimumCoins: c.PAYOUT_MINIMUM_COINS },
    /** Video calls' media (decision 0019); the Jitsi secret signs tokens and is never logged. */
    conference: c.CONFERENCE === 'jitsi'
      ? ({ kind: 'jitsi', domain: c.CONFERENCE_DOMAIN!, appId: c.JITSI_APP_ID!, appSecret: c.JITSI_APP_SECRET! } as const)
      : ({ kind: 'builtin', iceServers: c.ICE_SERVERS } as const),
  };
}
