// The container image (contract section 23) as an owner runs it: built from the Dockerfile, run by podman with runc,
// on SQLite with a named volume, then on this machine's PostgreSQL and Redis, then through compose.yaml.
// The image: SKINSERVICE_TEST_IMAGE when set (.ci/run builds it once before the tests), else built here from this
// checkout (quick when podman's cache has the layers). The base image node:24-bookworm-slim must exist: no registry
// is reachable from these machines, so ../shared/tools/container-base.sh makes a local stand-in for it first.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import yggdrasil from 'yggdrasil';
import { createTestDatabase } from './support/databases.ts';
import { skinFile } from './support/fixtures.ts';
import { multipartBody } from './support/multipart.ts';
import { freePort } from './support/net.ts';
import { until } from './support/wait.ts';

const root = join(import.meta.dirname, '..');
const podmanMissing = spawnSync('podman', ['--version']).error !== undefined;
// CI installs podman (.ci/run): there its absence is a failure, not a skip.
if (process.env.REQUIRE_SERVICES === '1' && podmanMissing) throw new Error('REQUIRE_SERVICES=1 but podman is not installed');
const skip = podmanMissing ? 'podman is not installed (Debian: apt-get install podman; .ci/run installs it)' : false;
const postgresUrl = process.env.TEST_POSTGRES_URL;
const redisUrl = process.env.TEST_REDIS_URL;

/** Docker's stop timeout, after which it sends SIGKILL: the service must have ended with exit code 0 before. */
const STOP_LIMIT_MS = 10_000;
/** The Kysely migrator's PostgreSQL advisory lock (see test/process.test.ts): held here, it keeps a start waiting. */
const KYSELY_MIGRATION_LOCK = '3853314791062309107';
const PASSWORD = 'a container is a home';
const run = `skinservice-test-${process.pid}`;

