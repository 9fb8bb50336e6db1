// Where mail goes: an SMTP server (SMTP_URL), or .eml files in DATA_DIR/outbox when none is configured.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface OutgoingMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** Thrown when retrying cannot help: the server refused the message or the recipient for good (5xx). */
export class PermanentMailError extends Error {}

export function createMailTransport(options: {
  smtpUrl: string | null;
  from: string;
  outboxDir: string;
  log: FastifyBaseLogger;
}): MailTransport {
  return options.smtpUrl ? smtpTransport(options.smtpUrl, options.from) : fileTransport(options.outboxDir, options.from, options.log);
}

function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: 2,
    // A hung server must not hold the worker for minutes: fail fast and let the backoff retry.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  } as nodemailer.TransportOptions);
  return {
    async send(mail) {
      try {
        await transporter.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      } catch (error) {
        const responseCode = (error as { responseCode?: number }).responseCode;
        if (responseCode !== undefined && responseCode >= 500) throw new PermanentMailError((error as Error).message);
        throw error;
      }
    },
    close: () => transporter.close(),
  };
}

function fileTransport(outboxDir: string, from: string, log: FastifyBaseLogger): MailTransport {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await composer.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      await mkdir(outboxDir, { recursive: true });
      const file = join(outboxDir, `${String(mail.id).padStart(8, '0')}.eml`);
      // Written under a temporary name and renamed, so a reader never sees half a mail.
      await writeFile(`${file}.tmp`, info.message as Buffer);
      await rename(`${file}.tmp`, file);
      log.info({ to: mail.to, subject: mail.subject, file }, 'no SMTP_URL set: mail written to file');
    },
    close: () => composer.close(),
  };
}
