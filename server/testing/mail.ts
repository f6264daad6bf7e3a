/** Mail in tests: a real SMTP server on a random local port that keeps what it accepts, and readers. */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as it came over the wire, headers and body. */
  raw: string;
}

export interface SmtpSink {
  url: string;
  received: ReceivedMail[];
  /** Stops listening; calling it again is harmless. */
  close(): Promise<void>;
}

/** `starttls` offers STARTTLS with smtp-server's built-in certificate, which no client trusts. */
export async function startSmtpSink(options: { starttls?: boolean } = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    logger: false,
    disabledCommands: options.starttls ? [] : ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const { mailFrom, rcptTo } = session.envelope;
        received.push({
          from: mailFrom ? mailFrom.address : '',
          to: rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => (closed ??= new Promise<void>((resolve) => server.close(() => resolve()))),
  };
}

/** The body of a raw message (after the header block). */
export const bodyOf = (raw: string) => raw.slice(raw.indexOf('\r\n\r\n') + 4);

/** The six-digit recovery code of a mail text (it stands on a line of its own). */
export function recoveryCodeIn(text: string): string {
  const code = /^(\d{6})\r?$/m.exec(text)?.[1];
  if (!code) throw new Error(`no recovery code in: ${text}`);
  return code;
}
