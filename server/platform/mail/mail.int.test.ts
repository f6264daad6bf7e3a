import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOutbox } from '../../../common/api/mail';
import { startTestApp, type TestApp } from '../../testing/harness';
import { startSmtpSink } from '../../testing/mail';
import { createMailer, NOT_SENT, SMTP_TEXT_NOT_KEPT, type MailerDeps } from './mailer';
import { listMail } from './outbox';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

function mailerWith(options: Partial<MailerDeps> = {}) {
  const logged: Array<{ level: string; obj: object; msg: string }> = [];
  const log = {
    info: (obj: object, msg: string) => logged.push({ level: 'info', obj, msg }),
    error: (obj: object, msg: string) => logged.push({ level: 'error', obj, msg }),
  } as unknown as MailerDeps['log'];
  const mailer = createMailer({ db: t.resources.database.db, from: 'Limelight <no-reply@limelight.local>', log, outbox: true, ...options });
  return { mailer, logged };
}

const countTo = async (to: string) =>
  (await t.resources.database.db.execute(sql`select count(*)::int as n from mail_outbox where "to" = ${to}`)).rows[0];

describe('no mail transport (a deployment without SMTP_URL)', () => {
  it('says so at start, refuses every send with 503 and keeps no text anyone could read', async () => {
    const { mailer, logged } = mailerWith({ outbox: false });
    expect(mailer.transport).toBe('none');
    expect(logged).toEqual([{ level: 'error', obj: expect.stringContaining('SMTP_URL is not set'), msg: undefined }]);
    await expect(mailer.send({ to: 'nobody@example.com', subject: 'Your code', text: 'Code 123456' })).rejects.toMatchObject({ code: 'mail_unavailable' });
    const rows = await t.resources.database.db.execute(sql`select text, transport from mail_outbox where "to" = 'nobody@example.com'`);
    expect(rows.rows).toEqual([{ text: NOT_SENT, transport: 'none' }]);
    expect(JSON.stringify(logged)).not.toContain('123456');
  });
});

describe('the outbox (no SMTP_URL)', () => {
  it('keeps the mail and names it in the log, never its text', async () => {
    const { mailer, logged } = mailerWith();
    expect(mailer.transport).toBe('outbox');
    await mailer.send({ to: 'reader@example.com', subject: 'Hello', text: 'Line one\nLine two', html: '<p>Line one</p>' });
    expect(logged).toEqual([
      { level: 'info', msg: 'mail kept in the outbox (read it at /dev/outbox)', obj: { mail: { to: 'reader@example.com', subject: 'Hello' } } },
    ]);
    const rows = await t.resources.database.db.execute(sql`select subject, text, html, transport from mail_outbox where "to" = 'reader@example.com'`);
    expect(rows.rows).toEqual([{ subject: 'Hello', text: 'Line one\nLine two', html: '<p>Line one</p>', transport: 'outbox' }]);
  });

  it('lists mail to administrators, newest first, filtered by address whatever its case, limited', async () => {
    const { mailer } = mailerWith();
    for (const n of [1, 2, 3]) await mailer.send({ to: 'Listed@Example.com', subject: `Message ${n}`, text: `Body ${n}` });
    await mailer.send({ to: 'someone-else@example.com', subject: 'Other', text: 'Other' });
    const admin = await t.given.signedIn(await t.given.user({ role: 'admin' }));

    const mine = await admin.send(listOutbox, { to: 'listed@example.COM' });
    expect(mine.status).toBe(200);
    expect(mine.headers['cache-control']).toBe('no-store');
    expect(mine.body.transport).toBe('outbox');
    const messages = mine.body.messages as Array<{ id: number; to: string; subject: string; text: string; created_at: string }>;
    expect(messages.map((m) => m.subject)).toEqual(['Message 3', 'Message 2', 'Message 1']);
    expect(messages[0]).toMatchObject({ to: 'Listed@Example.com', text: 'Body 3' });
    expect(Number.isNaN(Date.parse(messages[0]!.created_at))).toBe(false);

    const limited = await admin.send(listOutbox, { limit: 2 });
    expect((limited.body.messages as Array<{ subject: string }>).map((m) => m.subject)).toEqual(['Other', 'Message 3']);
    expect((await admin.get(listOutbox.path, { limit: 0 })).status).toBe(400);
    expect((await admin.get(listOutbox.path, { limit: 'many' })).status).toBe(400);
    expect((await admin.get(listOutbox.path, { from: 'x' })).body).toMatchObject({ response: 'validation', message: 'Unknown field: from' });
  });

  it('is closed to guests (401) and to users who are not administrators (403)', async () => {
    const guest = await t.client().get(listOutbox.path);
    expect(guest.status).toBe(401);
    expect(guest.body.response).toBe('unauthorized');
    const user = await t.given.signedIn(await t.given.user());
    expect((await user.get(listOutbox.path)).status).toBe(403);
  });
});

describe('SMTP (SMTP_URL set)', () => {
  it('verifies a STARTTLS certificate by default; options in the URL reach nodemailer', async () => {
    const sink = await startSmtpSink({ starttls: true });
    try {
      const strict = mailerWith({ smtpUrl: sink.url });
      const refused = strict.mailer.send({ to: 'strict@example.com', subject: 'Hi', text: 'Hi' });
      await expect(refused).rejects.toMatchObject({ status: 503, code: 'mail_unavailable' });
      expect(strict.logged[0]).toMatchObject({ level: 'error', msg: 'mail not sent', obj: { to: 'strict@example.com' } });
      expect(await countTo('strict@example.com')).toEqual({ n: 0 });

      const relaxed = mailerWith({ smtpUrl: `${sink.url}?ignoreTLS=true` });
      expect(relaxed.mailer.transport).toBe('smtp');
      await relaxed.mailer.send({ to: 'relaxed@example.com', subject: 'Hi', text: 'Plain text over a local relay' });
      expect(sink.received.map((m) => m.to)).toEqual([['relaxed@example.com']]);
      expect(sink.received[0]!.raw).toContain('Plain text over a local relay');
      expect(await countTo('relaxed@example.com')).toEqual({ n: 1 });
      const [kept] = await listMail(t.resources.database.db, { to: 'relaxed@example.com', limit: 1 });
      expect(kept).toMatchObject({ subject: 'Hi', text: SMTP_TEXT_NOT_KEPT });
      relaxed.mailer.close();
    } finally {
      await sink.close();
    }
  });

  it('does not log the text of a mail it could not send', async () => {
    const sink = await startSmtpSink();
    await sink.close();
    const { mailer, logged } = mailerWith({ smtpUrl: sink.url });
    await expect(mailer.send({ to: 'down@example.com', subject: 'Secret', text: 'code 123456' })).rejects.toMatchObject({ status: 503 });
    expect(JSON.stringify(logged)).not.toContain('123456');
    expect(await countTo('down@example.com')).toEqual({ n: 0 });
  });
});
