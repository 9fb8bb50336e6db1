// Issue 40's figures: the public skin library with 100,000 entries, on SQLite and PostgreSQL. Each typical page of 48
// (default sort, search by name, filter by kind and model, most saved first, a deep page) is measured by the server's
// CPU per request against a bare Fastify route in the same run, as bench/databases.ts does for GET /api/home.
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../src/database/connect.ts';
import type { DatabaseSettings } from '../src/settings.ts';
import { seedUsers } from '../scripts/seed-users.ts';
import { createTestDatabase } from '../test/support/databases.ts';
import { BENCH_OWNER, compareServerCpu, load, startServerProcess, type CpuComparison, type ServerProcess } from './lib.ts';

const ENTRIES = 100_000;
/** Publishers: a few hundred entries each at most, as on a busy instance. */
const OWNERS = 2_000;
/** Rows a statement: 1,000 rows of 14 values stay below both databases' limits on bound values. */
const BATCH = 1_000;
// The library pages cost up to ~10 ms of CPU (a search that matches nothing walks the whole index): a rate at which
// neither server queues on two cores, so that CPU per request is not inflated by waiting.
const RATE = 50;

const ADJECTIVES = ['Autumn', 'Winter', 'Crimson', 'Shadow', 'Golden', 'Frost', 'Neon', 'Forest', 'Ocean', 'Desert'];
const NOUNS = ['Knight', 'Hoodie', 'Wizard', 'Robot', 'Ranger', 'Pirate', 'Ninja', 'Dragon', 'Miner', 'Archer'];

export interface LibraryRow {
  name: string;
  comparison: CpuComparison;
  /** One request at a time: what a visitor waits, PostgreSQL's own work included. */
  p50Ms: number;
  p99Ms: number;
}

/** The pages measured: path and what the table calls it. */
export const LIBRARY_PAGES = [
  ['/api/library', 'default (newest first)'],
  ['/api/library?q=hoodie', 'search by name (q=hoodie, 1 in 10 match)'],
  ['/api/library?q=zzz', 'search by name, nothing matches (q=zzz)'],
  ['/api/library?kind=skin&model=slim', 'filter kind=skin&model=slim'],
  ['/api/library?kind=cape', 'filter kind=cape (1 in 10)'],
  ['/api/library?sort=popular', 'most saved first (sort=popular)'],
  ['/api/library?kind=skin&sort=popular', 'kind=skin, most saved first'],
  ['/api/library?offset=48000', 'a deep page (offset=48000, page 1,001)'],
] as const;

/**
 * `count` entries by `OWNERS` seeded players, in multi-row inserts inside one transaction: 9 in 10 skins (half of
 * them slim), 1 in 10 capes; 95 in 100 public, the rest pending or withdrawn; saves 0-999; a year of publication dates.
 */
export async function seedLibrary(database: DatabaseSettings, count: number) {
  const db = openDatabase(database);
  try {
    await seedUsers(db, OWNERS);
    const owners = (await db.selectFrom('users').select('id').where('username_key', 'like', 'seed_%').execute()).map((row) => row.id);
    const now = Date.now();
    await db.transaction().execute(async (trx) => {
      for (let start = 0; start < count; start += BATCH) {
        const rows = Array.from({ length: Math.min(BATCH, count - start) }, (_, offset) => {
          const n = start + offset;
          const kind = n % 10 === 9 ? ('cape' as const) : ('skin' as const);
          const state = n % 100 === 98 ? ('pending' as const) : n % 100 === 99 ? ('withdrawn' as const) : ('public' as const);
          const digest = createHash('sha256').update(`library-bench-${n}`).digest('hex');
          const name = `${ADJECTIVES[Math.floor(n / 10) % 10]} ${NOUNS[n % 10]} ${n}`;
          return {
            kind,
            skin_id: null,
            cape_id: null,
            owner_id: owners[n % owners.length]!,
            digest,
            model: kind === 'cape' ? null : n % 2 === 0 ? ('classic' as const) : ('slim' as const),
            name,
            name_key: name.toLowerCase(),
            description: '',
            source: 'original' as const,
            source_url: null,
            saves: (n * 7919) % 1000,
            state,
            live_digest: state === 'withdrawn' ? null : digest,
            created_at: now - (count - n) * 300_000,
          };
        });
        await trx.insertInto('library_entries').values(rows).execute();
      }
    });
    // What the databases' own upkeep (PostgreSQL's autovacuum) would have done by the time a library grew this large:
    // statistics, and on PostgreSQL the visibility map that lets an index answer without reading the table.
    await (database.kind === 'postgres' ? sql`VACUUM ANALYZE library_entries` : sql`ANALYZE`).execute(db);
  } finally {
    await db.destroy();
  }
}

export async function runLibraryBench(seconds = 2, rounds = 3): Promise<LibraryRow[]> {
  const kinds = process.env.TEST_POSTGRES_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
  const bare = await startServerProcess('bench/bare-server.ts');
  const rows: LibraryRow[] = [];
  try {
    const bareRoute = { url: `${bare.url}/bare`, server: bare, seconds };
    for (const kind of kinds) {
      const database = await createTestDatabase(kind);
      let server: ServerProcess | undefined;
      try {
        const databaseUrl = database.settings.kind === 'sqlite' ? `sqlite:${database.settings.file}` : database.settings.url;
        const dataDir = mkdtempSync(join(tmpdir(), `skinservice-bench-library-${kind}-`));
        // The server migrates the database at start; the entries go in beside it, as in bench/scale.ts.
        server = await startServerProcess('src/main.ts', { ...BENCH_OWNER, DATA_DIR: dataDir, DATABASE_URL: databaseUrl });
        const seeding = performance.now();
        await seedLibrary(database.settings, ENTRIES);
        console.error(`library bench [${kind}]: ${ENTRIES} entries seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
        await load({ ...bareRoute, seconds: 2, rate: RATE });
        for (const [path, what] of LIBRARY_PAGES) {
          const page = { url: `${server.url}${path}`, server, seconds };
          const answer = await fetch(page.url);
          if (answer.status !== 200) throw new Error(`${path}: ${answer.status}`);
          // Untimed: a fresh route spends its first seconds being compiled (TurboFan).
          await load({ ...page, seconds: 2, rate: RATE });
          // One request at a time first, before any load has queued requests on the server.
          const alone = await load({ ...page, connections: 1 });
          if (alone.errors > 0 || alone.requestsPerSecond === 0) throw new Error(`${path}: ${alone.errors} errors one at a time`);
          const comparison = await compareServerCpu(page, bareRoute, rounds, RATE);
          rows.push({
            name: `GET ${path}: ${what}, 48 of ${ENTRIES} entries [${kind}] against a bare Fastify route`,
            comparison,
            p50Ms: alone.p50Ms,
            p99Ms: alone.p99Ms,
          });
        }
      } finally {
        await server?.stop();
        await database.drop();
      }
    }
    return rows;
  } finally {
    await bare.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now();
  for (const { name, comparison, p50Ms, p99Ms } of await runLibraryBench()) {
    const { subjectMicros, referenceMicros, ratio } = comparison;
    console.log(
      `${name}: ${subjectMicros.toFixed(0)} us/req against ${referenceMicros.toFixed(0)} (${(100 / ratio).toFixed(1)}%); one at a time p50 ${p50Ms} ms, p99 ${p99Ms} ms`,
    );
  }
  console.log(`took ${((performance.now() - started) / 1000).toFixed(0)} s`);
}
