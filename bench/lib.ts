// Shared pieces of the benchmarks: start a server as its own process, and load it over HTTP with autocannon.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verify } from '@node-rs/argon2';
import autocannon from 'autocannon';
import { hashPassword } from '../src/accounts/passwords.ts';
import { RULES } from '../src/ratelimit/limiter.ts';

/**
 * Connections for the login rows: every attempt of one account from one address holds a place on the login limit
 * until its password proves right (counted before checked, contract section 15), so more attempts in flight than the
 * limit would be refused with 429. One fewer than the limit, and the two cores stay saturated by the hashing.
 */
export const LOGIN_CONNECTIONS = RULES.loginFailuresPerAccountAndAddress.limit - 1;

/** The owner account the benchmark servers create at start (OWNER_* settings). */
export const BENCH_OWNER = { OWNER_USERNAME: 'BenchOwner', OWNER_MAIL: 'bench@example.org', OWNER_PASSWORD: 'bench password' };

/** Logs BENCH_OWNER in on a running server and returns the token. */
export async function ownerToken(serverUrl: string): Promise<string> {
  const login = await fetch(`${serverUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: BENCH_OWNER.OWNER_USERNAME, password: BENCH_OWNER.OWNER_PASSWORD }),
  });
  if (!login.ok) throw new Error(`owner login: ${login.status}`);
  return ((await login.json()) as { data: { jwt: string } }).data.jwt;
}

/** Uploads the fixture skin `name` (test/fixtures/skins/NAME.png) as the token's owner; returns its digest. */
export async function uploadFixtureSkin(serverUrl: string, token: string, name: string): Promise<string> {
  const form = new FormData();
  form.append('skin', new Blob([readFileSync(`test/fixtures/skins/${name}.png`)], { type: 'image/png' }), `${name}.png`);
  const uploaded = await fetch(`${serverUrl}/api/home/skins`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (!uploaded.ok) throw new Error(`upload of ${name}: ${uploaded.status}`);
  return ((await uploaded.json()) as { data: { digest: string } }).data.digest;
}

export interface ServerProcess {
  url: string;
  /** CPU time the server process's threads have used so far, in ms; from /proc, so Linux only. */
  cpuMs(): number;
  /** The largest resident set the server process has had so far (VmHWM), in MiB. */
  peakRssMb(): number;
  stop(): Promise<void>;
}

function processCpuMs(pid: number): number {
  // The first field of each thread's schedstat is its CPU time in nanoseconds: finer than /proc/<pid>/stat's
  // 10 ms ticks, which blur a few hundred milliseconds of load by several percent.
  let nanoseconds = 0;
  for (const thread of readdirSync(`/proc/${pid}/task`)) {
    try {
      nanoseconds += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between listing and reading; its time is lost either way.
    }
  }
  return nanoseconds / 1e6;
}

/** Runs `script` (a .ts file) with tsx in a child process and waits for Fastify's "listening" line. */
export async function startServerProcess(script: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  // BENCH_CPU_PROFILE_DIR: every server writes a V8 CPU profile there when it stops (open it in Chrome's DevTools).
  const profile = process.env.BENCH_CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE_DIR}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, '--import', 'tsx', script], {
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
    cpuMs: () => processCpuMs(child.pid!),
    peakRssMb: () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? Number.NaN) / 1024,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Server CPU time per request (when the server process was given), in microseconds. */
  cpuMicrosPerRequest?: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

export async function load(options: {
  url: string;
  /** The server answering, to read its CPU time from. */
  server?: ServerProcess;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  seconds?: number;
  /** Requests per second to offer; unlimited when absent. */
  rate?: number;
  /** A different path for every request (the URL's path is used when absent). */
  nextPath?: () => string;
}): Promise<LoadResult> {
  const cpuBefore = options.server?.cpuMs();
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections ?? 50,
    duration: options.seconds ?? 5,
    ...(options.rate ? { overallRate: options.rate } : {}),
    ...(options.nextPath
      ? { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: options.nextPath!() }) }] }
      : {}),
  });
  const cpuUsed = options.server && cpuBefore !== undefined ? options.server.cpuMs() - cpuBefore : undefined;
  return {
    requestsPerSecond: result.requests.average,
    cpuMicrosPerRequest: cpuUsed === undefined ? undefined : (cpuUsed * 1000) / result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

/** Runs `operation` with `concurrency` calls in flight for `seconds`, and returns completed operations per second. */
async function rate(operation: () => Promise<unknown>, concurrency: number, seconds: number): Promise<number> {
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

// Enough verifies in flight to keep every argon2 thread busy (libuv's pool has 4 threads by default).
const HASH_CONCURRENCY = 4;

/**
 * The reference of the login rows: argon2id verifies of the bench owner's password per second, in this process with
 * nothing around them, for `seconds`.
 */
export async function rawVerifyRate(seconds: number): Promise<number> {
  const stored = await hashPassword(BENCH_OWNER.OWNER_PASSWORD);
  return rate(() => verify(stored, BENCH_OWNER.OWNER_PASSWORD), HASH_CONCURRENCY, seconds);
}

export interface Comparison {
  subject: LoadResult;
  reference: LoadResult;
  /** Median over the rounds of subject/reference throughput, each round measuring both back to back. */
  ratio: number;
  /** reference/subject server CPU per request at a fixed request rate: the ratio the servers alone would reach. */
  cpuRatio: number;
}

// Low enough that neither server is saturated, so CPU per request is not inflated by queueing.
const FIXED_RATE = 2000;

/**
 * This machine's speed drifts by tens of percent from one run to the next, so a route and its reference are
 * measured alternately, round after round, and the median of the per-round ratios is reported.
 */
export async function compareLoad(
  subject: Parameters<typeof load>[0],
  reference: Parameters<typeof load>[0],
  rounds = 5,
): Promise<Comparison> {
  // An untimed round first: a fresh server spends its first seconds compiling its hot paths (TurboFan).
  await load({ ...reference, seconds: 2 });
  await load({ ...subject, seconds: 2 });
  const results: { subject: LoadResult; reference: LoadResult }[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const referenceResult = await load(reference);
    const subjectResult = await load(subject);
    if (subjectResult.errors > 0) throw new Error(`${subjectResult.errors} requests to ${subject.url} failed`);
    results.push({ subject: subjectResult, reference: referenceResult });
  }
  results.sort(
    (a, b) => a.subject.requestsPerSecond / a.reference.requestsPerSecond - b.subject.requestsPerSecond / b.reference.requestsPerSecond,
  );
  const median = results[Math.floor(results.length / 2)]!;
  const cpu = await compareServerCpu(subject, reference, rounds);
  return {
    ...median,
    ratio: median.subject.requestsPerSecond / median.reference.requestsPerSecond,
    cpuRatio: 1 / cpu.ratio,
  };
}

export interface CpuComparison {
  /** Medians over the rounds of the server CPU per request, in microseconds. */
  subjectMicros: number;
  referenceMicros: number;
  /** Median over the rounds of subject/reference server CPU per request. */
  ratio: number;
}

export const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Server CPU per request of a route and its reference at a fixed rate, measured alternately round after round. */
export async function compareServerCpu(
  subject: Parameters<typeof load>[0],
  reference: Parameters<typeof load>[0],
  rounds = 5,
  rate = FIXED_RATE,
): Promise<CpuComparison> {
  const subjectMicros: number[] = [];
  const referenceMicros: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const referenceCpu = (await load({ ...reference, rate })).cpuMicrosPerRequest;
    const subjectCpu = (await load({ ...subject, rate })).cpuMicrosPerRequest;
    if (referenceCpu === undefined || subjectCpu === undefined) throw new Error('compareServerCpu: both loads need their server');
    subjectMicros.push(subjectCpu);
    referenceMicros.push(referenceCpu);
    ratios.push(subjectCpu / referenceCpu);
  }
  return { subjectMicros: medianOf(subjectMicros), referenceMicros: medianOf(referenceMicros), ratio: medianOf(ratios) };
}

export interface Figure {
  name: string;
  value: number;
  unit: string;
  reference?: { name: string; value: number };
  target?: string;
  /** reference/subject server CPU per request, at a fixed rate (see compareLoad). */
  cpuRatio?: number;
}

/** The two table rows of a comparison: the reference alone, then the subject against it. */
export function comparisonFigures(subjectName: string, referenceName: string, comparison: Comparison, target: string): Figure[] {
  const { subject, reference } = comparison;
  return [
    { name: referenceName, value: reference.requestsPerSecond, unit: 'req/s' },
    {
      name: subjectName,
      value: subject.requestsPerSecond,
      unit: `req/s (p99 ${subject.p99Ms} ms; server CPU ${subject.cpuMicrosPerRequest?.toFixed(0)} us/req against ${reference.cpuMicrosPerRequest?.toFixed(0)})`,
      reference: { name: referenceName, value: reference.requestsPerSecond },
      target,
      cpuRatio: comparison.cpuRatio,
    },
  ];
}
