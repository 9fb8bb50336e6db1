// Issue 6's figures: the launcher document and head images of random players among 100,000, under 200
// concurrent connections, on SQLite and on PostgreSQL, with the server's peak memory.
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../src/database/connect.ts';
import type { DatabaseSettings } from '../src/settings.ts';
import { seedUsers } from '../scripts/seed-users.ts';
import { createTestDatabase } from '../test/support/databases.ts';
import { BENCH_OWNER, load, ownerToken, startServerProcess, uploadFixtureSkin, type LoadResult, type ServerProcess } from './lib.ts';

const SKINS = ['classic', 'slim', 'hd-128', 'legacy-64x32', 'no-overlay', 'flat-palette', 'classic-16bit'];
const CONNECTIONS = 200;

export interface ScaleRow {
  name: string;
  result: LoadResult;
  peakRssMb: number;
}

/** Every seeded player gets one of the fixture skins (uploaded once through the API) as their selected skin. */
async function dressSeededPlayers(database: DatabaseSettings, digests: string[]) {
  const db = openDatabase(database);
  try {
    const players = await db.selectFrom('users').select(['id']).where('username_key', 'like', 'seed\\_%').orderBy('id').execute();
    const now = Date.now();
    for (let start = 0; start < players.length; start += 1000) {
      const rows = players.slice(start, start + 1000).map((player, index) => ({
        uuid: randomUUID(),
        user_id: player.id,
        name: 'Seeded',
        slim: 0,
        hd: 0,
        texture_digest: digests[(start + index) % digests.length]!,
        cape_id: null,
        created_at: now,
      }));
      await db.transaction().execute((trx) => trx.insertInto('skins').values(rows).execute());
    }
    await sql`UPDATE users SET selected_skin_id = (SELECT MIN(skins.id) FROM skins WHERE skins.user_id = users.id) WHERE username_key LIKE 'seed\\_%'`.execute(
      db,
    );
  } finally {
    await db.destroy();
  }
}

export interface SeededServer {
  server: ServerProcess;
  /** A token of the owner (BENCH_OWNER), who uploaded the fixture skins. */
  ownerToken: string;
  randomPlayer(): string;
  stop(): Promise<void>;
}

/** A server process on a fresh database of `kind` with `users` seeded players, each dressed in a fixture skin. */
export async function startSeededServer(kind: 'sqlite' | 'postgres', users: number): Promise<SeededServer> {
  const dataDir = mkdtempSync(join(tmpdir(), `skinservice-bench-scale-${kind}-`));
  const database = await createTestDatabase(kind);
  const databaseUrl = database.settings.kind === 'sqlite' ? `sqlite:${database.settings.file}` : database.settings.url;
  const server = await startServerProcess('src/main.ts', { ...BENCH_OWNER, DATA_DIR: dataDir, DATABASE_URL: databaseUrl });
  const stop = async () => {
    await server.stop();
    await database.drop();
  };
  try {
    const token = await ownerToken(server.url);
    const digests: string[] = [];
    for (const name of SKINS) digests.push(await uploadFixtureSkin(server.url, token, name));
    const seedDb = openDatabase(database.settings);
    const uuids = await seedUsers(seedDb, users);
    await seedDb.destroy();
    await dressSeededPlayers(database.settings, digests);
    return { server, ownerToken: token, randomPlayer: () => uuids[Math.floor(Math.random() * uuids.length)]!, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function runOn(kind: 'sqlite' | 'postgres', users: number, seconds: number): Promise<ScaleRow[]> {
  const { server, randomPlayer, stop } = await startSeededServer(kind, users);
  try {
    const rows: ScaleRow[] = [];
    const measure = async (name: string, nextPath: () => string) => {
      await load({ url: `${server.url}${nextPath()}`, nextPath, connections: CONNECTIONS, seconds: 2 }); // warm-up
      const result = await load({ url: `${server.url}${nextPath()}`, nextPath, server, connections: CONNECTIONS, seconds });
      if (result.errors > 0) throw new Error(`${name}: ${result.errors} requests failed`);
      rows.push({ name: `${name} [${kind}]`, result, peakRssMb: server.peakRssMb() });
    };
    await measure(`GET /api/skin/launcher/{random of ${users} players}`, () => `/api/skin/launcher/${randomPlayer()}`);
    await measure(`GET /api/skin/head/{random of ${users} players}?type=player`, () => `/api/skin/head/${randomPlayer()}?type=player`);
    return rows;
  } finally {
    await stop();
  }
}

export async function runScaleBench(users = 100_000, seconds = 10): Promise<{ rows: ScaleRow[]; skipped: string | null }> {
  const rows = await runOn('sqlite', users, seconds);
  if (!process.env.TEST_POSTGRES_URL) return { rows, skipped: 'PostgreSQL rows skipped: set TEST_POSTGRES_URL' };
  rows.push(...(await runOn('postgres', users, seconds)));
  return { rows, skipped: null };
}
