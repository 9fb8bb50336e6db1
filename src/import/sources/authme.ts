// AuthMe (AuthMe/AuthMeReloaded, datasource/MySQL.java and settings/properties/DatabaseSettings.java): one table
// (`DataSource.mySQLTablename`, default `authme`) with a row per registered player: `id`, `username` (lower case,
// unique), `realname`, `password`, `salt` only when `mySQLColumnSalt` names a column, `email` (NULL or the placeholder
// `your@email.com` when the player set none), `regdate` (Unix ms), and what stays behind: `ip`, `lastlogin`, `regip`,
// `x`, `y`, `z`, `world`, `yaw`, `pitch`, `isLogged`, `hasSession`, `totp`, the optional player UUID and `premiumUUID`.
// AuthMe servers run in offline mode, so a player's UUID there is the offline UUID of the name: each row becomes an
// account with one profile under that UUID. No textures. The hash method is the server's `passwordHash` (`--hash`).
import { mailKey } from '../../accounts/rules.ts';
import { MAX_PAYLOAD_LENGTH, taggedHash, type ImportedFormat } from '../../accounts/imported-passwords.ts';
import { offlinePlayerUuid } from '../../minecraft/offline-uuid.ts';
import type { ImportedAccount, LeftOut, SourceReader } from '../model.ts';
import { unusablePassword } from '../passwords.ts';
import { BATCH_SIZE, ImportOptionError, type ImportOptions } from '../options.ts';
import type { SourceDb } from '../source-db.ts';

export const DEFAULT_TABLE = 'authme';
/** AuthMe's `PlayerAuth.DB_EMAIL_DEFAULT`: the address of a player who set none. */
const NO_MAIL = 'your@email.com';
/** A table or column name as given on the command line: used in SQL, so nothing but a plain identifier. */
const IDENTIFIER = /^[A-Za-z0-9_]{1,64}$/;

/**
 * AuthMe's `passwordHash` values this importer reads, and how each stored value is checked and tagged. A value that
 * does not fit the method (a legacy format from `legacyHashes`, an empty password) is left unusable and reported.
 */
interface HashMethod {
  /** AuthMe's SALTED2MD5 and SALTEDSHA512 keep the salt in its own column (`mySQLColumnSalt`). */
  separateSalt: boolean;
  /** The stored value (and its salt) as ours, or null when it is not this method's. */
  tag(password: string, salt: string | null): { format: ImportedFormat; payload: string } | null;
}

const HEX = (length: number) => new RegExp(`^[0-9a-fA-F]{${length}}$`);
const SHA256_HEX = HEX(64);
const MD5_HEX = HEX(32);
const SHA512_HEX = HEX(128);
const BCRYPT = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;
const ARGON2 = /^\$argon2(?:i|id)\$(?:v=\d+\$)?m=\d{1,10},t=\d{1,10},p=\d{1,10}\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;
/** The salt bound the credential check keeps (longer salts never verify): refused here already. */
const MAX_SALT = 256;

const bcrypt: HashMethod = {
  separateSalt: false,
  tag: (password) => (BCRYPT.test(password) ? { format: 'bcrypt', payload: password } : null),
};

const separatelySalted =
  (format: ImportedFormat, hex: RegExp): HashMethod['tag'] =>
  (password, salt) =>
    salt !== null && salt !== '' && salt.length <= MAX_SALT && hex.test(password) ? { format, payload: `${salt}:${password}` } : null;

