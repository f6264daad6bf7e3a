import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const TAX_KEY = Buffer.alloc(32, 7).toString('base64');

describe('configuration', () => {
  it('uses the embedded defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, rtmpPort: 1935, captcha: true, seedDemo: true, role: 'all' });
    expect(config.database.kind).toBe('pglite');
  });

  it('seeds demo data only into the embedded evaluation setup, unless asked to', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/limelight' }).seedDemo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', SEED_DEMO: 'on' }).seedDemo).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/limelight', SEED_DEMO: 'on' }).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: 'off' }).seedDemo).toBe(false);
  });

  it('keeps mail readable in an outbox only for development, and never in production', () => {
    expect(loadConfig({}).mail).toBe('outbox');
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/limelight' }).mail).toBe('none');
    expect(loadConfig({ NODE_ENV: 'production' }).mail).toBe('none');
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/limelight', MAIL_OUTBOX: 'on' }).mail).toBe('outbox');
    expect(loadConfig({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example:587' }).mail).toBe('smtp');
    expect(() => loadConfig({ NODE_ENV: 'production', MAIL_OUTBOX: 'on' })).toThrow(/MAIL_OUTBOX/);
  });

  it('takes test cards only where someone asked for them, and in production only when told twice', () => {
    expect(loadConfig({}).payments).toBe('sandbox');
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/limelight' }).payments).toBe('none');
    expect(loadConfig({ NODE_ENV: 'production' }).payments).toBe('none');
    expect(loadConfig({ DATABASE_URL: 'postgres://db.example/limelight', PAYMENTS: 'sandbox' }).payments).toBe('sandbox');
    expect(() => loadConfig({ NODE_ENV: 'production', PAYMENTS: 'sandbox' })).toThrow(/ALLOW_SANDBOX_PAYMENTS/);
    expect(loadConfig({ NODE_ENV: 'production', PAYMENTS: 'sandbox', ALLOW_SANDBOX_PAYMENTS: 'on' }).payments).toBe('sandbox');
  });

  it('takes cards through Stripe only with every key, and names the ones missing', () => {
    const keys = { STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_def456', STRIPE_PUBLISHABLE_KEY: 'pk_test_ghi789' };
    const config = loadConfig({ NODE_ENV: 'production', PAYMENTS: 'stripe', ...keys, TAX_DATA_KEY: TAX_KEY });
    expect(config.payments).toBe('stripe');
    expect(config.stripe).toEqual({ secretKey: 'sk_test_abc123', webhookSecret: 'whsec_def456', publishableKey: 'pk_test_ghi789', apiBase: undefined, connectWebhookSecrets: null });
    expect(() => loadConfig({ PAYMENTS: 'stripe' })).toThrow(/stripe needs STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PUBLISHABLE_KEY/);
    expect(() => loadConfig({ PAYMENTS: 'stripe', ...keys, STRIPE_WEBHOOK_SECRET: '' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(() => loadConfig({ PAYMENTS: 'stripe', ...keys, STRIPE_SECRET_KEY: 'pk_test_wrong' })).toThrow(/STRIPE_SECRET_KEY/);
    expect(loadConfig({ ...keys }).stripe).toBeNull();
  });

  it('offers Stripe Connect payouts with PAYMENTS=stripe and its webhook secrets only', () => {
    const keys = { PAYMENTS: 'stripe', STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_def456', STRIPE_PUBLISHABLE_KEY: 'pk_test_ghi789' };
    expect(loadConfig({ ...keys, STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_connect1, whsec_account2' }).stripe?.connectWebhookSecrets).toEqual(['whsec_connect1', 'whsec_account2']);
    expect(() => loadConfig({ ...keys, STRIPE_CONNECT_WEBHOOK_SECRET: 'secret' })).toThrow(/STRIPE_CONNECT_WEBHOOK_SECRET/);
    expect(() => loadConfig({ STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_connect1' })).toThrow(/STRIPE_CONNECT_WEBHOOK_SECRET: payouts through Stripe Connect need PAYMENTS=stripe/);
  });

  it('turns PayPal and BTCPay on by their own settings, and refuses some without the others', () => {
    expect(loadConfig({}).paypal).toBeNull();
    expect(loadConfig({}).btcpay).toBeNull();
    const paypal = { PAYPAL_CLIENT_ID: 'client-id', PAYPAL_CLIENT_SECRET: 'client-secret', PAYPAL_WEBHOOK_ID: 'WH-1234567' };
    expect(loadConfig(paypal).paypal).toMatchObject({ clientId: 'client-id', webhookId: 'WH-1234567', apiBase: 'https://api-m.paypal.com' });
    expect(() => loadConfig({ PAYPAL_CLIENT_ID: 'client-id' })).toThrow(/PayPal needs PAYPAL_CLIENT_SECRET, PAYPAL_WEBHOOK_ID/);
    // Payouts through PayPal (decision 0064): the same credentials, their own webhook.
    expect(loadConfig(paypal).paypal?.payoutsWebhookId).toBeNull();
    expect(loadConfig({ ...paypal, PAYPAL_PAYOUTS_WEBHOOK_ID: 'WH-7654321' }).paypal?.payoutsWebhookId).toBe('WH-7654321');
    expect(() => loadConfig({ ...paypal, PAYPAL_PAYOUTS_WEBHOOK_ID: 'no!' })).toThrow(/PAYPAL_PAYOUTS_WEBHOOK_ID: not a webhook id/);
    expect(() => loadConfig({ PAYPAL_PAYOUTS_WEBHOOK_ID: 'WH-7654321' })).toThrow(/PAYPAL_PAYOUTS_WEBHOOK_ID: payouts through PayPal need the PAYPAL_\* settings/);
    expect(() => loadConfig({ BTCPAY_URL: 'https://btcpay.example.com' })).toThrow(/BTCPay needs BTCPAY_API_KEY/);
    expect(() => loadConfig({ BTCPAY_URL: 'ftp://x', BTCPAY_API_KEY: 'k', BTCPAY_STORE_ID: 'S'.repeat(30), BTCPAY_WEBHOOK_SECRET: 'w'.repeat(20) })).toThrow(/BTCPAY_URL/);
  });

  it('names what is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
  });
});

describe('the tax data key (decision 0062)', () => {
  const keys = { STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_def456', STRIPE_PUBLISHABLE_KEY: 'pk_test_ghi789' };
  it('is required in production with a payment processor, and must be 32 bytes', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', PAYMENTS: 'stripe', ...keys })).toThrow(/TAX_DATA_KEY: creators give their tax ids/);
    expect(loadConfig({ NODE_ENV: 'production', PAYMENTS: 'stripe', ...keys, TAX_DATA_KEY: TAX_KEY }).taxDataKey).toBe(TAX_KEY);
    expect(loadConfig({ NODE_ENV: 'production', PAYMENTS: 'stripe', ...keys, TAX_DATA_KEY: 'ab'.repeat(32) }).taxDataKey).toBe('ab'.repeat(32));
    expect(() => loadConfig({ TAX_DATA_KEY: 'too-short' })).toThrow(/TAX_DATA_KEY: 32 bytes/);
    // Without real money in, or outside production, the server starts (the module says how it keeps tax ids).
    expect(loadConfig({ NODE_ENV: 'production' }).taxDataKey).toBeUndefined();
    expect(loadConfig({}).taxDataKey).toBeUndefined();
  });
});


describe('storage (decision 0065)', () => {
  const S3 = { STORAGE: 's3', S3_BUCKET: 'media-bucket', S3_REGION: 'eu-west-1' };
  it('keeps files in DATA_DIR by default', () => {
    const { storage } = loadConfig({ DATA_DIR: '/srv/ll' });
    expect(storage).toMatchObject({ kind: 'local', root: '/srv/ll/files', liveDir: '/srv/ll/files', workDir: '/srv/ll/work' });
  });

  it('takes a bucket with its region, endpoint, path style and key', () => {
    const { storage } = loadConfig({ ...S3, DATA_DIR: '/srv/ll', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: 'on', S3_ACCESS_KEY_ID: 'AK', S3_SECRET_ACCESS_KEY: 'SECRET' });
    expect(storage).toEqual({
      kind: 's3', workDir: '/srv/ll/work', liveDir: '/srv/ll/live',
      s3: { bucket: 'media-bucket', region: 'eu-west-1', endpoint: 'http://127.0.0.1:9000', forcePathStyle: true, credentials: { accessKeyId: 'AK', secretAccessKey: 'SECRET' } },
    });
    expect(loadConfig(S3).storage).toMatchObject({ s3: { forcePathStyle: false } });
    expect('credentials' in (loadConfig(S3).storage as { s3: object }).s3).toBe(false);
  });

  it('refuses to start with settings missing, half a key, or S3 settings without STORAGE=s3, naming no secret', () => {
    expect(() => loadConfig({ STORAGE: 's3' })).toThrow(/STORAGE: s3 needs S3_BUCKET and S3_REGION/);
    expect(() => loadConfig({ ...S3, S3_BUCKET: 'Not_A_Bucket' })).toThrow(/S3_BUCKET: a bucket name/);
    expect(() => loadConfig({ ...S3, S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT/);
    expect(() => loadConfig({ STORAGE: 'gcs' })).toThrow(/STORAGE/);
    const half = (() => {
      try {
        loadConfig({ ...S3, S3_SECRET_ACCESS_KEY: 'very-secret-value' });
      } catch (error) {
        return String(error);
      }
      return '';
    })();
    expect(half).toMatch(/S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/);
    expect(half).not.toContain('very-secret-value');
    expect(() => loadConfig({ S3_BUCKET: 'media-bucket' })).toThrow(/S3_BUCKET is set but STORAGE is local/);
    expect(() => loadConfig({ ...S3, UPLOAD_MAX_MB: '6000' })).toThrow(/UPLOAD_MAX_MB: at most 5000 with STORAGE=s3/);
  });
});
