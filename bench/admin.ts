// Issue 4's figures: the admin user list with 100,000 users, at the first and the last page, and user lookups by UUID.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateToLatest, openDatabase } from '../src/database/connect.ts';
import { seedUsers } from '../scripts/seed-users.ts';
import { BENCH_OWNER, ownerToken, startServerProcess } from './lib.ts';

export interface LatencyRow {
  name: string;
  p50Ms: number;
  p99Ms: number;
  requests: number;
}

/** Sends `count` requests one after another (no queueing in the figures) and returns the latency percentiles. */
async function latency(name: string, urls: () => string, token: string, count: number): Promise<LatencyRow> {
  const samples: number[] = [];
  for (let i = 0; i < count + 20; i += 1) {
    const started = performance.now();
    const reply = await fetch(urls(), { headers: { authorization: `Bearer ${token}` } });
    if (!reply.ok) throw new Error(`${name}: ${reply.status}`);
    await reply.arrayBuffer();
    if (i >= 20) samples.push(performance.now() - started); // the first 20 warm the server up
  }
  samples.sort((a, b) => a - b);
  return { name, p50Ms: samples[Math.floor(count / 2)]!, p99Ms: samples[Math.floor(count * 0.99)]!, requests: count };
}

export async function runAdminBench(users = 100_000): Promise<LatencyRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'skinservice-bench-admin-'));
  const db = openDatabase({ kind: 'sqlite', file: join(dataDir, 'skinservice.sqlite') });
  await migrateToLatest(db);
  const uuids = await seedUsers(db, users);
  await db.destroy();

  const server = await startServerProcess('src/main.ts', { ...BENCH_OWNER, DATA_DIR: dataDir });
  try {
    const token = await ownerToken(server.url);
    const total = users + 1;
    const lastPage = Math.floor((total - 1) / 100) * 100;
    let next = 0;
    return [
      await latency(
        `GET /api/admin/users, first page (100 of ${total})`,
        () => `${server.url}/api/admin/users?limit=100&offset=0`,
        token,
        200,
      ),
      await latency(
        `GET /api/admin/users, last page (offset ${lastPage})`,
        () => `${server.url}/api/admin/users?limit=100&offset=${lastPage}`,
        token,
        200,
      ),
      await latency(
        'GET /api/admin/users?search=seed_4242 (substring search)',
        () => `${server.url}/api/admin/users?search=seed_4242`,
        token,
        100,
      ),
      await latency(
        'GET /api/admin/user/{uuid} (a different user each time)',
        () => `${server.url}/api/admin/user/${uuids[(next += 7919) % uuids.length]}`,
        token,
        500,
      ),
    ];
  } finally {
    await server.stop();
  }
}
