// A real SMTP server in the test process; tests read the codes from the mails that arrive.
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Mailbox {
  url: string;
  port: number;
  messages: ParsedMail[];
  /** Resolves with the first mail (old or new) for which `match` holds; fails after `timeoutMs`. */
  waitFor(match: (mail: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

export async function startSmtpServer(port = 0): Promise<Mailbox> {
  const messages: ParsedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // A service's pooled connection may still be open when a test closes the mailbox: cut it rather than wait 30 s.
    closeTimeout: 100,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          messages.push(mail);
          for (const wake of waiters) wake();
          callback();
        },
        (error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actualPort = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${actualPort}`,
    port: actualPort,
    messages,
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match);
          if (!found) return;
          cleanup();
          resolve(found);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no matching mail within ${timeoutMs} ms (${messages.length} mails arrived)`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export const mailTo = (address: string) => (mail: ParsedMail) =>
  (Array.isArray(mail.to) ? mail.to : [mail.to]).some((to) =>
    to?.value.some((entry) => entry.address?.toLowerCase() === address.toLowerCase()),
  );

/**
 * The `code` of a mail's link: the token that confirms by itself (contract section 15b), what following the link
 * sends. In any language of the mail.
 */
export function codeIn(mail: ParsedMail): string {
  const match = /\?code=([2-9A-Z]{26})\b/.exec(mail.text ?? '');
  if (!match) throw new Error(`no link with a code in mail "${mail.subject}"`);
  return match[1]!;
}

/** The short code a mail shows for typing (two groups of five), whole; typed, it needs its mail address or continuation. */
export function typedCodeIn(mail: ParsedMail): string {
  const match = /\b([2-9A-Z]{5})-([2-9A-Z]{5})\b/.exec(mail.text ?? '');
  if (!match) throw new Error(`no code in mail "${mail.subject}"`);
  return `${match[1]}${match[2]}`;
}

/** The link in a mail's text body. */
export function linkIn(mail: ParsedMail): string {
  const match = /open this link: (\S+)/.exec(mail.text ?? '');
  if (!match) throw new Error(`no link in mail "${mail.subject}"`);
  return match[1]!;
}
