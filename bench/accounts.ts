// Issue 2's figures: logins per second against the raw argon2id verify rate, and GET /api/home against a bare route.
import { cpus } from 'node:os';
import {
  BENCH_OWNER,
  compareLoad,
  comparisonFigures,
  load,
  ownerToken,
  rawVerifyRate,
  startServerProcess,
  LOGIN_CONNECTIONS,
  type Figure,
} from './lib.ts';

export async function runAccountBench(seconds = 5): Promise<Figure[]> {
  const rawVerifies = await rawVerifyRate(seconds);

  const server = await startServerProcess('src/main.ts', BENCH_OWNER);
  const bare = await startServerProcess('bench/bare-server.ts');
  try {
    const loginBody = JSON.stringify({ username: BENCH_OWNER.OWNER_USERNAME, password: BENCH_OWNER.OWNER_PASSWORD });
    const json = { 'content-type': 'application/json' };
    await load({
      url: `${server.url}/api/auth/login`,
      method: 'POST',
      headers: json,
      body: loginBody,
      connections: LOGIN_CONNECTIONS,
      seconds: 2,
    }); // warm-up
    const logins = await load({
      url: `${server.url}/api/auth/login`,
      method: 'POST',
      headers: json,
      body: loginBody,
      connections: LOGIN_CONNECTIONS,
      seconds,
    });
    if (logins.errors > 0) throw new Error(`${logins.errors} logins failed during the benchmark`);

    const token = await ownerToken(server.url);
    const home = await compareLoad(
      { url: `${server.url}/api/home`, headers: { authorization: `Bearer ${token}` }, seconds: 3, server },
      { url: `${bare.url}/bare`, seconds: 3, server: bare },
    );

    return [
      { name: 'argon2id verify (in-process, raw)', value: rawVerifies, unit: 'op/s' },
      {
        name: 'POST /api/auth/login',
        value: logins.requestsPerSecond,
        unit: 'req/s',
        reference: { name: 'raw argon2id verify', value: rawVerifies },
        target: '>= 85%',
      },
      ...comparisonFigures('GET /api/home', 'bare Fastify route', home, '>= 50%'),
    ];
  } finally {
    await server.stop();
    await bare.stop();
  }
}

export const machine = () => `${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`;