/** Runs podman (or podman-compose); its stdout, trimmed. Rejects with its stderr when it fails. */
async function podman(args: string[], options: { command?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {}): Promise<string> {
  const { stdout } = await promisify(execFile)(options.command ?? 'podman', args, {
    cwd: root,
    env: options.env ?? process.env,
    timeout: options.timeout ?? 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout.trim();
}
/** Runs podman and answers its exit code and output instead of rejecting. */
const podmanResult = (args: string[]) => {
  const result = spawnSync('podman', args, { cwd: root, encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
};

let image = process.env.SKINSERVICE_TEST_IMAGE ?? '';
const containers = new Set<string>();
const volumes = new Set<string>();
const networks = new Set<string>();
let named = 0;
const newName = (what: string) => `${run}-${what}-${(named += 1)}`;

async function newVolume(): Promise<string> {
  const volume = newName('data');
  await podman(['volume', 'create', volume]);
  volumes.add(volume);
  return volume;
}
const volumePath = async (volume: string) => podman(['volume', 'inspect', volume, '--format', '{{.Mountpoint}}']);

interface Container {
  name: string;
  base: string;
  logs(): Promise<string>;
  /** `podman stop` (SIGTERM, SIGKILL after 10 s): the exit code and how long the stop took. */
  stop(): Promise<{ exitCode: number; ms: number }>;
}

/** `podman run -d` of the image with these options; resolves at once, without waiting for the service. */
async function startContainer(options: string[], base: string): Promise<Container> {
  const name = newName('service');
  await podman(['run', '-d', '--name', name, ...options, image]);
  containers.add(name);
  return {
    name,
    base,
    logs: () => podman(['logs', name]).catch((error: { stdout?: string }) => error.stdout ?? ''),
    async stop() {
      const started = performance.now();
      await podman(['stop', '--time', String(STOP_LIMIT_MS / 1000), name], { timeout: 60_000 });
      const ms = Math.round(performance.now() - started);
      return { exitCode: Number(await podman(['inspect', name, '--format', '{{.State.ExitCode}}'])), ms };
    },
  };
}

/** The image on SQLite in `volume`, published on a free port of 127.0.0.1 (the service listens on 8080 inside). */
async function startOnVolume(volume: string, extra: string[] = []) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  return startContainer(
    ['--publish', `127.0.0.1:${port}:8080`, '--volume', `${volume}:/data`, '--env', `PUBLIC_URL=${base}`, ...extra],
    base,
  );
}

async function untilHealthy(container: Container) {
  await until(
    async () => {
      const running = await podman(['inspect', container.name, '--format', '{{.State.Running}}']);
      if (running !== 'true') throw new Error(`the container ended: ${await container.logs()}`);
      return (await fetch(`${container.base}/healthz`).catch(() => null))?.status === 200;
    },
    `${container.name} to answer /healthz`,
    120_000,
  );
}

async function stopsCleanly(container: Container, state: string, t: { diagnostic(message: string): void }) {
  const { exitCode, ms } = await container.stop();
  t.diagnostic(`${state}: exit code ${exitCode} ${ms} ms after podman stop`);
  assert.equal(exitCode, 0, `${state}: exit code ${exitCode}: ${await container.logs()}`);
  assert.ok(ms < STOP_LIMIT_MS, `${state}: stopped ${ms} ms after podman stop`);
}

async function call(base: string, method: string, path: string, body?: unknown, token?: string) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}

/**
 * Registers a player as the pages do: the code from the mail the service wrote to its outbox (no SMTP_URL), read from
 * the volume on this machine; then the API login and the username. Answers the player's name and API token.
 */
async function register(base: string, mail: string, readOutbox: () => Promise<string[]>) {
  assert.equal((await call(base, 'POST', '/api/auth/register', { mail, password: PASSWORD })).status, 200);
  let eml: string | undefined;
  await until(async () => (eml = (await readOutbox()).find((text) => text.includes(mail))) !== undefined, `the mail to ${mail}`, 30_000);
  const { text = '' } = await simpleParser(eml!);
  // The code rides in the link's `code` parameter, whatever its form.
  const code = decodeURIComponent(/\/register\/confirm\?code=([^&\s>"]+)/.exec(text)?.[1] ?? '');
  assert.ok(code, `a confirmation link in the mail:\n${text}`);
  assert.equal((await call(base, 'POST', '/api/auth/confirm', { code })).status, 200);
  const token = await apiLogin(base, mail);
  const name = `Ct${createHash('sha256').update(mail).digest('hex').slice(0, 10)}`;
  assert.equal((await call(base, 'POST', '/api/home/registerfinish', { username: name, password: PASSWORD }, token)).status, 200);
  return { name, token };
}

async function apiLogin(base: string, username: string) {
  const login = await call(base, 'POST', '/api/auth/login', { username, password: PASSWORD });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  return login.body.data.jwt as string;
}

/** The game login as a launcher makes it (authlib-injector's authserver), and the skin the game then loads. */
async function gameLogin(base: string, name: string) {
  const auth = await yggdrasil({ host: `${base}/api/yggdrasil/authserver` }).auth({ user: name, pass: PASSWORD });
  assert.equal(auth.selectedProfile.name, name);
  const profile = await call(base, 'GET', `/api/yggdrasil/sessionserver/session/minecraft/profile/${auth.selectedProfile.id}`);
  const textures = JSON.parse(Buffer.from(profile.body.properties[0].value, 'base64').toString('utf8')).textures;
  const skinUrl: string | undefined = textures.SKIN?.url;
  const skin = skinUrl ? Buffer.from(await (await fetch(skinUrl)).arrayBuffer()) : null;
  return { id: auth.selectedProfile.id as string, skinUrl, skin };
}

/** The mails in the outbox of a data folder (none before the first: the service makes the folder then). */
const outboxOf = (folder: string) => async () => {
  const outbox = join(folder, 'outbox');
  if (!existsSync(outbox)) return [];
  return readdirSync(outbox).flatMap((file) => (file.endsWith('.eml') ? [readFileSync(join(outbox, file), 'utf8')] : []));
};

describe('the container image', { skip }, () => {
  before(async () => {
    if (image) return;
    image = `localhost/skinservice:test-${process.pid}`;
    // `--format docker`: the OCI format has no HEALTHCHECK (Docker builds this format anyway).
    await podman(['build', '--format', 'docker', '--network', 'host', '--tag', image, '.'], { timeout: 30 * 60_000 });
  });
  after(async () => {
    for (const container of containers) spawnSync('podman', ['rm', '--force', '--time', '0', container]);
    for (const volume of volumes) spawnSync('podman', ['volume', 'rm', '--force', volume]);
    for (const network of networks) spawnSync('podman', ['network', 'rm', '--force', network]);
    if (!process.env.SKINSERVICE_TEST_IMAGE && image) spawnSync('podman', ['rmi', '--force', image]);
  });

  it('keeps a player who registered on SQLite in its volume: API and game login, the skin, across containers; stops with 0', async (t) => {
    const volume = await newVolume();
    const first = await startOnVolume(volume);
    await untilHealthy(first);

    // The service itself is PID 1, as uid 1000, and its health check turns healthy.
    const status = await podman(['exec', first.name, 'cat', '/proc/1/status']);
    assert.match(status, /^Uid:\s+1000\s+1000\s+1000\s+1000$/m);
    assert.deepEqual((await podman(['exec', first.name, 'cat', '/proc/1/cmdline'])).split('\0').filter(Boolean), [
      'node',
      '--import',
      './src/stop-while-loading.mjs',
      '--import',
      'tsx',
      'src/main.ts',
    ]);
    await until(async () => podmanResult(['healthcheck', 'run', first.name]).status === 0, 'the health check to pass', 60_000);
    assert.equal(await podman(['inspect', first.name, '--format', '{{.State.Health.Status}}']), 'healthy');

    const data = await volumePath(volume);
    const mail = `player-${process.pid}@example.org`;
    const { name, token } = await register(first.base, mail, outboxOf(data));
    const { payload, contentType } = multipartBody({ name: 'mine' }, skinFile('classic'));
    const uploaded = await fetch(`${first.base}/api/home/skins`, {
      method: 'POST',
      headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
      body: new Uint8Array(payload),
    });
    assert.equal(uploaded.status, 200, await uploaded.text());
    const before = await gameLogin(first.base, name);
    // The service stores the PNG it re-encoded, under the SHA-256 of its bytes.
    assert.ok(before.skin, 'the game loads a skin');
    assert.equal(before.skinUrl, `${first.base}/textures/${createHash('sha256').update(before.skin).digest('hex')}`);
    assert.match(readdirSync(data).join(' '), /skinservice\.sqlite/, 'the database is in the volume');
    await stopsCleanly(first, 'idle', t);

    const second = await startOnVolume(volume);
    await untilHealthy(second);
    await apiLogin(second.base, mail);
    const again = await gameLogin(second.base, name);
    assert.equal(again.id, before.id, 'the same profile');
    assert.equal(again.skinUrl?.replace(second.base, ''), before.skinUrl?.replace(first.base, ''), 'the same skin');
    assert.ok(again.skin?.equals(before.skin), 'the same bytes');

    // Busy: renders in flight and a client stuck halfway through an upload when the stop comes.
    const stuck = connect(Number(new URL(second.base).port), '127.0.0.1');
    stuck.on('error', () => {});
    stuck.write(`POST /api/home/skins HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Length: 100000\r\n\r\npartial`);
    let rendering = true;
    const renders = Array.from({ length: 4 }, async () => {
      for (let size = 64; rendering; size += 1)
        await fetch(`${second.base}/api/skin/body/${again.id}?size=${size}&type=player`).catch(() => {});
    });
    await sleep(500);
    await stopsCleanly(second, 'busy', t);
    rendering = false;
    stuck.destroy();
    await Promise.all(renders);
  });

  it('adds at most 160 MB to node:24-bookworm-slim', async (t) => {
    const size = async (name: string) => Number(await podman(['image', 'inspect', name, '--format', '{{.Size}}']));
    const added = (await size(image)) - (await size('docker.io/library/node:24-bookworm-slim'));
    t.diagnostic(`the image adds ${(added / 1e6).toFixed(1)} MB to its base`);
    assert.ok(added <= 160e6, `${added} bytes over the base`);
  });

  it('stops with exit code 0 on a signal that comes while it is still starting', async (t) => {
    const starting = await startOnVolume(await newVolume());
    // Loading its modules takes seconds; the signal comes meanwhile.
    await sleep(500);
    await stopsCleanly(starting, 'starting', t);
    assert.doesNotMatch(await starting.logs(), /Server listening/, 'stopped before it listened');
  });

  it(
    "runs on this machine's PostgreSQL and Redis (--network host), with DATABASE_URL from a file (DATABASE_URL_FILE)",
    { skip: postgresUrl && redisUrl ? false : 'set TEST_POSTGRES_URL and TEST_REDIS_URL' },
    async (t) => {
      const database = await createTestDatabase('postgres');
      const url = (database.settings as { url: string }).url;
      const redis = new Redis(redisUrl!);
      after(async () => {
        redis.disconnect();
        await database.drop();
      });
      const secrets = mkdtempSync(join(tmpdir(), 'skinservice-secrets-'));
      chmodSync(secrets, 0o755);
      writeFileSync(join(secrets, 'database-url'), `${url}\n`, { mode: 0o444 });
      const volume = await newVolume();
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const options = [
        '--network=host',
        '--env',
        `PORT=${port}`,
        '--env',
        'HOST=127.0.0.1',
        '--env',
        `PUBLIC_URL=${base}`,
        '--env',
        'DATABASE_URL_FILE=/run/secrets/database-url',
        '--volume',
        `${join(secrets, 'database-url')}:/run/secrets/database-url:ro`,
        '--env',
        `REDIS_URL=${redisUrl}`,
        '--env',
        'TEXTURE_STORE=database',
      ];

      // Starting: waiting for the migration lock, held here, when the stop comes.
      const lockHolder = new pg.Client({ connectionString: url });
      await lockHolder.connect();
      await lockHolder.query(`SELECT pg_advisory_lock(${KYSELY_MIGRATION_LOCK})`);
      const waiting = await startContainer([...options, '--volume', `${volume}:/data`], base);
      await until(
        async () =>
          (
            await lockHolder.query(
              `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
            )
          ).rowCount! > 0,
        'the service to wait for the migration lock',
        120_000,
      );
      await stopsCleanly(waiting, 'starting (waiting for PostgreSQL)', t);
      await lockHolder.end();

      const service = await startContainer([...options, '--volume', `${volume}:/data`], base);
      await untilHealthy(service);
      const mail = `pg-player-${process.pid}@example.org`;
      const { name } = await register(base, mail, outboxOf(await volumePath(volume)));
      const game = await gameLogin(base, name);
      assert.equal(game.skin, null, 'no skin yet');

      const check = new pg.Client({ connectionString: url });
      await check.connect();
      const { rows } = await check.query('SELECT username FROM users WHERE mail = $1', [mail]);
      const { rows: deployment } = await check.query('SELECT namespace FROM deployment');
      await check.end();
      assert.deepEqual(rows, [{ username: name }], 'the account is in PostgreSQL');
      // A wrong password is counted in Redis, under this database's own namespace.
      assert.equal((await call(base, 'POST', '/api/auth/login', { username: mail, password: 'not the password' })).status, 401);
      assert.ok((await redis.keys(`skinservice:rate:${deployment[0].namespace}:*`)).length > 0, 'rate-limit counters in Redis');
      await stopsCleanly(service, 'idle on PostgreSQL', t);
    },
  );

  it('refuses, with a sentence, a volume the node user cannot write and a secret given both ways', async () => {
    const owned = mkdtempSync(join(tmpdir(), 'skinservice-root-volume-'));
    chmodSync(owned, 0o755);
    const refused = podmanResult(['run', '--rm', '--volume', `${owned}:/data`, image]);
    assert.equal(refused.status, 1, refused.output);
    assert.match(
      refused.output,
      /DATA_DIR: \/data is not writable by the user this service runs as \(uid 1000, gid 1000\): as root, run `chown -R 1000:1000 \/data`/,
    );

    const both = podmanResult(['run', '--rm', '--env', `JWT_SECRET=${'s'.repeat(40)}`, '--env', 'JWT_SECRET_FILE=/etc/hostname', image]);
    assert.equal(both.status, 1, both.output);
    assert.match(both.output, /JWT_SECRET and JWT_SECRET_FILE: both are set/);
  });

  it('starts from compose.yaml with podman-compose and answers /healthz; compose.postgres.yaml waits for healthy servers', async () => {
    const port = await freePort();
    const project = newName('compose');
    const env = { ...process.env, SKINSERVICE_IMAGE: image, SKINSERVICE_PORT: String(port) };
    const compose = (...args: string[]) =>
      podman(['--project-name', project, '--file', 'compose.yaml', ...args], { command: 'podman-compose', env });
    volumes.add(`${project}_skinservice-data`);
    networks.add(`${project}_default`);
    try {
      await compose('up', '--detach');
      await until(
        async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.status === 200,
        'compose.yaml to answer',
        120_000,
      );
      const container = (await podman(['ps', '--filter', `label=com.docker.compose.project=${project}`, '--format', '{{.Names}}'])).split(
        '\n',
      )[0]!;
      containers.add(container);
      assert.match(
        await podman(['inspect', container, '--format', '{{range .Mounts}}{{.Name}}:{{.Destination}} {{end}}']),
        new RegExp(`${project}_skinservice-data:/data`),
      );
    } finally {
      await compose('down').catch(() => {});
    }

    // No registry here for the postgres and redis images: what a Compose implementation reads is checked instead.
    const read = spawnSync(
      'python3',
      ['-c', 'import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))', 'compose.postgres.yaml'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    const file = JSON.parse(read.stdout);
    assert.match(file.services.postgres.image, /^docker\.io\/library\/postgres:17$/);
    assert.match(file.services.redis.image, /^docker\.io\/library\/redis:7$/);
    for (const server of ['postgres', 'redis']) {
      assert.ok(file.services[server].healthcheck.test.length > 1, `${server} is health-checked`);
      assert.deepEqual(file.services.skinservice.depends_on[server], { condition: 'service_healthy' });
    }
    assert.ok(file.services.skinservice.environment.includes('TEXTURE_STORE=database'));
    assert.ok(file.services.skinservice.environment.includes('REDIS_URL=redis://redis:6379'));
    assert.match(
      file.services.skinservice.environment.join(' '),
      /DATABASE_URL=postgres:\/\/skins:\$\{POSTGRES_PASSWORD\}@postgres:5432\/skins/,
    );
  });
});
