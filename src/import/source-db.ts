// The source database of an import, only read: MySQL and MariaDB (mysql2), PostgreSQL (pg) and SQLite
// (better-sqlite3), behind one small interface. Queries are written with `?` placeholders and plain lower-case names,
// which all three read alike. Values come as each driver reads them, with two rules made alike on every kind: a
// 64-bit integer that a number would round (a Discord id) arrives as its exact decimal string (MySQL's and
// PostgreSQL's bigint columns always do), and a binary column (blob, bytea) as a Buffer, so that a reader tells bytes
// from text by the value.
import Database from 'better-sqlite3';
import { createConnection, type Connection } from 'mysql2/promise';
import pg from 'pg';

export interface SourceDb {
  /** The source named without its password: what the import map and the report remember it by. */
  name: string;
  rows<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** A column or table name quoted for this database: needed for mixed-case names such as CookieCMS's `hwidId`. */
  quote(name: string): string;
  hasTable(table: string): Promise<boolean>;
  hasColumn(table: string, column: string): Promise<boolean>;
  close(): Promise<void>;
}

export class SourceError extends Error {}

/** Opens `url` (mysql://, postgres:// or sqlite:PATH) read-only; a bad or unreachable source is a SourceError. */
export async function openSource(url: string): Promise<SourceDb> {
  try {
    if (/^mysql:\/\//.test(url) || /^mariadb:\/\//.test(url)) return await openMysql(url.replace(/^mariadb:/, 'mysql:'));
    if (/^postgres(ql)?:\/\//.test(url)) return await openPostgres(url);
    if (/^sqlite:/.test(url)) return openSqlite(url.replace(/^sqlite:(\/\/)?/, ''));
  } catch (error) {
    throw new SourceError(`--from: cannot open the source database (${(error as Error).message})`);
  }
  throw new SourceError('--from: give mysql://user:password@host:port/database, postgres://… or sqlite:PATH');
}

const withoutPassword = (url: string) => {
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.toString();
};

async function openMysql(url: string): Promise<SourceDb> {
  // Ids such as Discord's are 64-bit: read big numbers as strings, never rounded.
  const connection: Connection = await createConnection({ uri: url, supportBigNumbers: true, bigNumberStrings: true, dateStrings: true });
  await connection.query('SET SESSION TRANSACTION READ ONLY');
  const one = async <T>(sql: string, params: unknown[] = []) => (await connection.query(sql, params))[0] as T[];
  return {
    name: withoutPassword(url),
    rows: one,
    quote: (name) => `\`${name.replaceAll('`', '``')}\``,
    hasTable: async (table) =>
      (await one('SELECT 1 FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?', [table])).length > 0,
    hasColumn: async (table, column) =>
      (
        await one('SELECT 1 FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? AND column_name = ?', [
          table,
          column,
        ])
      ).length > 0,
    close: () => connection.end(),
  };
}

const INT8 = pg.types.builtins.INT8;
const asText = (value: string) => value;
const SOURCE_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 && format !== 'binary' ? asText : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

async function openPostgres(url: string): Promise<SourceDb> {
  // Its own type parsers: int8 as the text PostgreSQL sends, whatever the service's own connections read it as.
  const client = new pg.Client({ connectionString: url, types: SOURCE_TYPES });
  await client.connect();
  await client.query('SET default_transaction_read_only = on');
  const one = async <T>(sql: string, params: unknown[] = []) => {
    let index = 0;
    return (
      await client.query(
        sql.replace(/\?/g, () => `$${(index += 1)}`),
        params,
      )
    ).rows as T[];
  };
  return {
    name: withoutPassword(url),
    rows: one,
    quote: (name) => `"${name.replaceAll('"', '""')}"`,
    hasTable: async (table) => (await one('SELECT 1 FROM information_schema.tables WHERE table_name = ?', [table])).length > 0,
    hasColumn: async (table, column) =>
      (await one('SELECT 1 FROM information_schema.columns WHERE table_name = ? AND column_name = ?', [table, column])).length > 0,
    close: () => client.end(),
  };
}

function openSqlite(path: string): SourceDb {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  // Integers as BigInt, then as numbers where a double holds them exactly and as decimal strings beyond, as mysql2's
  // supportBigNumbers reads them: SQLite keeps 64-bit integers, which a plain number would round.
  db.defaultSafeIntegers(true);
  const one = async <T>(sql: string, params: unknown[] = []) =>
    (db.prepare(sql).all(...params) as Record<string, unknown>[]).map(exactIntegers) as T[];
  return {
    name: `sqlite:${path}`,
    rows: one,
    quote: (name) => `"${name.replaceAll('"', '""')}"`,
    hasTable: async (table) => (await one("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [table])).length > 0,
    hasColumn: async (table, column) =>
      (await one<{ name: string }>(`SELECT name FROM pragma_table_info(?)`, [table])).some((row) => row.name === column),
    close: async () => {
      db.close();
    },
  };
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function exactIntegers(row: Record<string, unknown>): Record<string, unknown> {
  for (const [column, value] of Object.entries(row)) {
    if (typeof value === 'bigint') row[column] = value <= SAFE && value >= -SAFE ? Number(value) : value.toString();
  }
  return row;
}
