// Where mail goes: an SMTP server (SMTP_URL), or .eml files in DATA_DIR/outbox when none is configured.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
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
  /** Closes every connection, cutting off a send in progress: its promise then rejects. */
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
  // The pool's close() leaves a connection that is busy sending alone, so a server that stalls would hold a stopping
  // service until the socket timeout. The connections are opened here instead, so that close() can cut them off.
  const sockets = new Set<Socket>();
  // An SMTPPool of our own: nodemailer.createTransport({ url, ... }) keeps only what the URL says and drops the rest.
  const pool = new SMTPPool({
    url,
    pool: true,
    maxConnections: 2,
    // A hung server must not hold the worker for minutes: fail fast and let the backoff retry.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    // With credentials, STARTTLS is a must: else an attacker on the way strips the server's offer and reads the
    // password. `?requireTLS=false` in the URL wins over this (nodemailer lets the URL's options override).
    requireTLS: new URL(url).username !== '',
    getSocket(options, callback) {
      // nodemailer's own defaults; it starts TLS on this socket itself (smtps:// and STARTTLS).
      const socket = connect({ host: options.host ?? 'localhost', port: Number(options.port) || (options.secure ? 465 : 587) });
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      callback(null, { connection: socket });
    },
  });
  const transporter = nodemailer.createTransport(pool);
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
    close() {
      pool.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}

/**
 * A MIME part written as it is (8bit), so that a person reading the .eml file sees the text and its links unchanged.
 * nodemailer itself picks quoted-printable for lines over 76 characters; `raw` (missing from its types) overrides that.
 */
const readablePart = (type: 'plain' | 'html', content: string): Mail.AttachmentLike & { raw: string } => ({
  raw: `Content-Type: text/${type}; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n${content}`,
});

function fileTransport(outboxDir: string, from: string, log: FastifyBaseLogger): MailTransport {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await composer.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: readablePart('plain', mail.text),
        html: readablePart('html', mail.html),
      });
      // The mails hold live codes: readable by the service only.
      await mkdir(outboxDir, { recursive: true, mode: 0o700 });
      const file = join(outboxDir, `${String(mail.id).padStart(8, '0')}.eml`);
      // Written under a temporary name and renamed, so a reader never sees half a mail.
      await writeFile(`${file}.tmp`, info.message as Buffer, { mode: 0o600 });
      await rename(`${file}.tmp`, file);
      // The links too, so that whoever runs the service without SMTP can open them straight from the log.
      const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
      log.info({ to: mail.to, subject: mail.subject, file, links }, 'no SMTP_URL set: mail written to file');
    },
    close: () => composer.close(),
  };
}
