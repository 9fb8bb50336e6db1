// `npm run cli -- copy-database --to URL` (issue 31): a SQLite database filled through the real service is copied to
// a new PostgreSQL database, the service starts on the copy and everything is there (logins, sessions, skins and
// capes, two-factor, game tokens, GravitLauncher hardware, invites, the audit log); then the copy goes back to a new
// SQLite file. A target that is not empty, or a bad URL, is refused and left as it was. Needs TEST_POSTGRES_URL.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import { ManualClock } from '../../test/support/clock.ts';
import { createTestDatabase, type TestDatabase } from '../../test/support/databases.ts';
import { capeFile, skinFile } from '../../test/support/fixtures.ts';
import { LaunchServerRequester } from '../../test/support/launchserver.ts';
import { OWNER, startService, type TestService } from '../../test/support/service.ts';
import { openDatabase } from '../database/connect.ts';
import { HARDWARE_INFO_EXAMPLE } from '../gravit/shapes.ts';
import type { DatabaseSettings, Settings } from '../settings.ts';
import { TABLES } from './copy-database.ts';

const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';
const STEP = 30_000;
const JWT_SECRET = 'copy-test-jwt-secret-that-is-long-enough';
const TOTP_KEY = 'copy-test-totp-key-that-is-long-enough-32';

const urlOf = (settings: DatabaseSettings) => (settings.kind === 'postgres' ? settings.url : `sqlite:${settings.file}`);

/** Runs the CLI as an operator would, on the database `from` (DATABASE_URL). */
const cli = (from: DatabaseSettings, ...args: string[]) =>
  new Promise<{ code: number; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/admin/cli.ts', ...args], {
      env: {
        ...process.env,
        DATA_DIR: mkdtempSync(join(tmpdir(), 'skinservice-copy-cli-')),
        DATABASE_URL: urlOf(from),
        JWT_SECRET,
        TOTP_KEY,
      },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('exit', (code) => resolve({ code: code ?? 1, out, err }));
    child.stdin.end();
  });

/** Every row of every table, comparable across the two kinds: flags as 0/1, bytes as hex, rows in primary-key order. */
async function dumpOf(settings: DatabaseSettings) {
  const db = openDatabase(settings) as Kysely<any>;
  try {
    const dump: Record<string, string[]> = {};
    for (const { name, key } of TABLES) {
      const rows = (await db.selectFrom(name).selectAll().execute()) as Record<string, unknown>[];
      const normal = rows.map((row) =>
        Object.fromEntries(
          Object.entries(row)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([column, value]) => [
              column,
              typeof value === 'boolean' ? Number(value) : Buffer.isBuffer(value) ? `hex:${value.toString('hex')}` : value,
            ]),
        ),
      );
      // Sorted here: the two databases collate text differently.
      const sortKey = (row: Record<string, unknown>) => JSON.stringify(key.map((column) => row[column]));
      dump[name] = normal.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1)).map((row) => JSON.stringify(row));
    }
    return dump;
  } finally {
    await db.destroy();
  }
}

const postgres = process.env.TEST_POSTGRES_URL;

