// The service as `npm start` runs it: settings from the environment, a real port, a clean stop on SIGTERM.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

describe('the service process', () => {
  it('refuses a bad setting with a message naming it', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'skinservice-proc-')), PORT: 'eighty' },
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    assert.equal(code, 1);
    assert.match(stderr, /PORT: must be a whole number/);
  });

  it('starts on the embedded default and finishes a request in flight on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'skinservice-proc-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    const logged = (pattern: RegExp) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(output);
          if (match) resolve(match);
          else if (child.exitCode !== null) reject(new Error(`exited early: ${output}`));
          else setTimeout(check, 5);
        };
        check();
      });
    const address = (await logged(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/))[1]!;
    // Registration hashes a password (tens of ms): long enough to be in flight when the signal arrives.
    const inFlight = fetch(`${address}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mail: 'inflight@example.org', password: 'a good password' }),
    });
    await logged(/incoming request/);
    child.kill('SIGTERM');
    const reply = await inFlight;
    assert.equal(reply.status, 200);
    const code = await new Promise((resolve) => child.on('exit', resolve));
    assert.equal(code, 0);
  });
});
