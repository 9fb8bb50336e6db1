// Drasl (unmojang/drasl: sql/*.sql, db.go's migrations up to user_version 6, model.go): its SQLite file drasl.db with
// `users` (the account: `username` for the web, scrypt `password_salt`/`password_hash`, `is_admin`, `is_locked`,
// `max_player_count`) and `players` (each with its UUID, name, `created_at`, `skin_hash`, `skin_model`, `cape_hash`).
// Files: DIR/skin/{hash}.png and DIR/cape/{hash}.png, DIR being Drasl's StateDirectory. Drasl keeps no mail address:
// the accounts come in without one and log in with a player name. Invites, OIDC identities, fallback players and
// tokens (`clients`, the users' token columns) do not come over.
import { join } from 'node:path';
import { normalizeUuid } from '../../accounts/identifiers.ts';
import { taggedHash } from '../../accounts/imported-passwords.ts';
import type { ImportedAccount, ImportedCape, ImportedProfile, ImportedSkin, LeftOut, SourceReader } from '../model.ts';
import { unusablePassword } from '../passwords.ts';
import { BATCH_SIZE, type ImportOptions } from '../options.ts';
import { SourceError, type SourceDb } from '../source-db.ts';
import { fileReader } from './files.ts';

/** Drasl's `max_player_count`: -1 unlimited, -2 its DefaultMaxPlayerCount (our MAX_PROFILES: null). */
const UNLIMITED = -1;
const USE_DEFAULT = -2;
/** The largest own profile limit the admin API sets (src/admin/routes.ts). */
const MAX_OWN_LIMIT = 1000;
/** Drasl's texture hashes: hex (BLAKE3 up to database version 5, SHA-256 from 6); file names are built from them. */
const HASH = /^[0-9a-f]{16,128}$/i;

interface UserRow {
  uuid: string;
  username: string;
  password_salt: unknown;
  password_hash: unknown;
  is_admin: unknown;
  is_locked: unknown;
  max_player_count?: number | null;
}

interface PlayerRow {
  uuid: string;
  name: string;
  created_at: unknown;
  skin_hash: string | null;
  skin_model: string | null;
  cape_hash: string | null;
  user_uuid: string;
}

export function draslReader(source: SourceDb, options: ImportOptions): SourceReader {
  const file = fileReader(options.textures);
  return {
    async capes() {
      if (!(await source.hasTable('players')) || !(await source.hasTable('users')))
        throw new SourceError(
          '--from: no Drasl users and players tables: give the drasl.db of Drasl 3.0 or later (an older Drasl upgrades the file when it starts)',
        );
      const rows = await source.rows<{ cape_hash: string }>(
        "SELECT DISTINCT cape_hash FROM players WHERE cape_hash IS NOT NULL AND cape_hash <> '' ORDER BY cape_hash",
      );
      return new Map<string, ImportedCape>(
        rows
          .filter((row) => HASH.test(row.cape_hash))
          .map((row) => [
            row.cape_hash,
            { key: row.cape_hash, name: `Cape ${row.cape_hash.slice(0, 8)}`, file: file(join('cape', `${row.cape_hash}.png`)) },
          ]),
      );
    },
    async *accounts() {
      const limits = await source.hasColumn('users', 'max_player_count');
      const columns = `uuid, username, password_salt, password_hash, is_admin, is_locked${limits ? ', max_player_count' : ''}`;
      let after = '';
      for (;;) {
        const users = await source.rows<UserRow>(`SELECT ${columns} FROM users WHERE uuid > ? ORDER BY uuid LIMIT ?`, [after, BATCH_SIZE]);
        if (users.length === 0) return;
        after = users.at(-1)!.uuid;
        yield await batchOf(source, users, file);
      }
    },
  };
}

