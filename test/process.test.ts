// The service as `npm start` runs it: settings from the environment, a real port, and a stop on SIGTERM that ends
// with exit code 0 within 5 s whatever the service is doing (container managers send SIGKILL after 10 s).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, type TestContext } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { freePort } from './support/net.ts';
import { createAccount } from '../src/accounts/service.ts';
import { SYSTEM } from '../src/audit/audit.ts';
import { systemClock } from '../src/clock.ts';
import { migrateToLatest, openDatabase } from '../src/database/connect.ts';
import { OWNER, randomAddress, uniqueName } from './support/service.ts';
import { mailTo, startSmtpServer } from './support/smtp.ts';
import { until } from './support/wait.ts';

const STOP_LIMIT_MS = 5_000;
const redisUrl = process.env.TEST_REDIS_URL;
if (process.env.REQUIRE_SERVICES === '1' && !redisUrl) throw new Error('REQUIRE_SERVICES=1 but TEST_REDIS_URL is not set');

/** Processes still running when a test failed: their whole group is killed after the file. */
const running = new Set<number>();
after(() => {
  for (const pid of running) process.kill(-pid, 'SIGKILL');
});

interface StartedService {
  address: string;
  output(): string;
  /** Resolves with the first match of `pattern` in the output, waiting for it if needed. */
  logged(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** SIGTERM to the process group, as a container manager or systemd sends it; npm's exit code and how long it took. */
  stop(): Promise<{ code: number | null; ms: number }>;
}

/** `npm start` in a process group of its own, with the embedded defaults plus `env`; resolves once it listens. */
async function npmStart(env: Record<string, string>, listeners = 1): Promise<StartedService> {
  const child = spawn('npm', ['start'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'skinservice-proc-')),
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...env,
    },
  });
  running.add(child.pid!);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child.pid!);
      resolve(code);
    }),
  );
  const logged = async (pattern: RegExp, timeoutMs = 20_000) => {
    let match: RegExpExecArray | null = null;
    await until(
      async () => {
        match = pattern.exec(output);
        if (!match && child.exitCode !== null) throw new Error(`exited (${child.exitCode}) before logging ${pattern}: ${output}`);
        return match !== null;
      },
      `${pattern} in the output of npm start`,
      timeoutMs,
    );
    return match!;
  };
  const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)[^\n]*\n/g;
  await until(async () => [...output.matchAll(listening)].length >= listeners || child.exitCode !== null, 'the service to listen', 60_000);
  const address = (await logged(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/))[1]!;
  return {
    address,
    output: () => output,
    logged,
    async stop() {
      const signalled = performance.now();
      process.kill(-child.pid!, 'SIGTERM');
      // Today's limit is 5 s; after 40 s the old 30-second fallback has surely acted, so the test ends either way.
      const code = await Promise.race([exited, new Promise<'hung'>((resolve) => setTimeout(resolve, 40_000, 'hung').unref())]);
      if (code === 'hung') throw new Error(`still running 40 s after SIGTERM: ${output}`);
      return { code, ms: Math.round(performance.now() - signalled) };
    },
  };
}

/** Stops the service and checks the promise of this file: exit code 0 within 5 s. Reports the time taken. */
async function stopsCleanly(t: TestContext, service: StartedService, state: string) {
  const { code, ms } = await service.stop();
  t.diagnostic(`${state}: exit code ${code} ${ms} ms after SIGTERM`);
  assert.equal(code, 0, `npm start ended with ${code}: ${service.output()}`);
  assert.ok(ms < STOP_LIMIT_MS, `stopped ${ms} ms after SIGTERM`);
}

/** An SMTP server that accepts a mail's DATA and then never answers, like a stalled relay or a tarpit. */
async function startStalledSmtpServer() {
  let received!: () => void;
  const dataReceived = new Promise<void>((resolve) => (received = resolve));
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    closeTimeout: 100,
    onData(stream) {
      stream.on('end', () => received());
      stream.resume(); // read the mail, never call back
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `smtp://127.0.0.1:${port}`, dataReceived };
}

/**
 * Registration step 1 for a new address, from a random client address: with REDIS_URL the rate-limit counts outlive
 * the test run (they count per client address and per recipient), and only a trusted proxy's address is believed.
 */