describe('copy-database', { skip: postgres ? false : 'set TEST_POSTGRES_URL to run the copy between SQLite and PostgreSQL' }, () => {
  const clock = new ManualClock();
  const databases: TestDatabase[] = [];
  const services: TestService[] = [];
  const newDatabase = async (kind: 'sqlite' | 'postgres') => {
    const database = await createTestDatabase(kind);
    databases.push(database);
    return database;
  };
  /** The service on `database`, with the secrets of every other one here, its textures in the database. */
  const serviceOn = async (database: TestDatabase, settings: Partial<Settings> = {}) => {
    const service = await startService(database.kind, {
      clock,
      database,
      settings: {
        owner: OWNER,
        jwtSecret: JWT_SECRET,
        totpKey: TOTP_KEY,
        gravitToken: GRAVIT_TOKEN,
        textureStore: 'database',
        // Each start a DATA_DIR of its own: the texture bytes come with the database.
        dataDir: mkdtempSync(join(tmpdir(), 'skinservice-copy-data-')),
        ...settings,
      },
    });
    services.push(service);
    return service;
  };
  const stop = async (service: TestService) => {
    services.splice(services.indexOf(service), 1);
    await service.close();
  };
  const codeAt = (secret: string, timestamp: number) =>
    TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp });
  /** When the last two-factor code was taken: a code of that 30-second step is used up, on the copies too. */
  let lastCodeAt = 0;

  /** What the first service made, to be found again on each copy. */
  let made: {
    steve: { token: string; username: string; password: string; uuid: string };
    twoFactor: { username: string; password: string; secret: string };
    ownerToken: string;
    moderatorToken: string;
    gameToken: string;
    hardware: unknown;
    skin: Buffer;
    cape: Buffer;
    render: Buffer;
    audit: unknown[];
  };
  let sqliteSource: TestDatabase;
  let postgresCopy: TestDatabase;

  before(async () => {
    sqliteSource = await newDatabase('sqlite');
    const source = await serviceOn(sqliteSource);
    const ownerToken = await source.ownerToken();
    const idOf = async (username: string) =>
      (await source.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;

    const steve = await source.registerPlayer();
    const skin = (await source.upload('/api/home/skins', steve.token, { slim: 'true' }, skinFile('slim'))).body.data;
    const uuid = (await source.call('GET', '/api/home', { token: steve.token })).body.data.Uuid as string;
    const cape = await source.upload(
      '/api/admin/user/cape/upload',
      ownerToken,
      { name: 'Cape', owners: String(await idOf(steve.username)) },
      capeFile('cape'),
    );
    assert.equal(cape.status, 200, cape.body?.msg);
    const chose = await source.call('PATCH', '/api/home', {
      token: steve.token,
      body: { selected_skin: skin.uuid, selected_cape: cape.body.data.uuid },
    });
    assert.equal(chose.status, 200, chose.body?.msg);

    const moderator = await source.registerPlayer();
    const granted = await source.call('POST', `/api/admin/user/role/${await idOf(moderator.username)}`, {
      token: ownerToken,
      body: { role_level: 1, expired_at: Math.floor(clock.now() / 1000) + 86_400 },
    });
    assert.equal(granted.status, 200, granted.body?.msg);

    const twoFactor = await source.registerPlayer();
    const setup = await source.call('POST', '/api/home/2fa', { token: twoFactor.token, body: { password: twoFactor.password } });
    const secret = setup.body.data.secret as string;
    lastCodeAt = clock.now();
    const confirmed = await source.call('POST', '/api/home/2fa/confirm', {
      token: twoFactor.token,
      body: { code: codeAt(secret, lastCodeAt) },
    });
    assert.equal(confirmed.status, 200, confirmed.body?.msg);

    const game = await source.call('POST', '/api/yggdrasil/authserver/authenticate', {
      body: { username: steve.username, password: steve.password },
    });
    assert.equal(game.status, 200);

    const launchServer = new LaunchServerRequester(source, GRAVIT_TOKEN);
    const publicKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .publicKey.export({ type: 'spki', format: 'der' })
      .toString('base64url');
    const created = await launchServer.post('hardware/create', { info: { ...HARDWARE_INFO_EXAMPLE, battery: true }, publicKey });
    assert.ok(created.ok, JSON.stringify(created));
    const session = await launchServer.post('authorize', { login: steve.username, password: steve.password });
    assert.ok(session.ok);
    assert.ok((await launchServer.post('hardware/connect', { hardware: created.result, userSession: session.result })).ok);
    assert.ok((await launchServer.post('hardware/ban', { hardware: created.result })).ok);
    const hardware = await launchServer.post('hardware/getbyid', { id: created.result.id });
    assert.equal(hardware.ok && hardware.result.banned, true);

    const invite = await source.call('POST', '/api/admin/invites', { token: ownerToken, body: { note: 'for the copy' } });
    assert.equal(invite.status, 200, invite.body?.msg);

    const get = async (url: string) => {
      const reply = await source.call('GET', url);
      assert.equal(reply.status, 200, url);
      return reply.raw;
    };
    made = {
      steve: { ...steve, uuid },
      twoFactor: { ...twoFactor, secret },
      ownerToken,
      moderatorToken: moderator.token,
      gameToken: game.body.accessToken,
      hardware: hardware.ok && hardware.result,
      skin: await get(`/skins/${uuid}`),
      cape: await get(`/capes/${uuid}`),
      render: await get(`/renders/body/${uuid}`),
      audit: (await source.call('GET', '/api/admin/audit?limit=1000', { token: ownerToken })).body.data,
    };
    assert.ok(made.audit.length >= 10);
    // The owner stops the service before copying.
    await stop(source);
    clock.advance(STEP);
  });
  after(async () => {
    for (const service of services) await service.close().catch(() => {});
    for (const database of databases) await database.drop();
  });

  /** The service on a copy answers as the first one did. */
  const checkCopy = async (service: TestService) => {
    const { steve, twoFactor } = made;
    const audit = (await service.call('GET', '/api/admin/audit?limit=1000', { token: made.ownerToken })).body.data;
    const entries = new Set(audit.map((entry: unknown) => JSON.stringify(entry)));
    for (const entry of made.audit) assert.ok(entries.has(JSON.stringify(entry)), `the audit log has ${JSON.stringify(entry)}`);

    const moderated = await service.call('GET', '/api/admin/audit?limit=1', { token: made.moderatorToken });
    assert.equal(moderated.status, 200, 'the role grant came along');

    const home = await service.call('GET', '/api/home', { token: steve.token });
    assert.equal(home.status, 200, "the web login's token from before (sessions and JWT_SECRET)");
    assert.equal(home.body.data.Uuid, steve.uuid);
    const login = await service.call('POST', '/api/auth/login', { body: { username: steve.username, password: steve.password } });
    assert.equal(login.status, 200, 'the password');
    for (const [url, bytes] of [
      [`/skins/${steve.uuid}`, made.skin],
      [`/capes/${steve.uuid}`, made.cape],
      [`/renders/body/${steve.uuid}`, made.render],
    ] as const) {
      const reply = await service.call('GET', url);
      assert.equal(reply.status, 200, url);
      assert.deepEqual(reply.raw, bytes, url);
    }

    const asked = await service.call('POST', '/api/auth/login', { body: { username: twoFactor.username, password: twoFactor.password } });
    assert.deepEqual([asked.status, asked.body.data], [401, { totp_required: true }], 'two-factor login is still on');
    const withCode = (totp: string) =>
      service.call('POST', '/api/auth/login', { body: { username: twoFactor.username, password: twoFactor.password, totp } });
    assert.notEqual((await withCode(codeAt(twoFactor.secret, lastCodeAt))).status, 200, 'a used code stays used (last_step)');
    clock.advance(STEP);
    lastCodeAt = clock.now();
    assert.equal((await withCode(codeAt(twoFactor.secret, lastCodeAt))).status, 200, 'a code of the same secret (TOTP_KEY)');

    const validated = await service.call('POST', '/api/yggdrasil/authserver/validate', { body: { accessToken: made.gameToken } });
    assert.equal(validated.status, 204, 'the game token');
    const launchServer = new LaunchServerRequester(service, GRAVIT_TOKEN);
    const hardware = await launchServer.post('hardware/getbyid', { id: (made.hardware as { id: string }).id });
    assert.deepEqual(hardware.ok && hardware.result, made.hardware, 'hardware, banned, with its key and battery flag');
    const invites = await service.call('GET', '/api/admin/invites', { token: made.ownerToken });
    assert.deepEqual(
      invites.body.data.map((invite: { note: string; status: string }) => [invite.note, invite.status]),
      [['for the copy', 'usable']],
    );

    // New rows get new ids: the sequences were carried past the copied ones.
    const newcomer = await service.registerPlayer();
    const ids = await service.db.selectFrom('users').select(['id', 'username']).orderBy('id').execute();
    assert.equal(ids.at(-1)!.username, newcomer.username);
    const skin = await service.upload('/api/home/skins', newcomer.token, {}, skinFile('classic'));
    assert.equal(skin.status, 200, skin.body?.msg);
  };

  it('copies SQLite to an empty PostgreSQL database; the service starts on the copy with everything', async () => {
    postgresCopy = await newDatabase('postgres');
    const copied = await cli(sqliteSource.settings, 'copy-database', '--to', urlOf(postgresCopy.settings));
    assert.equal(copied.code, 0, copied.err);
    assert.match(copied.out, /^ {2}users +4$/m);
    assert.match(copied.out, /^ {2}textures +2$/m);
    assert.match(copied.out, /every table has as many rows as in the source/);
    assert.deepEqual(await dumpOf(postgresCopy.settings), await dumpOf(sqliteSource.settings), 'every row of every table, ids kept');
    await checkCopy(await serviceOn(postgresCopy));
  });

  it('copies PostgreSQL back to a new SQLite file', async () => {
    await stop(services.at(-1)!);
    const back = await newDatabase('sqlite');
    const copied = await cli(postgresCopy.settings, 'copy-database', '--to', urlOf(back.settings));
    assert.equal(copied.code, 0, copied.err);
    assert.match(copied.out, /^ {2}users +5$/m, 'with the player registered on PostgreSQL');
    assert.deepEqual(await dumpOf(back.settings), await dumpOf(postgresCopy.settings));
    await checkCopy(await serviceOn(back));
  });

  it('refuses a target that is not empty, or a bad one, and changes nothing', async () => {
    const before = await dumpOf(postgresCopy.settings);
    const filled = await cli(sqliteSource.settings, 'copy-database', '--to', urlOf(postgresCopy.settings));
    assert.equal(filled.code, 1);
    assert.match(filled.err, /is not empty: .*users \(5 rows\).*copies only into an empty database.*Nothing was changed/);
    assert.deepEqual(await dumpOf(postgresCopy.settings), before);

    const sqliteBefore = await dumpOf(sqliteSource.settings);
    const intoSqlite = await cli(postgresCopy.settings, 'copy-database', '--to', urlOf(sqliteSource.settings));
    assert.equal(intoSqlite.code, 1);
    assert.match(intoSqlite.err, /is not empty/);
    assert.deepEqual(await dumpOf(sqliteSource.settings), sqliteBefore);

    const cases: [string[], RegExp][] = [
      [[], /needs --to postgres:\/\//],
      [['--to', 'mysql://root@127.0.0.1/skins'], /give postgres:\/\/user@host:port\/database or sqlite:/],
      [['--to', 'sqlite:'], /give postgres:\/\//],
      [['--to', 'postgres://nobody@127.0.0.1:1/nothing'], /Could not open postgres:\/\/nobody@127\.0\.0\.1:1\/nothing/],
      [['--to', urlOf(sqliteSource.settings)], /the database the settings already use/],
    ];
    for (const [args, message] of cases) {
      const refused = await cli(sqliteSource.settings, 'copy-database', ...args);
      assert.equal(refused.code, 1, args.join(' '));
      assert.match(refused.err, message, args.join(' '));
      assert.doesNotMatch(refused.err, /\n\s+at /, 'a message, not a stack');
    }
    assert.deepEqual(await dumpOf(sqliteSource.settings), sqliteBefore);
  });
});
