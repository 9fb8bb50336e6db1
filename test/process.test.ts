// The service as `npm start` runs it: settings from the environment, a real port, and a stop on SIGTERM that ends
// with exit code 0 within 5 s whatever the service is doing (container managers send SIGKILL after 10 s).
import { DEFAULT_PROFILE_SETTINGS } from '../src/settings.ts';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, type TestContext } from 'node:test';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { createTestDatabase } from './support/databases.ts';
import { freePort } from './support/net.ts';
import { skinFile } from './support/fixtures.ts';
import { multipartBody } from './support/multipart.ts';
import { createAccount } from '../src/accounts/create-account.ts';
import { serviceActing } from '../src/audit/acting.ts';
import { systemClock } from '../src/clock.ts';
import { migrateToLatest, openDatabase } from '../src/database/connect.ts';
import { OWNER, randomAddress, uniqueName } from './support/service.ts';
import { mailTo, startSmtpServer } from './support/smtp.ts';
import { until } from './support/wait.ts';

const STOP_LIMIT_MS = 5_000;
/** The advisory lock Kysely's migrator takes on PostgreSQL (kysely/dist/esm/dialect/postgres/postgres-adapter.js). */
const KYSELY_MIGRATION_LOCK = '3853314791062309107';
const postgresSkip = process.env.TEST_POSTGRES_URL ? false : 'set TEST_POSTGRES_URL';
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

