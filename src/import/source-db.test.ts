// The source databases of an import, as the readers see them: MySQL/MariaDB, PostgreSQL and SQLite answer the same
// queries with `?` placeholders, quote mixed-case names (CookieCMS's `hwidId`), read 64-bit ids exactly (also in a
// process whose service database reads PostgreSQL's int8 as numbers), give binary columns as bytes, and refuse to be
// written to (the source is only read).
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { migrateToLatest, openDatabase } from '../database/connect.ts';
import { createTestDatabase } from '../../test/support/databases.ts';
import { createMariaDbSource, skipWithoutMariaDb } from '../../test/support/mariadb.ts';
import { openSource, SourceError, type SourceDb } from './source-db.ts';

/** A 64-bit Discord id, 2^60 + 1: as a double it would read 1152921504606846976. */
const BIG_ID = '1152921504606846977';
/** Bytes that are no UTF-8 text. */
const KEY = Buffer.from([0x30, 0x59, 0x00, 0xff, 0xfe, 0x80]);
const KEY_HEX = KEY.toString('hex');

/** The table every kind builds: `people (id, "hwidId" bigint, note text, "publicKey" binary)`. */
const rowsSql = (bytes: string) => `CREATE TABLE people (id integer PRIMARY KEY, "hwidId" bigint, note varchar(20), "publicKey" ${bytes})`;

async function checkSource(source: SourceDb) {
  const q = source.quote;
  const rows = await source.rows<{ id: number; hwidId: string; note: string; publicKey: unknown }>(
    `SELECT id, ${q('hwidId')}, note, ${q('publicKey')} FROM people WHERE id > ? ORDER BY id`,
    [0],
  );
  assert.deepEqual(
    rows.map((row) => [Number(row.id), String(row.hwidId), row.note]),
    [
      [1, BIG_ID, 'first'],
      [2, '7', 'second'],
    ],
  );
  assert.ok(Buffer.isBuffer(rows[0]!.publicKey), 'a binary column is read as bytes');
  assert.equal((rows[0]!.publicKey as Buffer).toString('hex'), KEY_HEX);
  assert.equal(await source.hasTable('people'), true);
  assert.equal(await source.hasTable('nobody'), false);
  assert.equal(await source.hasColumn('people', 'hwidId'), true);
  assert.equal(await source.hasColumn('people', 'salt'), false);
  await assert.rejects(source.rows("INSERT INTO people (id, note) VALUES (3, 'written')"), 'the source is only read');
}

describe('import source databases', () => {
  it('reads SQLite, read-only', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'import-source-')), 'source.db');
    const db = new Database(file);
    db.exec(`${rowsSql('blob')};
      INSERT INTO people VALUES (1, ${BIG_ID}, 'first', x'${KEY_HEX}'), (2, 7, 'second', NULL);`);
    db.close();
    const source = await openSource(`sqlite:${file}`);
    after(() => source.close());
    assert.equal(source.name, `sqlite:${file}`);
    await checkSource(source);
  });

  it(
    'reads PostgreSQL, read-only, and names it without its password',
    { skip: process.env.TEST_POSTGRES_URL ? false : 'set TEST_POSTGRES_URL' },
    async () => {
      const database = await createTestDatabase('postgres');
      after(() => database.drop());
      const url = (database.settings as { url: string }).url;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`${rowsSql('bytea')};
      INSERT INTO people VALUES (1, ${BIG_ID}, 'first', '\\x${KEY_HEX}'), (2, 7, 'second', NULL);`);
      await client.end();
      // The service's own database in the same process reads int8 as numbers (its own parsers, not pg's global ones).
      const service = openDatabase(database.settings);
      await migrateToLatest(service);
      const [{ big }] = (await sql<{ big: unknown }>`SELECT CAST(${7} AS bigint) AS big`.execute(service)).rows as [{ big: unknown }];
      assert.equal(big, 7);
      const withPassword = new URL(url);
      withPassword.password = 'secret-password';
      const source = await openSource(withPassword.toString());
      try {
        assert.doesNotMatch(source.name, /secret-password/);
        await checkSource(source);
      } finally {
        await source.close(); // before the database is dropped, which ends its connections
        await service.destroy();
      }
    },
  );

  it('reads MariaDB, read-only, with 64-bit ids as strings', { skip: skipWithoutMariaDb }, async () => {
    const mariadb = await createMariaDbSource(`${rowsSql('blob').replace(/"/g, '`')};
      INSERT INTO people VALUES (1, ${BIG_ID}, 'first', x'${KEY_HEX}'), (2, 7, 'second', NULL);`);
    after(() => mariadb.drop());
    const source = await openSource(mariadb.url);
    try {
      await checkSource(source);
    } finally {
      await source.close(); // before the database is dropped, which ends its connections
    }
  });

  it('names the problem of a source it cannot open', async () => {
    await assert.rejects(openSource('ftp://example.org/db'), SourceError);
    await assert.rejects(openSource('sqlite:/no/such/file.db'), /--from: cannot open the source database/);
    await assert.rejects(openSource('mysql://root@127.0.0.1:1/none'), /--from: cannot open the source database/);
  });
});
