// `npm run cli -- copy-database --to URL`: the whole database the settings name, copied into an empty database of
// the other kind (SQLite to PostgreSQL, or back), so that an owner can move without losing anything. The target gets
// the same migrations; every table of schema.ts comes over in foreign-key order, in batches read by primary key,
// with its ids; the copy is one transaction on the target, checked table by table against the source's counts.
import { type Kysely, type Transaction, sql } from 'kysely';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { migrateToLatest, openDatabase } from '../database/connect.ts';
import { isPostgres } from '../database/dialect.ts';
import type { Database } from '../database/schema.ts';
import type { DatabaseSettings } from '../settings.ts';

/** A refusal or failure the operator reads: printed without a stack, exit status 1. */
export class CopyError extends Error {}

interface TableCopy {
  name: keyof Database;
  /** The primary key, read in order: the batches are pages of it. */
  key: readonly string[];
  /** An `id` filled by a sequence (serial on PostgreSQL, AUTOINCREMENT on SQLite), carried over past the copy. */
  serial?: boolean;
  /** Rows per batch; textures carry their PNG (TEXTURE_STORE=database), so fewer of them at once. */
  batch?: number;
}

/**
 * Every table, parents before children. users.selected_skin_id/selected_cape_id and skins.user_id point at each
 * other: users come first without their choices, which are set once skins and capes are there (SELECTIONS).
 */
export const TABLES = [
  { name: 'deployment', key: ['id'] },
  { name: 'users', key: ['id'], serial: true },
  { name: 'textures', key: ['digest'], batch: 100 },
  { name: 'capes', key: ['id'], serial: true },
  { name: 'skins', key: ['id'], serial: true },
  { name: 'cape_owners', key: ['cape_id', 'user_id'] },
  { name: 'profiles', key: ['id'], serial: true },
  { name: 'sessions', key: ['id'], serial: true },
  { name: 'mail_codes', key: ['id'], serial: true },
  { name: 'role_grants', key: ['id'], serial: true },
  { name: 'audit_log', key: ['id'], serial: true },
  { name: 'broadcasts', key: ['id'], serial: true },
  { name: 'mail_outbox', key: ['id'], serial: true },
  { name: 'signing_keys', key: ['name'] },
  { name: 'player_certificates', key: ['id'], serial: true },
  { name: 'oauth_clients', key: ['id'] },
  { name: 'oauth_subjects', key: ['user_id'] },
  { name: 'oauth_grants', key: ['id'], serial: true },
  { name: 'oauth_models', key: ['id'] },
  { name: 'game_tokens', key: ['id'], serial: true },
  { name: 'game_joins', key: ['profile_id'] },
  { name: 'launcher_sessions', key: ['id'], serial: true },
  { name: 'hwids', key: ['id'], serial: true },
  { name: 'hwidlog', key: ['id'], serial: true },
  { name: 'hardware_users', key: ['hardware_id', 'user_id'] },
  { name: 'two_factor', key: ['user_id'] },
  { name: 'two_factor_recovery', key: ['id'], serial: true },
  { name: 'app_passwords', key: ['id'], serial: true },
  { name: 'passkeys', key: ['id'], serial: true },
  { name: 'passkey_challenges', key: ['id'], serial: true },
  { name: 'console_settings', key: ['name'] },
  { name: 'invites', key: ['id'], serial: true },
  { name: 'discord_states', key: ['state_hash'] },
  { name: 'discord_login_codes', key: ['code_hash'] },
  { name: 'import_map', key: ['source', 'kind', 'source_id'] },
  { name: 'library_entries', key: ['id'], serial: true },
  { name: 'library_saves', key: ['entry_id', 'user_id'] },
  { name: 'texture_blocks', key: ['digest'] },
  { name: 'game_bans', key: ['id'], serial: true },
  { name: 'game_preferences', key: ['profile_id'] },
  { name: 'oidc_identities', key: ['id'], serial: true },
  { name: 'blocked_servers', key: ['id'], serial: true },
  { name: 'player_blocks', key: ['user_id', 'profile_id'] },
  { name: 'friendships', key: ['low_profile_id', 'high_profile_id'] },
  { name: 'friend_preferences', key: ['profile_id'] },
  // Reports from the game and forced actions (gamerep, migration 029).
  { name: 'certified_chat_keys', key: ['id'], serial: true },
  { name: 'game_reports', key: ['id'], serial: true },
  { name: 'forced_profile_actions', key: ['id'], serial: true },
  { name: 'oidc_registrations', key: ['id'], serial: true },
  { name: 'reports', key: ['id'], serial: true },
  { name: 'premium_links', key: ['id'], serial: true },
] as const satisfies readonly TableCopy[];

