// The line a person reads once the service listens: where to open it, which database it uses and where its mail goes.
// Never a secret: the database and SMTP URLs are shown without their user names, passwords and query strings.
import { join } from 'node:path';
import type { DatabaseSettings, Settings } from './settings.ts';

/** `port`: the port the service listens on (PORT=0 picks one, so the address is known only after listening). */
export function startLine(settings: Settings, port: number): string {
  // Without PUBLIC_URL the address is this machine's, at the port actually listened on.
  const address = settings.publicUrl === `http://localhost:${settings.port}` ? `http://localhost:${port}` : settings.publicUrl;
  return (
    `open ${address}/ (the game login players add to their launchers: ${address}/api/yggdrasil/); ` +
    `database: ${describeDatabase(settings.database)}; mail: ${describeMail(settings)}`
  );
}

function describeDatabase(database: DatabaseSettings): string {
  if (database.kind === 'sqlite') return `SQLite file ${database.file}`;
  const url = parsed(database.url);
  if (!url) return 'PostgreSQL';
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  return `PostgreSQL${name ? ` database ${name}` : ''} on ${url.host || 'the local socket'}`;
}

function describeMail(settings: Settings): string {
  if (settings.smtpUrl === null) {
    return `written to ${join(settings.dataDir, 'outbox')} as .eml files, not sent (set SMTP_URL to send it)`;
  }
  const url = parsed(settings.smtpUrl);
  return `sent through the SMTP server ${url?.host ?? '(SMTP_URL)'}`;
}

function parsed(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}
