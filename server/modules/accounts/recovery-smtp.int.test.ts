import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOutbox } from '../../../common/api/mail';
import * as api from '../../../common/api/recovery';
import { MSG } from '../../../common/messages';
import { startTestApp, type TestApp } from '../../testing/harness';
import { bodyOf, recoveryCodeIn, startSmtpSink, type SmtpSink } from '../../testing/mail';

let sink: SmtpSink;
let t: TestApp;
beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({ SMTP_URL: sink.url, MAIL_FROM: 'Limelight Test <robot@limelight.test>' });
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

describe('recovery through a real SMTP server', () => {
  it('delivers the code over SMTP, keeps a copy marked smtp, and the code resets the password', async () => {
    const user = await t.given.user();
    const client = t.client();
    const sent = await client.send(api.sendRecoveryCode, { username: user.username });
    expect(sent.status).toBe(200);

    expect(sink.received).toHaveLength(1);
    const [mail] = sink.received;
    expect(mail).toMatchObject({ from: 'robot@limelight.test', to: [user.email] });
    expect(mail!.raw).toMatch(/^Subject: Your Limelight recovery code\r$/m);
    expect(mail!.raw).toMatch(/^From: Limelight Test <robot@limelight\.test>\r$/m);
    const code = recoveryCodeIn(bodyOf(mail!.raw));

    const admin = await t.given.signedIn(await t.given.user({ role: 'admin' }));
    const outbox = await admin.send(listOutbox, { to: user.email });
    expect(outbox.body).toMatchObject({ transport: 'smtp', messages: [{ to: user.email, subject: 'Your Limelight recovery code' }] });

    const password = 'delivered-by-smtp';
    const reset = await client.send(api.resetPassword, { username: user.username, recoveryCode: code, userPassword: password });
    expect(reset.status).toBe(200);
    expect((await t.client().post('/api/user/user-login', { username: user.username, password })).status).toBe(200);
  });

  it('answers 503 with a clear message when the mail server is down', async () => {
    await sink.close();
    const user = await t.given.user();
    const res = await t.client().send(api.sendRecoveryCode, { username: user.username });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ response: 'mail_unavailable', message: MSG.mailUnavailable });
  });
});