async function batchOf(source: SourceDb, users: UserRow[], file: ReturnType<typeof fileReader>) {
  const players = await source.rows<PlayerRow>(
    `SELECT uuid, name, created_at, skin_hash, skin_model, cape_hash, user_uuid FROM players
     WHERE user_uuid IN (${users.map(() => '?').join(', ')})`,
    users.map((user) => user.uuid),
  );
  const accounts: ImportedAccount[] = [];
  const leftOut: LeftOut[] = [];
  for (const user of users) {
    const label = user.username;
    // The oldest player first: it becomes the primary profile.
    const own = players
      .filter((player) => player.user_uuid === user.uuid)
      .map((player) => ({ ...player, created: createdAt(player.created_at) }))
      .sort((a, b) => a.created - b.created || String(a.created_at).localeCompare(String(b.created_at)) || a.uuid.localeCompare(b.uuid));
    const profiles: ImportedProfile[] = [];
    const skins: ImportedSkin[] = [];
    const capes = new Set<string>();
    for (const player of own) {
      const uuid = normalizeUuid(player.uuid);
      if (!uuid) {
        leftOut.push({ kind: 'profile', source_id: player.uuid, name: player.name, reason: 'not a UUID' });
        continue;
      }
      const skinHash = player.skin_hash && HASH.test(player.skin_hash) ? player.skin_hash : null;
      const capeHash = player.cape_hash && HASH.test(player.cape_hash) ? player.cape_hash : null;
      // Keyed by the player: two players of an account may wear the same file (one wardrobe item each, by name).
      if (skinHash)
        skins.push({ key: uuid, name: player.name, slim: player.skin_model === 'slim', file: file(join('skin', `${skinHash}.png`)) });
      if (capeHash) capes.add(capeHash);
      profiles.push({ uuid, name: player.name, skinKey: skinHash ? uuid : null, capeKey: capeHash });
    }
    if (profiles.length === 0) {
      leftOut.push({
        kind: 'account',
        source_id: user.uuid,
        name: label,
        reason: 'no players: without a mail address or a player name it could not log in here',
      });
      continue;
    }
    // The web login name of Drasl is kept only when it is one of the players' names (those are the logins here).
    if (!profiles.some((profile) => profile.name.toLowerCase() === label.toLowerCase()))
      leftOut.push({
        kind: 'profile',
        source_id: user.uuid,
        name: label,
        reason: `the Drasl username is no player's name and is not kept: the account logs in with ${profiles.map((p) => p.name).join(', ')}`,
      });
    const password = passwordOf(user);
    if (!password) leftOut.push({ kind: 'password', source_id: user.uuid, name: label, reason: 'no password in Drasl (an OIDC login)' });
    const first = own.find((player) => Number.isFinite(player.created));
    accounts.push({
      key: user.uuid,
      label,
      mail: null,
      verified: true,
      level: flag(user.is_locked) ? -1 : flag(user.is_admin) ? 2 : 0,
      password: password ?? unusablePassword('no password in Drasl'),
      ...(first ? { createdAt: first.created } : {}),
      profiles,
      skins,
      capes: [...capes],
      maxProfiles: ownLimit(user.max_player_count),
    });
  }
  return { accounts, leftOut };
}

/** Drasl's bools (gorm on SQLite: 1 and 0). */
const flag = (value: unknown) => value === 1 || value === 1n || value === true || value === '1' || value === 'true';

/** scrypt N=32768, r=8, p=1 over the raw salt bytes, a 32-byte key (model.go HashPassword); null when there is none. */
function passwordOf(user: UserRow): string | null {
  const salt = bytes(user.password_salt);
  const hash = bytes(user.password_hash);
  if (!salt || !hash || salt.length === 0 || hash.length === 0) return null;
  try {
    return taggedHash('scrypt', `${salt.toString('base64')}:${hash.toString('base64')}`);
  } catch {
    return null;
  }
}

const bytes = (value: unknown) => (value instanceof Uint8Array ? Buffer.from(value) : null);

/** `max_player_count` as our own profile limit: -2 (Drasl's default) → null (MAX_PROFILES), -1 unlimited, else n. */
function ownLimit(value: number | null | undefined): number | null {
  if (value === null || value === undefined || value === USE_DEFAULT || !Number.isInteger(Number(value))) return null;
  const limit = Number(value);
  if (limit === UNLIMITED) return UNLIMITED;
  return limit < 0 ? null : Math.min(limit, MAX_OWN_LIMIT);
}

/**
 * Unix milliseconds of a Drasl time: Go's SQLite driver writes `2006-01-02 15:04:05.999999999-07:00`; times in other
 * zones compare right only once parsed. Unknown: +Infinity (sorted last).
 */
function createdAt(value: unknown): number {
  if (typeof value === 'number') return value > 1e11 ? value : value * 1000;
  if (typeof value !== 'string') return Number.POSITIVE_INFINITY;
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d+))?\s*(Z|[+-]\d{2}:?\d{2})?/.exec(value.trim());
  if (!match) return Number.POSITIVE_INFINITY;
  const [, date, time, fraction = '', zone = 'Z'] = match;
  const parsed = Date.parse(
    `${date}T${time}.${fraction.padEnd(3, '0').slice(0, 3)}${zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone}`,
  );
  return Number.isNaN(parsed) ? Number.POSITIVE_INFINITY : parsed;
}