// A table added to schema.ts and not to TABLES fails to compile here (and the target's tables are checked at run time).
type Unlisted = Exclude<keyof Database, (typeof TABLES)[number]['name']>;
const everyTableListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyTableListed;

/** Columns written after every table is there, because the rows they point at come later. */
const SELECTIONS = { table: 'users', columns: ['selected_skin_id', 'selected_cape_id'] } as const;

const BATCH = 1000;
/** Bound parameters per INSERT: below SQLite's 32766 and PostgreSQL's 65535. */
const PARAMETERS_PER_INSERT = 30_000;

/** The database `--to` names: postgres://… or sqlite:PATH, as DATABASE_URL is written. */
export function targetOf(url: string | undefined): DatabaseSettings {
  if (!url) throw new CopyError('copy-database needs --to postgres://user@host:port/database or --to sqlite:path/to/file.sqlite');
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  const file = /^sqlite:/.test(url) ? url.replace(/^sqlite:(\/\/)?/, '') : '';
  if (file !== '' && file !== ':memory:') return { kind: 'sqlite', file: resolve(file) };
  throw new CopyError(`--to ${JSON.stringify(url)}: give postgres://user@host:port/database or sqlite:path/to/file.sqlite`);
}

/** The database for people to read: a PostgreSQL URL without its password. */
export function describeDatabase(settings: DatabaseSettings): string {
  if (settings.kind === 'sqlite') return `sqlite:${settings.file}`;
  try {
    const url = new URL(settings.url);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'postgres://…';
  }
}

type Any = Kysely<any>;

/** Copies everything in `source` (the configured database, migrated) into the empty database `targetSettings`. */
export async function copyDatabase(
  source: Kysely<Database>,
  sourceSettings: DatabaseSettings,
  targetSettings: DatabaseSettings,
  print: (line: string) => void,
): Promise<void> {
  if (describeDatabase(sourceSettings) === describeDatabase(targetSettings)) {
    throw new CopyError('--to names the database the settings already use; name the new, empty database');
  }
  const to = describeDatabase(targetSettings);
  if (targetSettings.kind === 'sqlite') refuseFilledSqlite(targetSettings.file, to);
  const target = openDatabase(targetSettings) as Kysely<any>;
  try {
    let before: string[];
    try {
      before = await tablesOf(target);
    } catch (error) {
      throw new CopyError(`Could not open ${to}: ${(error as Error).message}`);
    }
    const filled: string[] = [];
    for (const table of before) {
      if (isBookkeeping(table) || table === 'deployment') continue; // migration 014 writes deployment's one row
      const rows = await countOf(target, table);
      if (rows > 0) filled.push(`${table} (${rows} rows)`);
    }
    if (filled.length > 0) throw notEmpty(to, filled);
    await migrateToLatest(target).catch((error: unknown) => {
      throw new CopyError(`Could not create the tables in ${to}: ${(error as Error).message}`);
    });
    const unknown = (await tablesOf(target)).filter((table) => !isBookkeeping(table) && !TABLES.some(({ name }) => name === table));
    if (unknown.length > 0) throw new CopyError(`copy-database does not know the tables ${unknown.join(', ')}; nothing was copied`);

    print(`Copying ${describeDatabase(sourceSettings)} to ${to}`);
    const counts = await readSnapshot(source, (from) =>
      target.transaction().execute(async (trx) => copyAll(from, trx, isPostgres(target))),
    ).catch((error: unknown) => {
      if (error instanceof CopyError) throw error;
      throw new CopyError(`The copy failed and was undone (${to} has the tables, and no rows): ${(error as Error).message}`);
    });

    const width = Math.max(...TABLES.map(({ name }) => name.length));
    for (const { name } of TABLES) print(`  ${name.padEnd(width)}  ${counts.rows.get(name)}`);
    const total = [...counts.rows.values()].reduce((sum, rows) => sum + rows, 0);
    print(`Copied ${total} rows in ${TABLES.length} tables; every table has as many rows as in the source.`);
    if (counts.textureFiles > 0) {
      print(
        `${counts.textureFiles} textures keep their PNG files in DATA_DIR/textures (TEXTURE_STORE=files): only their rows ` +
          'were copied, so start the service on the copy with the same DATA_DIR.',
      );
    }
    print('Next: point DATABASE_URL at the new database and start the service, with the same DATA_DIR, JWT_SECRET and TOTP_KEY.');
  } finally {
    await target.destroy();
  }
}

