// The line a person reads once the service listens: where to open it, which database it uses, where its mail goes,
// and how to make the first owner while there is none. Never a secret: the database and SMTP URLs are shown without their user names, passwords and query strings.
import { join } from 'node:path';
import type { OwnerAtStart } from './accounts/owner.ts';
import type { DatabaseSettings, Settings } from './settings.ts';

/**
 * `port`: the port the service listens on (PORT=0 picks one, so the address is known only after listening); `owner`:
 * whether an owner account exists (app.ownerAtStart).
 */
export function startLine(settings: Settings, port: number, owner: OwnerAtStart): string {
  // Without PUBLIC_URL the address is this machine's, at the port actually listened on.
  const address = settings.publicUrl === `http://localhost:${settings.port}` ? `http://localhost:${port}` : settings.publicUrl;
  return (
    `open ${address}/ (the game login players add to their launchers: ${address}/api/yggdrasil/); ` +
    `database: ${describeDatabase(settings.database)}; mail: ${describeMail(settings)}${OWNER_NOTES[owner]}`
  );
}

const OWNER_NOTES: Record<OwnerAtStart, string> = {
  none:
    '; no owner yet: set OWNER_USERNAME, OWNER_MAIL and OWNER_PASSWORD in .env and start again ' +
    '(an account with that mail becomes the owner), or run npm run cli -- set-perms NAME 3',
  'from-settings': '; the owner account exists: OWNER_PASSWORD may now be removed from .env',
  exists: '',
};

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
