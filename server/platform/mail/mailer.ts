/**
 * One way to send mail. With SMTP_URL: nodemailer over SMTP, and only a record (recipient, subject,
 * time) stays in mail_outbox. Without, on the embedded evaluation setup (or MAIL_OUTBOX=on): the whole
 * mail stays in the outbox for administrators at /dev/outbox. Otherwise nothing can be sent: said at
 * start, and every send answers 503. The log never carries a mail's text.
 */
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Db } from '../db/client';
import { appError } from '../http/errors';
import { keepMail, wasKept, type MailMessage, type MailTransport } from './outbox';

/** The domain of the sender's address ("Limelight <no-reply@limelight.local>" → limelight.local). */
const domainOf = (from: string) => /@([^>\s]+)/.exec(from)?.[1] ?? 'localhost';

export type { MailMessage, MailTransport } from './outbox';

export interface Mailer {
  readonly transport: MailTransport;
  /** Resolves once the message is handed over; a mail server that refuses it gives a 503 AppError. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface MailerDeps {
  db: Db;
  from: string;
  /** smtp:// or smtps://; query options reach nodemailer (?ignoreTLS=true, ?tls.rejectUnauthorized=false). */
  smtpUrl?: string;
  /** Without SMTP: keep mail readable in the outbox (development only; the config decides). */
  outbox?: boolean;
  log: Pick<FastifyBaseLogger, 'info' | 'error'>;
}

export const SMTP_TEXT_NOT_KEPT = '(delivered by SMTP; the text is not kept)';

// nodemailer waits minutes by default; a request waiting on the mail server should give up sooner.
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export const NOT_SENT = '(not sent: no mail transport is set; the text is not kept)';

export function createMailer(deps: MailerDeps): Mailer {
  if (deps.smtpUrl) return createSmtpMailer(deps, deps.smtpUrl);
  return deps.outbox ? createOutboxMailer(deps) : createUndeliverableMailer(deps);
}

/** Development: the mail stays in the outbox for administrators to read at /dev/outbox. The log names it, never its text. */
function createOutboxMailer({ db, log }: MailerDeps): Mailer {
  return {
    transport: 'outbox',
    async send(message) {
      await keepMail(db, message, 'outbox');
      log.info({ mail: { to: message.to, subject: message.subject } }, 'mail kept in the outbox (read it at /dev/outbox)');
    },
    close() {},
  };
}

/** A deployment without SMTP_URL: said loudly at start; every send is refused and no one can read what it held. */
function createUndeliverableMailer({ db, log }: MailerDeps): Mailer {
  log.error('SMTP_URL is not set: no mail can be sent, account recovery included. Set SMTP_URL (or MAIL_OUTBOX=on for development).');
  return {
    transport: 'none',
    async send(message) {
      await keepMail(db, { to: message.to, subject: message.subject, text: NOT_SENT }, 'none');
      log.error({ to: message.to, subject: message.subject }, 'mail not sent: no mail transport');
      throw appError('mail_unavailable');
    },
    close() {},
  };
}

function createSmtpMailer({ db, from, log }: MailerDeps, url: string): Mailer {
  // Options in the URL win over these defaults (nodemailer merges them that way).
  const transporter = nodemailer.createTransport({ url, ...TIMEOUTS });
  return {
    transport: 'smtp',
    async send(message) {
      const { key, headers, ...content } = message;
      // A keyed message kept before went out before: a retry after a crash must not send it twice.
      if (key && (await wasKept(db, key))) return;
      try {
        await transporter.sendMail({ from, ...content, headers, messageId: key ? `<${key}@${domainOf(from)}>` : undefined });
      } catch (error) {
        const { code, message: reason } = error as { code?: string; message?: string };
        log.error({ to: message.to, code, reason }, 'mail not sent');
        throw appError('mail_unavailable');
      }
      // The mail server has it: keep who got what, not the text (it may carry a recovery code).
      await keepMail(db, { to: message.to, subject: message.subject, text: SMTP_TEXT_NOT_KEPT, key }, 'smtp');
    },
    close() {
      transporter.close();
    },
  };
}