const notEmpty = (to: string, filled: string[]) =>
  new CopyError(
    `${to} is not empty: ${filled.join(', ')}. copy-database copies only into an empty database, so that nothing is ` +
      'mixed or overwritten: create a new database (createdb) or name a new SQLite file. Nothing was changed.',
  );

/** An existing SQLite file is looked at read-only first: opening it for the copy would switch it to WAL. */
function refuseFilledSqlite(file: string, to: string) {
  if (!existsSync(file)) return;
  let connection: SQLite.Database | undefined;
  try {
    connection = new SQLite(file, { readonly: true, fileMustExist: true });
    const tables = connection.prepare("select name from sqlite_master where type = 'table'").pluck().all() as string[];
    const filled = tables
      .filter((table) => !isBookkeeping(table) && table !== 'deployment')
      .map(
        (table) =>
          [
            table,
            connection!
              .prepare(`select count(*) from "${table.replaceAll('"', '""')}"`)
              .pluck()
              .get() as number,
          ] as const,
      )
      .filter(([, rows]) => rows > 0)
      .map(([table, rows]) => `${table} (${rows} rows)`);
    if (filled.length > 0) throw notEmpty(to, filled);
  } catch (error) {
    if (error instanceof CopyError) throw error;
    throw new CopyError(`Could not open ${to}: ${(error as Error).message}. Nothing was changed.`);
  } finally {
    connection?.close();
  }
}

/** Runs `work` in one snapshot of the source, so that the copy and its counts agree even if something writes. */
async function readSnapshot<T>(source: Kysely<Database>, work: (from: Any) => Promise<T>): Promise<T> {
  const begin = source.transaction();
  // SQLite's read transaction in WAL mode is a snapshot by itself.
  return (isPostgres(source) ? begin.setIsolationLevel('repeatable read').setAccessMode('read only') : begin).execute(work);
}

async function copyAll(from: Any, to: Transaction<any>, toPostgres: boolean) {
  await to.deleteFrom('deployment').execute();
  for (const table of TABLES) {
    const nulled: readonly string[] = table.name === SELECTIONS.table ? SELECTIONS.columns : [];
    await forEachBatch(from, table.name, table.key, 'batch' in table ? table.batch : BATCH, async (rows) => {
      const converted = rows.map((row) => rowFor(table.name, row, toPostgres));
      for (const row of converted) for (const column of nulled) row[column] = null;
      const columns = Object.keys(converted[0]!).length;
      const chunk = Math.max(1, Math.floor(PARAMETERS_PER_INSERT / columns));
      for (let start = 0; start < converted.length; start += chunk) {
        await to
          .insertInto(table.name)
          .values(converted.slice(start, start + chunk))
          .execute();
      }
    });
  }
  // The choices users.selected_* left out: every skin and cape is there now.
  const chosen = (db: Any) =>
    db
      .selectFrom(SELECTIONS.table)
      .where((eb: any) => eb.or(SELECTIONS.columns.map((column) => eb(column, 'is not', null))))
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
  await forEachBatch(from, SELECTIONS.table, ['id'], BATCH, async (rows) => {
    for (const row of rows) {
      if (SELECTIONS.columns.every((column) => row[column] === null)) continue;
      const set = Object.fromEntries(SELECTIONS.columns.map((column) => [column, row[column]]));
      await to.updateTable(SELECTIONS.table).set(set).where('id', '=', row.id).execute();
    }
  });

  const rows = new Map<string, number>();
  const differ: string[] = [];
  for (const { name } of TABLES) {
    const [had, has] = [await countOf(from, name), await countOf(to, name)];
    rows.set(name, has);
    if (had !== has) differ.push(`${name}: ${had} in the source, ${has} in the copy`);
  }
  const [hadChosen, hasChosen] = [Number((await chosen(from)).n), Number((await chosen(to)).n)];
  if (hadChosen !== hasChosen) differ.push(`users with a chosen skin or cape: ${hadChosen} in the source, ${hasChosen} in the copy`);
  if (differ.length > 0) throw new CopyError(`The copy does not match the source (${differ.join('; ')}); it was undone`);

  // Last, right before the commit: PostgreSQL's sequences do not roll back.
  for (const table of TABLES) if ('serial' in table) await carrySequence(from, to, table.name, toPostgres);

  const textureFiles = await from
    .selectFrom('textures')
    .where('data', 'is', null)
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  return { rows, textureFiles: Number(textureFiles.n) };
}

