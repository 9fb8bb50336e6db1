// Shared pieces of the benchmarks: start a server as its own process, and load it over HTTP with autocannon.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

export interface ServerProcess {
  url: string;
  stop(): Promise<void>;
}

/** Runs `script` (a .ts file) with tsx in a child process and waits for Fastify's "listening" line. */
export async function startServerProcess(script: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], {
    env: {
      ...process.env,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'skinservice-bench-')),
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/i.exec(output);
      if (match) {
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${output}`)));
  });
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

export async function load(options: {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  seconds?: number;
}): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections ?? 50,
    duration: options.seconds ?? 5,
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

/** Runs `operation` with `concurrency` calls in flight for `seconds`, and returns completed operations per second. */
export async function rate(operation: () => Promise<unknown>, concurrency: number, seconds: number): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  let completed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        await operation();
        completed += 1;
      }
    }),
  );
  return completed / ((performance.now() - started) / 1000);
}
