// Runs a suite once per database: SQLite always, PostgreSQL when TEST_POSTGRES_URL names a server.
// Each suite gets a database of its own (a fresh SQLite file, or a fresh PostgreSQL database dropped afterwards).
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'node:test';
import pg from 'pg';
import type { DatabaseSettings } from '../../src/settings.ts';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface TestDatabase {
  kind: DatabaseKind;
  settings: DatabaseSettings;
  drop(): Promise<void>;
}

const postgresUrl = process.env.TEST_POSTGRES_URL;
// CI sets REQUIRE_SERVICES=1: there a missing server address is a failure, not a skip.
if (process.env.REQUIRE_SERVICES === '1' && !postgresUrl) throw new Error('REQUIRE_SERVICES=1 but TEST_POSTGRES_URL is not set');

/** describe(`name [sqlite]`) and describe(`name [postgres]`); the PostgreSQL one is skipped, visibly, without a server. */
export function describeEachDatabase(name: string, suite: (kind: DatabaseKind) => void) {
  describe(`${name} [sqlite]`, () => suite('sqlite'));
  if (postgresUrl) describe(`${name} [postgres]`, () => suite('postgres'));
  else describe(`${name} [postgres]`, { skip: 'set TEST_POSTGRES_URL to run the PostgreSQL suite' }, () => {});
}

export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'skinservice-db-'));
    return { kind, settings: { kind: 'sqlite', file: join(dir, 'test.sqlite') }, drop: async () => {} };
  }
  if (!postgresUrl) throw new Error('TEST_POSTGRES_URL is not set');
  const name = `skinservice_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    kind,
    settings: { kind: 'postgres', url: url.toString() },
    async drop() {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