export const HASH_METHODS: Record<string, HashMethod> = {
  // $SHA$<salt>$<sha256hex(sha256hex(p) ‖ salt)> (crypts/Sha256.java: split at '$' into four parts).
  SHA256: {
    separateSalt: false,
    tag(password) {
      const parts = password.split('$');
      if (parts.length !== 4 || parts[0] !== '' || parts[1] !== 'SHA') return null;
      const [, , salt, hex] = parts as [string, string, string, string];
      return salt !== '' && salt.length <= MAX_SALT && SHA256_HEX.test(hex) ? { format: 'authme-sha256', payload: password } : null;
    },
  },
  // $2a$ (BCRYPT) and $2y$ (BCRYPT2Y) are the same algorithm.
  BCRYPT: bcrypt,
  BCRYPT2Y: bcrypt,
  // $argon2i$v=19$m=65536,t=2,p=1$<salt>$<hash> (crypts/Argon2.java).
  ARGON2: {
    separateSalt: false,
    tag: (password) => (ARGON2.test(password) ? { format: 'argon2', payload: password } : null),
  },
  // pbkdf2_sha256$<rounds>$<salt>$<HEX of the 64-byte key> (crypts/Pbkdf2.java: the salt's text is the salt).
  PBKDF2: {
    separateSalt: false,
    tag(password) {
      const parts = password.split('$');
      if (parts.length !== 4 || parts[0] !== 'pbkdf2_sha256') return null;
      const [, rounds, salt, hex] = parts as [string, string, string, string];
      const fits =
        /^[1-9]\d{0,6}$/.test(rounds) &&
        Number(rounds) <= 1_000_000 &&
        salt !== '' &&
        salt.length <= MAX_SALT &&
        /^(?:[0-9a-fA-F]{2}){16,128}$/.test(hex);
      return fits ? { format: 'pbkdf2-sha256', payload: password } : null;
    },
  },
  // md5(md5hex(p) ‖ salt), the salt in the salt column (crypts/Salted2Md5.java).
  SALTED2MD5: { separateSalt: true, tag: separatelySalted('salted2md5', MD5_HEX) },
  // sha512(p ‖ salt), the salt in the salt column (crypts/SaltedSha512.java).
  SALTEDSHA512: { separateSalt: true, tag: separatelySalted('sha512-salted', SHA512_HEX) },
};

export interface AuthMeOptions {
  method: string;
  hash: HashMethod;
  table: string;
  saltColumn: string | null;
}

/** Checks --hash, --table and --salt-column before the import reads or writes anything. */
export function authMeOptions(options: ImportOptions): AuthMeOptions {
  const method = (options.hash ?? 'SHA256').trim().toUpperCase();
  const hash = HASH_METHODS[method];
  if (!hash)
    throw new ImportOptionError(
      `--hash: "${options.hash}" is not an AuthMe passwordHash this import reads: one of ${Object.keys(HASH_METHODS).join(', ')} ` +
        '(legacy formats are not supported)',
    );
  const table = options.table ?? DEFAULT_TABLE;
  if (!IDENTIFIER.test(table)) throw new ImportOptionError(`--table: "${table}" is not a table name (letters, digits and _, at most 64)`);
  const saltColumn = options.saltColumn ?? null;
  if (saltColumn !== null && !IDENTIFIER.test(saltColumn))
    throw new ImportOptionError(`--salt-column: "${saltColumn}" is not a column name (letters, digits and _, at most 64)`);
  if (hash.separateSalt && saltColumn === null)
    throw new ImportOptionError(`--hash ${method} keeps its salts in a column: name it with --salt-column (AuthMe's mySQLColumnSalt)`);
  return { method, hash, table, saltColumn };
}

interface AuthMeRow {
  id: number | string;
  username: string | null;
  realname?: string | null;
  password: string | null;
  email?: string | null;
  regdate?: number | string | null;
  salt?: string | null;
}

export function authMeReader(source: SourceDb, options: ImportOptions): SourceReader {
  const settings = authMeOptions(options);
  const { table, saltColumn } = settings;
  const q = source.quote;
  let columns: string | null = null;

  /** The table and the columns read, checked before anything is written (capes() runs before the first write). */
  async function prepare(): Promise<string> {
    if (columns !== null) return columns;
    if (!(await source.hasTable(table)))
      throw new ImportOptionError(`--table: the source has no table "${table}" (AuthMe's DataSource.mySQLTablename)`);
    for (const column of ['id', 'username', 'password']) {
      if (!(await source.hasColumn(table, column)))
        throw new ImportOptionError(`the table "${table}" has no column "${column}": is it AuthMe's table with its default column names?`);
    }
    if (saltColumn !== null && !(await source.hasColumn(table, saltColumn)))
      throw new ImportOptionError(`--salt-column: the table "${table}" has no column "${saltColumn}"`);
    const optional: string[] = [];
    for (const column of ['realname', 'email', 'regdate']) if (await source.hasColumn(table, column)) optional.push(q(column));
    columns = [q('id'), q('username'), q('password'), ...optional, ...(saltColumn ? [`${q(saltColumn)} AS salt`] : [])].join(', ');
    return columns;
  }

  return {
    async capes() {
      await prepare();
      return new Map();
    },
    async *accounts() {
      const selected = await prepare();
      let after = -1;
      for (;;) {
        const rows = await source.rows<AuthMeRow>(`SELECT ${selected} FROM ${q(table)} WHERE ${q('id')} > ? ORDER BY ${q('id')} LIMIT ?`, [
          after,
          BATCH_SIZE,
        ]);
        if (rows.length === 0) return;
        after = Number(rows.at(-1)!.id);
        yield await batchOf(source, settings, rows);
      }
    },
  };
}

