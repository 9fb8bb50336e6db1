// WORKERS=2 as `npm start` runs it: two processes on one port, metrics summed over both, a clean stop on SIGTERM.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const redisUrl = process.env.TEST_REDIS_URL;
if (process.env.REQUIRE_SERVICES === '1' && !redisUrl) throw new Error('REQUIRE_SERVICES=1 but TEST_REDIS_URL is not set');

describe('WORKERS=2', { skip: redisUrl ? false : 'set TEST_REDIS_URL to run the worker processes (they need Redis)' }, () => {
  it('serves from two processes, sums their metrics, and stops both on SIGTERM', async (t) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: {
        ...process.env,
        DATA_DIR: mkdtempSync(join(tmpdir(), 'skinservice-workers-')),
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        WORKERS: '2',
        REDIS_URL: redisUrl,
      },
    });
    // A failed assertion must not leave the workers running: they would hold the test runner open for good.
    t.after(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const listening = () => [...output.matchAll(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/g)].map((match) => match[1]!);
    // Two processes compile the whole service with tsx at once: on two loaded cores that took over 20 s once.
    const deadline = Date.now() + 60_000;
    while (listening().length < 2) {
      if (Date.now() > deadline || child.exitCode !== null) assert.fail(`two workers did not start: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const pids = new Set([...output.matchAll(/"pid":(\d+)[^\n]*Server listening/g)].map((match) => match[1]));
    assert.equal(pids.size, 2, 'two worker processes');
    const [address] = listening();
    assert.equal(new Set(listening()).size, 1, 'the workers share one port');

    // New connections each time, so that the primary spreads them over both workers.
    for (let request = 0; request < 20; request += 1) {
      assert.equal((await fetch(`${address}/healthz`, { headers: { connection: 'close' } })).status, 200);
    }
    const metrics = await (await fetch(`${address}/metrics`, { headers: { connection: 'close' } })).text();
    assert.match(metrics, /skinservice_http_request_duration_seconds_count\{method="GET",route="\/healthz",status_code="200"\} 20\n/);
    assert.match(metrics, /skinservice_db_connections_max 2\n/, 'one SQLite connection per worker, summed');

    child.kill('SIGTERM');
    const code = await new Promise((resolve) => child.on('exit', resolve));
    assert.equal(code, 0, output);
  });
});
