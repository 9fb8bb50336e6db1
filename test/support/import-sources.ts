// A fresh source database for an importer's test on each kind `--from` takes: MariaDB (TEST_MARIADB_URL), PostgreSQL
// (TEST_POSTGRES_URL) and a SQLite file, built with the source project's own DDL and dropped afterwards. Statements
// are written with `?` placeholders on every kind.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createTestDatabase } from './databases.ts';
import { createMariaDbSource, skipWithoutMariaDb } from './mariadb.ts';

export type SourceKind = 'mysql' | 'postgres' | 'sqlite';

export const SOURCE_KINDS: SourceKind[] = ['mysql', 'postgres', 'sqlite'];

/** Why a test on a source of `kind` cannot run here, or false. */
export const skipWithout = (kind: SourceKind): string | false =>
  kind === 'mysql' ? skipWithoutMariaDb : kind === 'postgres' && !process.env.TEST_POSTGRES_URL ? 'set TEST_POSTGRES_URL' : false;

export interface ImportSource {
  /** The URL to give `--from`. */
  url: string;
  /** Runs one statement with `?` parameters (or, without parameters, several separated by `;`). */
  run(sql: string, params?: unknown[]): Promise<void>;
  drop(): Promise<void>;
}

export async function createImportSource(kind: SourceKind, ddl: string): Promise<ImportSource> {
  if (kind === 'mysql') return createMariaDbSource(ddl);
  if (kind === 'postgres') {
    const database = await createTestDatabase('postgres');
    const url = (database.settings as { url: string }).url;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(ddl);
    return {
      url,
      run: async (sql, params = []) => {
        let index = 0;
        await client.query(
          params.length === 0 ? sql : sql.replace(/\?/g, () => `$${(index += 1)}`),
          params.length === 0 ? undefined : params,
        );
      },
      drop: async () => {
        await client.end();
        await database.drop();
      },
    };
  }
  const file = join(mkdtempSync(join(tmpdir(), 'import-source-')), 'source.sqlite');
  const db = new Database(file);
  db.exec(ddl);
  return {
    url: `sqlite:${file}`,
    run: async (sql, params = []) => {
      if (params.length === 0) db.exec(sql);
      else db.prepare(sql).run(...params);
    },
    drop: async () => {
      db.close();
    },
  };
}