/**
 * `npm start` in a process group of its own, with the embedded defaults plus `env`; resolves once `listeners`
 * processes listen (0: at once, with no address).
 */
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
  const address = listeners === 0 ? '' : (await logged(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/))[1]!;
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
    await createAccount(
      serviceActing('system'),
      db,
      systemClock,
      { username: 'Taken', mail: 'someone@example.org', password: 'a good password', perms: 0 },
      DEFAULT_PROFILE_SETTINGS,
    );
    await db.destroy();
    const stderr = await refusedStart({
      DATA_DIR: dataDir,
      OWNER_USERNAME: 'Taken',
      OWNER_MAIL: OWNER.mail,
      OWNER_PASSWORD: OWNER.password,
    });
    assert.match(stderr, /OWNER_USERNAME: Taken is taken/);
  });

  it('refuses a new owner named as the audit names the service, with a message naming OWNER_USERNAME', async () => {
    const stderr = await refusedStart({ OWNER_USERNAME: 'System', OWNER_MAIL: OWNER.mail, OWNER_PASSWORD: OWNER.password });
    assert.match(stderr, /OWNER_USERNAME: .*reserved/);
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
        serviceActing('system'),
        db,
        systemClock,
        { username: 'Taken', mail: 'someone@example.org', password: 'a good password', perms: 0 },
        DEFAULT_PROFILE_SETTINGS,
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

  it('says once it listens, in one line, the address to open, the database, where mail goes and how to make an owner', async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'skinservice-proc-'));
    const service = await npmStart({ DATA_DIR: dataDir });
    const port = new URL(service.address).port;
    const [line] = await service.logged(/\{"level":30[^\n]*"msg":"open http:\/\/localhost:\d+\/[^\n]*\n/);
    await stopsCleanly(t, service, 'idle');
    assert.ok(line.includes(`"msg":"open http://localhost:${port}/ (the game login`), line);
    assert.ok(
      line.includes(`database: SQLite file ${join(dataDir, 'skinservice.sqlite')}; mail: written to ${join(dataDir, 'outbox')}`),
      line,
    );
    assert.ok(line.includes('; no owner yet: set OWNER_USERNAME, OWNER_MAIL and OWNER_PASSWORD in .env and start again'), line);
  });

  it(
    'writes readable lines instead of JSON when its output is a terminal',
    { skip: existsSync('/usr/bin/script') ? false : 'needs script(1) of util-linux for a terminal' },
    async () => {
      // script(1) gives the service a pseudo-terminal; the shell prints the service's pid, to stop it by.
      const child = spawn('script', ['-qfec', `sh -c 'echo "pid $$"; exec "${process.execPath}" --import tsx src/main.ts'`, '/dev/null'], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          DATA_DIR: mkdtempSync(join(tmpdir(), 'skinservice-proc-')),
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
        },
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const plain = () => output.replace(/\u001b\[\d+m/g, '').replace(/\r/g, '');
      try {
        await until(async () => /INFO  open http:\/\/localhost:\d+\//.test(plain()) || child.exitCode !== null, 'the start line', 60_000);
        const address = /INFO  open (http:\/\/localhost:\d+)\//.exec(plain())?.[1];
        assert.ok(address, plain());
        await fetch(`${address.replace('localhost', '127.0.0.1')}/healthz?code=TERMINALSECRET`);
        await until(async () => / → 200 in [\d.]+ ms\n/.test(plain()), 'the request logged', 10_000);
        assert.match(plain(), /^\d\d:\d\d:\d\d\.\d{3} INFO  [0-9a-f]{8} GET \/healthz\?code=\[redacted\] from 127\.0\.0\.1$/m);
        assert.match(
          plain(),
          /INFO  open http:\/\/localhost:\d+\/ \(the game login[^\n]*; database: SQLite file [^\n]*; mail: written to /,
        );
        assert.doesNotMatch(plain(), /\{"level"/, 'no JSON line');
        assert.ok(!output.includes('TERMINALSECRET'));
      } finally {
        const pid = Number(/^pid (\d+)/m.exec(plain())?.[1]);
        if (pid) process.kill(pid, 'SIGTERM');
        else child.kill('SIGKILL');
        await exited;
      }
    },
  );

  it('stops with exit code 0 on a signal that comes while it is still starting', { skip: postgresSkip }, async (t) => {
    // The start waits for the migration lock (Kysely's advisory lock) held here; the signal comes meanwhile.
    const database = await createTestDatabase('postgres');
    after(() => database.drop());
    const lockHolder = new pg.Client({ connectionString: (database.settings as { url: string }).url });
    await lockHolder.connect();
    await lockHolder.query(`SELECT pg_advisory_lock(${KYSELY_MIGRATION_LOCK})`);
    const service = await npmStart({ DATABASE_URL: (database.settings as { url: string }).url }, 0);
    await until(
      // This database's lock only: another test file's service may wait for its own at the same time.
      async () =>
        (
          await lockHolder.query(
            `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
          )
        ).rowCount! > 0,
      'the service to wait for the migration lock',
      30_000,
    );
    const stopped = stopsCleanly(t, service, 'starting');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await lockHolder.query(`SELECT pg_advisory_unlock(${KYSELY_MIGRATION_LOCK})`);
    await lockHolder.end();
    await stopped;
  });

  it('writes mail without SMTP_URL readably to DATA_DIR/outbox and logs its link', async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'skinservice-proc-'));
    const service = await npmStart({ DATA_DIR: dataDir, PUBLIC_URL: 'http://skins.test' });
    assert.equal((await register(service.address)).status, 200);
    const link = (await service.logged(/"links":\["(http:\/\/skins\.test\/register\/confirm\?code=[A-Z0-9]{26})"\]/))[1]!;
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

  it('stops with the imported password checks’ threads started, idle and busy', async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'skinservice-proc-'));
    const service = await npmStart({
      DATA_DIR: dataDir,
      OWNER_USERNAME: OWNER.username,
      OWNER_MAIL: OWNER.mail,
      OWNER_PASSWORD: OWNER.password,
    });
    // The owner's password as an import of a CookieCMS site leaves it: bcrypt, cost 12 (a second's work per check).
    const bcrypt12 = execFileSync(
      'python3',
      ['-W', 'ignore', '-c', 'import crypt; print(crypt.crypt("old password", crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=4096)))'],
      { encoding: 'utf8' },
    ).trim();
    const db = openDatabase({ kind: 'sqlite', file: join(dataDir, 'skinservice.sqlite') });
    await db
      .updateTable('users')
      .set({ password: `imported:bcrypt:${bcrypt12}` })
      .where('mail', '=', OWNER.mail)
      .execute();
    await db.destroy();
    const login = () =>
      fetch(`${service.address}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', connection: 'close', 'x-forwarded-for': randomAddress() },
        body: JSON.stringify({ username: OWNER.username, password: 'a wrong password' }),
      });
    // Two checks start both threads; they stay idle after answering.
    assert.deepEqual(
      (await Promise.all([login(), login()])).map((answer) => answer.status),
      [401, 401],
    );
    const inFlight = login();
    await until(async () => (service.output().match(/incoming request/g) ?? []).length >= 3, 'the third login to arrive');
    await stopsCleanly(t, service, 'an imported password check in flight, a thread idle');
    assert.equal((await inFlight).status, 401, 'the check in flight was answered');
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

  it('keeps DATA_DIR, the database, textures, secret files and the outbox from other local users, under umask 022', async (t) => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'skinservice-proc-')), 'data');
    // What a shell usually has: files it creates are readable by everyone unless the service says otherwise.
    const umask = process.umask(0o022);
    const service = await npmStart({
      DATA_DIR: dataDir,
      OWNER_USERNAME: OWNER.username,
      OWNER_MAIL: OWNER.mail,
      OWNER_PASSWORD: OWNER.password,
    }).finally(() => process.umask(umask));
    assert.equal((await register(service.address)).status, 200);
    await service.logged(/mail written to file/);
    const login = await fetch(`${service.address}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: OWNER.username, password: OWNER.password }),
    });
    const { payload, contentType } = multipartBody({ name: 'Skin' }, skinFile('classic'));
    const uploaded = await fetch(`${service.address}/api/home/skins`, {
      method: 'POST',
      headers: { 'content-type': contentType, authorization: `Bearer ${(await login.json()).data.jwt}` },
      body: new Uint8Array(payload),
    });
    assert.equal(uploaded.status, 200);

    // While it runs: SQLite removes its -wal and -shm files at a clean stop.
    const made = readdirSync(dataDir, { recursive: true, encoding: 'utf8' });
    for (const name of [
      'skinservice.sqlite',
      'skinservice.sqlite-wal',
      'skinservice.sqlite-shm',
      'jwt-secret',
      'totp-key',
      'outbox',
      'textures',
    ]) {
      assert.ok(made.includes(name), `${name} in ${made.join(', ')}`);
    }
    assert.ok(
      made.some((name) => name.startsWith('outbox/') && name.endsWith('.eml')),
      'a mail in the outbox',
    );
    assert.ok(
      made.some((name) => name.startsWith('textures/') && name.endsWith('.png')),
      'a texture file',
    );
    const open = ['', ...made].map((name) => [name || 'DATA_DIR', statSync(join(dataDir, name)).mode & 0o777] as const);
    t.diagnostic(open.map(([name, mode]) => `${name} ${mode.toString(8)}`).join(', '));
    assert.deepEqual(
      open.filter(([, mode]) => (mode & 0o077) !== 0),
      [],
      'nothing readable, writable or searchable by group or others',
    );
    await stopsCleanly(t, service, 'idle');
  });

  it('writes no secret into any log line, even at LOG_LEVEL=trace', async (t) => {
    const service = await npmStart({ LOG_LEVEL: 'trace' });
    const secrets = [
      'SECRET1234',
      'INVITESECRET1',
      'INVITESECRET2',
      'DISCORDCODE1',
      'DISCORDSTATE1',
      'ESCAPEDCODE1',
      'a password secret',
      'BEARERSECRET1',
    ];
    const get = (path: string, headers: Record<string, string> = {}) => fetch(`${service.address}${path}`, { headers });
    await get('/reset/confirm?code=SECRET1234');
    await get('/register?invite=INVITESECRET1');
    await get('/api/auth/registration?invite=INVITESECRET2');
    await get('/discord?code=DISCORDCODE1&state=DISCORDSTATE1');
    await get('/register/confirm?%63ode=ESCAPEDCODE1');
    await get('/api/home', { authorization: 'Bearer BEARERSECRET1' });
    for (const path of ['/api/auth/login', '/api/yggdrasil/authserver/authenticate']) {
      await fetch(`${service.address}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer BEARERSECRET1' },
        body: JSON.stringify({ username: 'nobody@example.org', password: 'a password secret' }),
      });
    }
    await stopsCleanly(t, service, 'idle');
    const output = service.output();
    assert.match(output, /"url":"\/reset\/confirm\?code=\[redacted\]"/, 'the request is logged, its code replaced');
    for (const secret of secrets) assert.ok(!output.includes(secret), `${secret} in the log:\n${output}`);
  });
});