/** Calls `copy` with the rows of `table` in pages of `size`, in primary-key order: memory stays bounded. */
async function forEachBatch(
  from: Any,
  table: string,
  key: readonly string[],
  size: number,
  copy: (rows: Record<string, any>[]) => Promise<void>,
) {
  let after: unknown[] | null = null;
  for (;;) {
    let query = from.selectFrom(table).selectAll();
    if (after) {
      const columns = sql.join(key.map((column) => sql.ref(column)));
      query = query.where(sql<boolean>`(${columns}) > (${sql.join(after)})`);
    }
    for (const column of key) query = query.orderBy(column);
    const rows = (await query.limit(size).execute()) as Record<string, any>[];
    if (rows.length === 0) return;
    await copy(rows);
    if (rows.length < size) return;
    const last = rows[rows.length - 1]!;
    after = key.map((column) => last[column]);
  }
}

/** What differs between the two databases' values: GravitLauncher's flags, and users.hwid_id's type. */
function rowFor(table: string, row: Record<string, any>, toPostgres: boolean): Record<string, any> {
  const copy: Record<string, any> = {};
  for (const [column, value] of Object.entries(row)) {
    // hwids.battery/banned: boolean on PostgreSQL, 0/1 on SQLite (migration 005); SQLite binds no booleans.
    if (table === 'hwids' && (column === 'battery' || column === 'banned') && value !== null) {
      copy[column] = toPostgres ? Boolean(Number(value)) : value === true || Number(value) === 1 ? 1 : 0;
    } else if (table === 'users' && column === 'hwid_id' && toPostgres && (value === '' || value === null)) {
      copy[column] = null; // bigint on PostgreSQL, text on SQLite: '' was "none", as migration 005 read it
    } else if (typeof value === 'boolean' && !toPostgres) {
      copy[column] = value ? 1 : 0;
    } else copy[column] = value;
  }
  return copy;
}

/** The next id of the copy follows the source's: an id used once (a session since removed) is not given again. */
async function carrySequence(from: Any, to: Transaction<any>, table: string, toPostgres: boolean) {
  const maxOf = async (db: Any) =>
    Number((await sql<{ n: number | null }>`select max(id) as n from ${sql.table(table)}`.execute(db)).rows[0]?.n ?? 0);
  const used = Math.max(await sequenceOf(from, table), await maxOf(to));
  if (toPostgres) {
    if (used > 0) await sql`select setval(pg_get_serial_sequence(${table}, 'id'), ${used})`.execute(to);
  } else {
    await sql`delete from sqlite_sequence where name = ${table}`.execute(to);
    if (used > 0) await sql`insert into sqlite_sequence (name, seq) values (${table}, ${used})`.execute(to);
  }
}

/** The last id the source's sequence gave (0 when none). */
async function sequenceOf(db: Any, table: string): Promise<number> {
  if (isPostgres(db as Kysely<any>)) {
    const named = await sql<{ name: string | null }>`select pg_get_serial_sequence(${table}, 'id') as name`.execute(db);
    const name = named.rows[0]?.name;
    if (!name) return 0;
    // The name comes from PostgreSQL itself, quoted as it needs to be.
    const state = await sql<{ last_value: number; is_called: boolean }>`select last_value, is_called from ${sql.raw(name)}`.execute(db);
    const { last_value, is_called } = state.rows[0]!;
    return is_called ? Number(last_value) : 0;
  }
  const row = (await sql<{ seq: number }>`select seq from sqlite_sequence where name = ${table}`.execute(db)).rows[0];
  return Number(row?.seq ?? 0);
}

/** The tables of the database (PostgreSQL: of its current schema). */
async function tablesOf(db: Kysely<any>): Promise<string[]> {
  const query = isPostgres(db)
    ? sql<{ name: string }>`select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE'`
    : sql<{ name: string }>`select name from sqlite_master where type = 'table'`;
  return (await query.execute(db)).rows.map((row) => row.name);
}

/** Kysely's migration tables and SQLite's own (sqlite_sequence): not the service's data. */
const isBookkeeping = (table: string) => table.startsWith('kysely_') || table.startsWith('sqlite_');

async function countOf(db: Any, table: string): Promise<number> {
  return Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]!.n);
}
