import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { createTestDatabase } from '../../test/support/databases.ts';
import { migrateToLatest, openDatabase } from './connect.ts';

describe('PostgreSQL connections', { skip: process.env.TEST_POSTGRES_URL ? false : 'set TEST_POSTGRES_URL' }, () => {
  it('reports a connection that breaks while a transaction holds it, instead of stopping the process', async () => {
    const database = await createTestDatabase('postgres');
    after(() => database.drop());
    const heard: Error[] = [];
    const db = openDatabase(database.settings, (error) => heard.push(error));
    after(() => db.destroy());
    await migrateToLatest(db);
    const { url } = database.settings as { url: string };
    const transaction = db.transaction().execute(async (trx) => {
      await sql`SELECT 1`.execute(trx);
      // Between two statements the connection is checked out of the pool with no query running: here it ends.
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      await admin.end();
      await new Promise((resolve) => setTimeout(resolve, 200));
      await sql`SELECT 1`.execute(trx);
    });
    await assert.rejects(transaction);
    assert.ok(
      heard.some((error) => /terminating connection/.test(error.message)),
      `heard: ${heard.map((error) => error.message)}`,
    );
    // The pool replaces the broken connection.
    assert.deepEqual((await sql<{ one: number }>`SELECT 1 AS one`.execute(db)).rows, [{ one: 1 }]);
  });
});