const register = (address: string, mail = `${uniqueName()}@example.org`) =>
  fetch(`${address}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', connection: 'close', 'x-forwarded-for': randomAddress() },
    body: JSON.stringify({ mail, password: 'a good password' }),
  });

/** Runs the service directly (not through npm, which adds lines of its own), expecting it to refuse to start. */
async function refusedStart(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'skinservice-proc-')), HOST: '127.0.0.1', ...env },
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdout.on('data', (chunk) => (stdout += chunk));
  const killed = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise((resolve) => child.on('exit', resolve));
  clearTimeout(killed);
  assert.equal(code, 1, `exit code 1 within 60 s: ${stderr}${stdout}`);
  assert.doesNotMatch(stderr, /^\s+at /m, `a message, not a stack trace: ${stderr}`);
  return stderr;
}

// A few processes at a time: enough to keep the file short, few enough that the stops are timed on a machine at ease.
describe('the service process', { concurrency: 4 }, () => {
  it('refuses a bad setting with a message naming it', async () => {
    assert.match(await refusedStart({ PORT: 'eighty' }), /PORT: must be a whole number/);
  });

  it('refuses bad OWNER_* values with the account rules, without showing the password', async () => {
    const stderr = await refusedStart({ OWNER_USERNAME: 'the owner', OWNER_MAIL: 'owner.example.org', OWNER_PASSWORD: 'secret7' });
    assert.match(stderr, /OWNER_USERNAME: .*3 to 16 characters/);
    assert.match(stderr, /OWNER_MAIL: .*valid mail address/);
    assert.match(stderr, /OWNER_PASSWORD: .*at least 8 characters/);
    assert.doesNotMatch(stderr, /secret7/);
  });

  it('refuses an owner whose username another account has, with a message naming OWNER_USERNAME', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'skinservice-proc-'));
    const db = openDatabase({ kind: 'sqlite', file: join(dataDir, 'skinservice.sqlite') });
    await migrateToLatest(db);
    await createAccount(db, systemClock, { username: 'Taken', mail: 'someone@example.org', password: 'a good password', perms: 0 }, SYSTEM);
    await db.destroy();
    const stderr = await refusedStart({
      DATA_DIR: dataDir,
      OWNER_USERNAME: 'Taken',
      OWNER_MAIL: OWNER.mail,
      OWNER_PASSWORD: OWNER.password,
    });
    assert.match(stderr, /OWNER_USERNAME: Taken is taken/);
  });

  it(
    'closes what a refused start opened (Redis, the database), so nothing keeps the process alive',
    { skip: redisUrl ? false : 'set TEST_REDIS_URL (an open Redis connection is what would keep a process alive)' },
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'skinservice-proc-'));
      const file = join(dataDir, 'skinservice.sqlite');
      const db = openDatabase({ kind: 'sqlite', file });
      await migrateToLatest(db);
      await createAccount(
        db,
        systemClock,
        { username: 'Taken', mail: 'someone@example.org', password: 'a good password', perms: 0 },
        SYSTEM,
      );
      await db.destroy();
      // buildApp refuses the owner; the script then ends only if buildApp left no connection open.
      const script = `
        const { buildApp } = await import('./src/app.ts');
        const { testSettings, OWNER } = await import('./test/support/service.ts');
        const settings = testSettings({ dataDir: ${JSON.stringify(dataDir)}, database: { kind: 'sqlite', file: ${JSON.stringify(file)} },
          redisUrl: ${JSON.stringify(redisUrl)}, owner: { ...OWNER, username: 'Taken' } });
        await buildApp(settings, { logger: false }).then(() => console.log('started'), (error) => console.log(error.message));`;
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      const killed = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const code = await new Promise((resolve) => child.on('exit', (exitCode, signal) => resolve(signal ?? exitCode)));
      clearTimeout(killed);
      assert.match(output, /OWNER_USERNAME: Taken is taken/);
      assert.equal(code, 0, `the process ended by itself: ${output}`);
    },
  );

  it('refuses a port in use with a message naming PORT', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      assert.match(await refusedStart({ PORT: String(port) }), new RegExp(`PORT: ${port} is already in use`));
    } finally {
      taken.close();
    }
  });

  it('refuses a HOST that is not an address of this machine', async () => {
    // 192.0.2.1 is reserved for documentation: no machine has it, and nothing is sent to it.
    assert.match(await refusedStart({ HOST: '192.0.2.1', PORT: '0' }), /HOST: 192\.0\.2\.1 is not an address of this machine/);
  });

  it(
    'stops WORKERS=2 on a port in use instead of starting workers again and again',
    {
      skip: redisUrl ? false : 'set TEST_REDIS_URL to run the worker processes (they need Redis)',
    },
    async () => {
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const { port } = taken.address() as { port: number };
      try {
        const stderr = await refusedStart({ PORT: String(port), WORKERS: '2', REDIS_URL: redisUrl! });
        assert.match(stderr, new RegExp(`PORT: ${port} is already in use`));
        assert.doesNotMatch(stderr, /starting another/);
      } finally {
        taken.close();
      }
    },
  );

  it('warns at start when links would say localhost while every interface listens', async (t) => {
    const everywhere = await npmStart({ HOST: '0.0.0.0', PORT: String(await freePort()) });
    await everywhere.logged(/"level":40[^\n]*PUBLIC_URL is not set/, 5_000);
    await stopsCleanly(t, everywhere, 'idle');
    const local = await npmStart({});
    await stopsCleanly(t, local, 'idle');
    assert.doesNotMatch(local.output(), /PUBLIC_URL is not set/, 'no warning when only this machine can connect');
  });

  it('writes mail without SMTP_URL readably to DATA_DIR/outbox and logs its link', async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'skinservice-proc-'));
    const service = await npmStart({ DATA_DIR: dataDir, PUBLIC_URL: 'http://skins.test' });
    assert.equal((await register(service.address)).status, 200);
    const link = (await service.logged(/"links":\["(http:\/\/skins\.test\/register\/confirm\?code=[A-Z0-9]{8})"\]/))[1]!;
    await stopsCleanly(t, service, 'idle');
    const [file] = readdirSync(join(dataDir, 'outbox'));
    const eml = readFileSync(join(dataDir, 'outbox', file!), 'utf8');
    assert.ok(eml.split('\n').includes(`Or open this link: ${link}`), `the link on a line of its own:\n${eml}`);
  });

  it('finishes a request in flight on SIGTERM', async (t) => {
    const service = await npmStart({});
    // Registration hashes a password (tens of ms): long enough to be in flight when the signal arrives.
    const inFlight = register(service.address);
    await service.logged(/incoming request/);
    const stopped = stopsCleanly(t, service, 'request in flight');
    assert.equal((await inFlight).status, 200);
    await stopped;
  });

  it('stops while a mail is in flight to a stalled SMTP server, and sends that mail at the next start', async (t) => {
    const stalled = await startStalledSmtpServer();
    const dataDir = mkdtempSync(join(tmpdir(), 'skinservice-proc-'));
    const first = await npmStart({ DATA_DIR: dataDir, SMTP_URL: stalled.url });
    const mail = `${uniqueName()}@example.org`;
    assert.equal((await register(first.address, mail)).status, 200);
    await stalled.dataReceived;
    await stopsCleanly(t, first, '(a) mail in flight to a stalled SMTP server');

    const mailbox = await startSmtpServer();
    after(() => mailbox.close());
    const second = await npmStart({ DATA_DIR: dataDir, SMTP_URL: mailbox.url });
    await mailbox.waitFor(mailTo(mail), 10_000);
    // The pool keeps the connection that carried the mail open and idle.
    await stopsCleanly(t, second, '(b) idle pooled SMTP connection');
  });

  it('stops while the SMTP server is down and a retry is pending', async (t) => {
    const service = await npmStart({ SMTP_URL: `smtp://127.0.0.1:${await freePort()}` });
    assert.equal((await register(service.address)).status, 200);
    await service.logged(/mail not sent; will retry/);
    await stopsCleanly(t, service, '(c) SMTP server down, retry pending');
  });

  it('stops while a broadcast is being queued and sent', async (t) => {
    const mailbox = await startSmtpServer();
    after(() => mailbox.close());
    const service = await npmStart({
      SMTP_URL: mailbox.url,
      OWNER_USERNAME: OWNER.username,
      OWNER_MAIL: OWNER.mail,
      OWNER_PASSWORD: OWNER.password,
    });
    const login = await fetch(`${service.address}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: OWNER.username, password: OWNER.password }),
    });
    const { jwt } = (await login.json()).data;
    const broadcast = fetch(`${service.address}/api/admin/mail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` },
      body: JSON.stringify({ subject: 'News', message: 'Hello' }),
    });
    await service.logged(/"url":"\/api\/admin\/mail"/);
    const stopped = stopsCleanly(t, service, '(d) broadcast in progress');
    assert.equal((await broadcast).status, 200);
    await stopped;
  });

  it('closes idle keep-alive connections', async (t) => {
    const service = await npmStart({});
    const agent = new Agent({ keepAlive: true });
    const socket = await new Promise<Socket>((resolve, reject) => {
      const sent = request(`${service.address}/healthz`, { agent }, (response) => {
        response.resume();
        response.on('end', () => resolve(sent.socket!));
      });
      sent.on('error', reject).end();
    });
    const closed = new Promise((resolve) => socket.once('close', resolve));
    await stopsCleanly(t, service, '(e) idle keep-alive clients');
    await closed;
  });

  it('cuts off a client stuck in the middle of a request after a short grace', async (t) => {
    const service = await npmStart({});
    const { port } = new URL(service.address);
    const stuck = connect(Number(port), '127.0.0.1');
    const closed = new Promise((resolve) => stuck.once('close', resolve));
    stuck.on('error', () => {}); // the server resets the connection
    stuck.write('POST /api/auth/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n{"mail":');
    await service.logged(/incoming request/);
    await stopsCleanly(t, service, '(f) client stuck mid-request');
    await closed;
  });

  it(
    'stops WORKERS=2 promptly while a mail is in flight to a stalled SMTP server',
    {
      skip: redisUrl ? false : 'set TEST_REDIS_URL to run the worker processes (they need Redis)',
    },
    async (t) => {
      const stalled = await startStalledSmtpServer();
      const service = await npmStart({ WORKERS: '2', REDIS_URL: redisUrl!, TRUST_PROXY: 'true', SMTP_URL: stalled.url }, 2);
      assert.equal((await register(service.address)).status, 200);
      await stalled.dataReceived;
      await stopsCleanly(t, service, 'WORKERS=2, mail in flight to a stalled SMTP server');
    },
  );
});