/** The address of a row, or null: none set (NULL, empty, AuthMe's placeholder). The writer checks the rest. */
function mailOf(row: AuthMeRow): string | null {
  const mail = row.email?.trim() ?? '';
  if (mail === '' || mail.toLowerCase() === NO_MAIL) return null;
  return mail;
}

/**
 * The player's name: `realname` (the name in its letter case, which the offline UUID depends on) when it is the
 * `username` in another case, else the `username` (AuthMe writes `Player` as the realname when it knew none).
 */
function nameOf(row: AuthMeRow): string {
  const username = (row.username ?? '').trim();
  const realname = (row.realname ?? '').trim();
  return realname !== '' && realname.toLowerCase() === username.toLowerCase() ? realname : username;
}

async function batchOf(source: SourceDb, settings: AuthMeOptions, rows: AuthMeRow[]) {
  const firstHolders = await firstRowsWithMails(source, settings.table, rows);
  const accounts: ImportedAccount[] = [];
  const leftOut: LeftOut[] = [];
  for (const row of rows) {
    // The table is part of the key: two AuthMe tables of one database (--table) have the same ids.
    const id = `${settings.table}:${row.id}`;
    const name = nameOf(row);
    if (name === '') {
      leftOut.push({ kind: 'account', source_id: id, name: id, reason: 'the AuthMe row has no player name' });
      continue;
    }
    let mail = mailOf(row);
    // AuthMe lets several players give one address (maxRegPerEmail): the oldest keeps it, the others log in by name.
    if (mail !== null && firstHolders.get(mailKey(mail)) !== String(row.id)) mail = null;
    const tagged = row.password ? settings.hash.tag(row.password, row.salt ?? null) : null;
    let password: string;
    if (tagged && tagged.payload.length <= MAX_PAYLOAD_LENGTH) password = taggedHash(tagged.format, tagged.payload);
    else {
      password = unusablePassword(`not AuthMe ${settings.method}`);
      leftOut.push({
        kind: 'password',
        source_id: id,
        name,
        reason: row.password
          ? `not a ${settings.method} hash as AuthMe stores it (a legacy format?): the player resets the password`
          : 'no password in AuthMe: the player resets the password',
      });
    }
    const registered = Number(row.regdate ?? 0);
    accounts.push({
      key: id,
      label: name,
      mail,
      verified: true,
      level: 0,
      password,
      ...(Number.isSafeInteger(registered) && registered > 0 ? { createdAt: registered } : {}),
      profiles: [{ uuid: offlinePlayerUuid(name), name }],
      skins: [],
      capes: [],
    });
  }
  return { accounts, leftOut };
}

/** For each address of the batch, the id of the source's oldest row with it (any letter case). */
async function firstRowsWithMails(source: SourceDb, table: string, rows: AuthMeRow[]): Promise<Map<string, string>> {
  const keys = [
    ...new Set(
      rows
        .map(mailOf)
        .filter((mail): mail is string => mail !== null)
        .map(mailKey),
    ),
  ];
  if (keys.length === 0) return new Map();
  const q = source.quote;
  const key = `LOWER(TRIM(${q('email')}))`;
  const holders = await source.rows<{ mail: string; first: number | string }>(
    `SELECT ${key} AS mail, MIN(${q('id')}) AS ${q('first')} FROM ${q(table)} WHERE ${key} IN (${keys.map(() => '?').join(', ')}) GROUP BY ${key}`,
    keys,
  );
  return new Map(holders.map((holder) => [String(holder.mail), String(holder.first)]));
}
