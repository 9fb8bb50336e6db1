// Issue 19's figures: the service's own CPU per request on PostgreSQL against SQLite, same requests, 20,000 seeded
// players, both servers up at once and measured alternately; and GET /api/home against a bare route on each.
// autocannon paces a fixed rate per connection and per second: each of the 50 connections sends its share at the
// start of every second as fast as it is answered, so requests arrive in bursts, as they do to a busy service.
import { compareServerCpu, load, startServerProcess, type CpuComparison } from './lib.ts';
import { startSeededServer, type SeededServer } from './scale.ts';

export interface DatabaseRow {
  name: string;
  comparison: CpuComparison;
  /** On the reference's CPU over the subject's, as the other server CPU ratios of `npm run bench`. */
  target?: string;
}

const WITHIN_1_3X = '>= 77% (within 1.3x)';

// Low enough that PostgreSQL's own processes and the load generator leave the service a core to itself.
const RATE = 1000;

export async function runDatabaseBench(users = 20_000, seconds = 3, rounds = 5): Promise<DatabaseRow[]> {
  const servers: SeededServer[] = [];
  const bare = await startServerProcess('bench/bare-server.ts');
  try {
    servers.push(await startSeededServer('sqlite', users));
    servers.push(await startSeededServer('postgres', users));
    const [sqlite, postgres] = servers as [SeededServer, SeededServer];
    const requests = (seeded: SeededServer) => ({
      launcher: { nextPath: () => `/api/skin/launcher/${seeded.randomPlayer()}` },
      head: { nextPath: () => `/api/skin/head/${seeded.randomPlayer()}?type=player` },
      home: { path: '/api/home', headers: { authorization: `Bearer ${seeded.ownerToken}` } },
    });
    const options = (seeded: SeededServer, request: { path?: string; nextPath?: () => string; headers?: Record<string, string> }) => ({
      url: `${seeded.server.url}${request.path ?? request.nextPath!()}`,
      nextPath: request.nextPath,
      headers: request.headers,
      server: seeded.server,
      seconds,
    });
    const names = {
      launcher: `GET /api/skin/launcher/{random of ${users} players}`,
      head: `GET /api/skin/head/{random of ${users} players}?type=player`,
      home: 'GET /api/home',
    };
    const bareRoute = { url: `${bare.url}/bare`, server: bare, seconds };
    const rows: DatabaseRow[] = [];
    const items = [
      ...(['launcher', 'head', 'home'] as const).map((item) => ({ item, connections: 50, target: WITHIN_1_3X })),
      // One request at a time: no two requests' queries can share a round trip to PostgreSQL.
      { item: 'launcher' as const, connections: 1, target: undefined },
    ];
    for (const { item, connections, target } of items) {
      const onPostgres = { ...options(postgres, requests(postgres)[item]), connections };
      const onSqlite = { ...options(sqlite, requests(sqlite)[item]), connections };
      // Untimed: a fresh route spends its first seconds being compiled (TurboFan).
      for (const warmUp of [onSqlite, onPostgres]) await load({ ...warmUp, seconds: 2, rate: RATE });
      rows.push({
        name: `${names[item]}, ${connections} connection${connections > 1 ? 's' : ''}: PostgreSQL against SQLite`,
        comparison: await compareServerCpu(onPostgres, onSqlite, rounds, RATE),
        target,
      });
    }
    await load({ ...bareRoute, seconds: 2, rate: RATE });
    for (const [kind, seeded] of [
      ['SQLite', sqlite],
      ['PostgreSQL', postgres],
    ] as const) {
      const home = options(seeded, requests(seeded).home);
      rows.push({
        name: `${names.home} [${kind}] against a bare Fastify route`,
        comparison: await compareServerCpu(home, bareRoute, rounds, RATE),
        target: '>= 60%',
      });
    }
    return rows;
  } finally {
    for (const seeded of servers) await seeded.stop();
    await bare.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const { name, comparison } of await runDatabaseBench()) {
    const { subjectMicros, referenceMicros, ratio } = comparison;
    console.log(`${name}: ${subjectMicros.toFixed(0)} us/req against ${referenceMicros.toFixed(0)} (${ratio.toFixed(2)}x)`);
  }
}
