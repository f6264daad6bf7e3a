/**
 * What a deployment gets when it did not ask for the evaluation conveniences: no readable mail, no test
 * cards, no published administrator password (config.test.ts covers when each applies).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOutbox } from '../../common/api/mail';
import { sendRecoveryCode } from '../../common/api/recovery';
import { coinPackages, depositCoins, walletBalance } from '../../common/api/wallet';
import { MSG } from '../../common/messages';
import { DEMO_PASSWORD, seedDemoData } from '../demo/demo-data';
import { startTestApp, type TestApp } from '../testing/harness';
import { NOT_SENT } from './mail/mailer';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ MAIL_OUTBOX: 'off', PAYMENTS: 'none' });
});
afterAll(() => t.close());

describe('a deployment without a mail transport or a payment processor', () => {
  it('answers recovery with 503 and keeps no code that anyone could read', async () => {
    const user = await t.given.user();
    const res = await t.client().send(sendRecoveryCode, { username: user.username });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ response: 'mail_unavailable', message: MSG.mailUnavailable });

    const admin = await t.given.signedIn(await t.given.user({ role: 'admin' }));
    const outbox = await admin.send(listOutbox, { to: user.email });
    expect(outbox.body.transport).toBe('none');
    expect(outbox.body.messages).toEqual([expect.objectContaining({ to: user.email, text: NOT_SENT })]);
    expect(JSON.stringify(outbox.body)).not.toMatch(/\d{6}/);
  });

  it('says card deposits are not available, and moves nothing', async () => {
    const client = await t.given.signedIn(await t.given.user());
    const [pkg] = (await client.send(coinPackages, {})).body.packages as Array<{ package_id: number }>;
    const card = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: new Date().getFullYear() + 1, cvc: '123', name: 'Test Card' };
    const res = await client.post(depositCoins.path, { package_id: pkg!.package_id, payment_method: 'card', card });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ response: 'validation', message: MSG.paymentMethodUnavailable, field: 'payment_method' });
    expect((await client.send(walletBalance, {})).body.balance).toMatchObject({ CON: 0 });
  });
});

describe('demo data', () => {
  it('gives the demo administrator a password made at random, never the published one', async () => {
    const fresh = await startTestApp();
    try {
      const created = await seedDemoData({ db: fresh.resources.database.db, ...fresh.app.services });
      const admin = created.find((account) => account.role === 'admin')!;
      expect(admin.password).not.toBe(DEMO_PASSWORD);
      expect(admin.password.length).toBeGreaterThanOrEqual(16);
      expect(created.filter((account) => account.role !== 'admin').every((account) => account.password === DEMO_PASSWORD)).toBe(true);

      const withPublished = await fresh.client().post('/api/user/user-login', { username: 'admin', password: DEMO_PASSWORD });
      expect(withPublished.status).toBe(401);
      const withMade = await fresh.client().post('/api/user/user-login', { username: 'admin', password: admin.password });
      expect(withMade.status).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});
