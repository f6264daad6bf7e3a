/**
 * One way to send mail. With SMTP_URL: nodemailer over SMTP. Without: the outbox table, also printed
 * to the log, which is how the embedded default reads its mail (and at /dev/outbox). With SMTP only a
 * record (recipient, subject, time) stays in mail_outbox.
 */
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import { MSG } from '../../../common/messages';
import type { Db } from '../db/client';
import { AppError } from '../http/errors';
import { keepMail, type MailMessage, type MailTransport } from './outbox';

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
  log: Pick<FastifyBaseLogger, 'info' | 'error'>;
}

export const SMTP_TEXT_NOT_KEPT = '(delivered by SMTP; the text is not kept)';

// nodemailer waits minutes by default; a request waiting on the mail server should give up sooner.
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function createMailer(deps: MailerDeps): Mailer {
  return deps.smtpUrl ? createSmtpMailer(deps, deps.smtpUrl) : createOutboxMailer(deps);
}

function createOutboxMailer({ db, log }: MailerDeps): Mailer {
  return {
    transport: 'outbox',
    async send(message) {
      await keepMail(db, message, 'outbox');
      log.info({ mail: { to: message.to, subject: message.subject, text: message.text } }, 'mail kept in the outbox');
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
      try {
        await transporter.sendMail({ from, ...message });
      } catch (error) {
        const { code, message: reason } = error as { code?: string; message?: string };
        log.error({ to: message.to, code, reason }, 'mail not sent');
        throw new AppError(503, 'mail_unavailable', MSG.mailUnavailable);
      }
      // The mail server has it: keep who got what, not the text (it may carry a recovery code).
      await keepMail(db, { to: message.to, subject: message.subject, text: SMTP_TEXT_NOT_KEPT }, 'smtp');
    },
    close() {
      transporter.close();
    },
  };
}
