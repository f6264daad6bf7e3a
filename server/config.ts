/** One zod-validated configuration read from the environment, with embedded defaults (ARCHITECTURE §3). */
import path from 'node:path';
import { z } from 'zod';

const onOff = (fallback: boolean) =>
  z
    .enum(['on', 'off', 'true', 'false', '1', '0'])
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'on' || v === 'true' || v === '1'));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  ROLE: z.enum(['all', 'api', 'media', 'worker']).default('all'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  RTMP_PORT: z.coerce.number().int().min(0).max(65535).default(1935),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.url().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  REDIS_URL: z.url().optional(),
  PUBLIC_URL: z.url().optional(),
  RTMP_PUBLIC_URL: z.string().optional(),
  SMTP_URL: z.url().optional(),
  CAPTCHA: z.enum(['altcha', 'off']).default('altcha'),
  PAYMENTS: z.enum(['sandbox']).default('sandbox'),
  TOYS: z.enum(['simulated', 'lovense']).default('simulated'),
  TRANSLATE_URL: z.url().optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  APPLE_CLIENT_ID: z.string().optional(),
  FACEBOOK_CLIENT_ID: z.string().optional(),
  SEED_DEMO: onOff(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Served static web app; unset in API-only tests. */
  WEB_DIST: z.string().default('./dist/web'),
  TRUST_PROXY: onOff(false),
  STREAM_VIEWER_LIKE_LIMIT: z.coerce.number().int().positive().default(100),
  RATING_THRESHOLD: z.coerce.number().min(0).max(5).default(3),
});

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const dataDir = path.resolve(c.DATA_DIR);
  return {
    env: c.NODE_ENV,
    role: c.ROLE,
    host: c.HOST,
    port: c.PORT,
    rtmpPort: c.RTMP_PORT,
    dataDir,
    database: c.DATABASE_URL
      ? ({ kind: 'postgres', url: c.DATABASE_URL, poolSize: c.DATABASE_POOL_SIZE } as const)
      : ({ kind: 'pglite', dir: path.join(dataDir, 'db') } as const),
    redisUrl: c.REDIS_URL,
    publicUrl: c.PUBLIC_URL,
    rtmpPublicUrl: c.RTMP_PUBLIC_URL,
    smtpUrl: c.SMTP_URL,
    captcha: c.CAPTCHA === 'altcha',
    social: {
      google: Boolean(c.GOOGLE_CLIENT_ID),
      apple: Boolean(c.APPLE_CLIENT_ID),
      facebook: Boolean(c.FACEBOOK_CLIENT_ID),
    },
    seedDemo: c.SEED_DEMO,
    logLevel: c.LOG_LEVEL,
    webDist: path.resolve(c.WEB_DIST),
    trustProxy: c.TRUST_PROXY,
    streamViewerLikeLimit: c.STREAM_VIEWER_LIKE_LIMIT,
    ratingThreshold: c.RATING_THRESHOLD,
  };
}
