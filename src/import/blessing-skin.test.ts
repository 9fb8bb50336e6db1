// Importing a Blessing Skin site (contract section 17): the source is built in MariaDB with Blessing Skin's own DDL
// (its Laravel migrations in database/migrations, as Laravel makes them on MySQL, and the yggdrasil-api plugin's
// `uuid` table; a second source has an older `players` table and yggdrasil-connect's `uuid` table with `pid`), its
// passwords hashed by other code than the importer's (Python's hashlib for SALTED2SHA256 with the site's SALT, Python's
// crypt for bcrypt, rewritten `$2y$` as PHP writes it), its texture files named by their hash. After the import the
// players log in with their old passwords through the web login, the game login (the `yggdrasil` client) and the
// launcher API, and the served skins are the source's pixels.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import yggdrasil from 'yggdrasil';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../../test/support/databases.ts';
import { fixture, FIXTURES } from '../../test/support/fixtures.ts';
import { importTarget, pixelsOf, runImportCli, type ImportTarget, leftOutOf } from '../../test/support/import-run.ts';
import { LaunchServerRequester } from '../../test/support/launchserver.ts';
import { createMariaDbSource, skipWithoutMariaDb, type MariaDbSource } from '../../test/support/mariadb.ts';
import { randomAddress, startService, type TestService } from '../../test/support/service.ts';

/** The tables as Blessing Skin's migrations leave them (2016_11_18 … 2021_06_06), column for column. */
const BLESSING_SKIN_DDL = `
CREATE TABLE users (uid int unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, email varchar(100) NOT NULL,
  nickname varchar(50) NOT NULL DEFAULT '', locale varchar(255) NULL, score int NOT NULL, avatar int NOT NULL DEFAULT '0',
  password varchar(255) NOT NULL, ip varchar(45) NOT NULL, is_dark_mode tinyint(1) NOT NULL DEFAULT '0',
  permission int NOT NULL DEFAULT '0', last_sign_at datetime NOT NULL, register_at datetime NOT NULL,
  verified tinyint(1) NOT NULL DEFAULT '0', verification_token varchar(255) NOT NULL DEFAULT '',
  remember_token varchar(100) NULL) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
CREATE TABLE players (pid int unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, uid int NOT NULL, name varchar(50) NOT NULL,
  tid_cape int NOT NULL DEFAULT '0', last_modified datetime NOT NULL, tid_skin int NOT NULL DEFAULT '-1')
  DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
CREATE TABLE textures (tid int unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, name varchar(50) NOT NULL,
  type varchar(10) NOT NULL, hash varchar(64) NOT NULL, size int NOT NULL, uploader int NOT NULL, public tinyint NOT NULL,
  upload_at datetime NOT NULL, likes int unsigned NOT NULL DEFAULT '0') DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
CREATE TABLE options (id int unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, option_name varchar(50) NOT NULL,
  option_value longtext NOT NULL) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
CREATE TABLE user_closet (user_uid int NOT NULL, texture_tid int NOT NULL, item_name text NULL)
  DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
CREATE TABLE reports (id int unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, tid int NOT NULL, uploader int NOT NULL,
  reporter int NOT NULL, reason longtext NOT NULL, status int NOT NULL, report_at datetime NOT NULL)
  DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
`;

/** yggdrasil-api's callbacks.php (PluginWasEnabled). */
const YGGDRASIL_API_UUID_DDL = `
CREATE TABLE uuid (id int unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, name varchar(255) NOT NULL, uuid varchar(255) NOT NULL)
  DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
`;

/**
 * An older install: `players` before the 2019-03-13 rename (`player_name`), with the `preference` leftover the
 * 2019-03-01 migration made nullable; yggdrasil-connect's `uuid` table (callbacks.php) with its `pid`.
 */
const OLDER_DDL = BLESSING_SKIN_DDL.replace(
  'name varchar(50) NOT NULL,\n  tid_cape',
  'player_name varchar(50) NOT NULL, preference varchar(10) NULL,\n  tid_cape',
).concat(`
CREATE TABLE uuid (id int unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, pid int unsigned NOT NULL, name varchar(255) NOT NULL,
  uuid varchar(255) NOT NULL, created_at timestamp NULL, updated_at timestamp NULL, UNIQUE KEY uuid_pid_unique (pid),
  UNIQUE KEY uuid_name_unique (name), UNIQUE KEY uuid_uuid_unique (uuid),
  CONSTRAINT uuid_pid_foreign FOREIGN KEY (pid) REFERENCES players (pid) ON DELETE CASCADE)
  DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
`);

/** The site's SALT (.env): any text, a colon too. */
const SALT = 'S4lt: of the site';

/** Blessing Skin's SALTED2SHA256, sha256(sha256hex(p) ‖ SALT), by Python's hashlib. */
const salted2sha256 = (password: string) =>
  execFileSync(
    'python3',
    [
      '-c',
      'import hashlib,sys; print(hashlib.sha256((hashlib.sha256(sys.argv[1].encode()).hexdigest() + sys.argv[2]).encode()).hexdigest())',
      password,
      SALT,
    ],
    { encoding: 'utf8' },
  ).trim();

/** bcrypt as PHP's password_hash writes it ($2y$), made by Python's crypt ($2b$, the same algorithm). */
const phpBcrypt = (password: string) =>
  execFileSync(
    'python3',
    ['-W', 'ignore', '-c', 'import crypt,sys; print(crypt.crypt(sys.argv[1], crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1024)))', password],
    { encoding: 'utf8' },
  )
    .trim()
    .replace(/^\$2b\$/, '$2y$');

/** A game server's offline-mode UUID of a name (Java's UUID.nameUUIDFromBytes), computed here on its own. */
function offlineUuid(name: string): string {
  const bytes = createHash('md5').update(`OfflinePlayer:${name}`).digest();
  bytes[6] = (bytes[6]! & 0x0f) | 0x30;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return bytes.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
}

const dashed = (hex: string) => hex.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
/** Blessing Skin's file name for an upload: the SHA-256 of its bytes. */
const hashOf = (path: string) => createHash('sha256').update(fixture(path)).digest('hex');

const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';

describeEachDatabase('importing Blessing Skin', (kind) => {
  let source: MariaDbSource;
  let older: MariaDbSource;
  let texturesDir: string;
  let database: TestDatabase;
  let target: ImportTarget;
  let service: TestService;
  let existingName: string;
  const alexUuid = randomUUID().replace(/-/g, '');
  const frankUuid = randomUUID().replace(/-/g, '');
  const files = {
    slim: hashOf('skins/slim.png'),
    classic: hashOf('skins/classic.png'),
    cape: hashOf('capes/cape.png'),
    truncated: hashOf('invalid/truncated.png'),
    bomb: hashOf('invalid/bomb-20000x20000.png'),
  };

  before(async () => {
    if (skipWithoutMariaDb) return;
    source = await createMariaDbSource(BLESSING_SKIN_DDL + YGGDRASIL_API_UUID_DDL);
    older = await createMariaDbSource(OLDER_DDL);
    texturesDir = mkdtempSync(join(tmpdir(), 'blessing-skin-textures-'));
    for (const [name, path] of Object.entries({
      slim: 'skins/slim.png',
      classic: 'skins/classic.png',
      cape: 'capes/cape.png',
      truncated: 'invalid/truncated.png',
      bomb: 'invalid/bomb-20000x20000.png',
    }))
      copyFileSync(join(FIXTURES, path), join(texturesDir, files[name as keyof typeof files]));

    database = await createTestDatabase(kind);
    target = importTarget(database);
    service = await startService(kind, { database, settings: { dataDir: target.dataDir, gravitToken: GRAVIT_TOKEN } });
    // An account here whose name a source player has: that source account is left out, this one untouched.
    existingName = (await service.registerPlayer({ username: 'CarolHere' })).username;

    const user = `(?, ?, 'nick', 1000, 0, ?, '127.0.0.1', 0, ?, '2024-01-01 00:00:00', ?, 0, '', NULL)`;
    await source.run(
      `INSERT INTO users (uid, email, nickname, score, avatar, password, ip, is_dark_mode, permission, last_sign_at, register_at,
       verified, verification_token, remember_token) VALUES ${[user, user, user, user, user].join(', ')}`,
      [
        ...[1, 'alex@example.org', salted2sha256('alex old password'), 2, '2020-05-01 12:00:00'],
        ...[2, 'bob@example.org', salted2sha256('bob old password'), 0, '2021-01-01 00:00:00'],
        ...[3, 'carol@example.org', salted2sha256('carol password'), 0, '2021-01-01 00:00:00'],
        // A hash the method (SALTED2SHA256) never writes: Dave comes in without a usable password.
        ...[4, 'dave@example.org', phpBcrypt('dave password'), -1, '2021-01-01 00:00:00'],
        ...[5, 'erin@example.org', salted2sha256('erin old password'), 1, '2021-01-01 00:00:00'],
      ],
    );
    await source.run(
      `INSERT INTO textures (tid, name, type, hash, size, uploader, public, upload_at, likes) VALUES
       (1, 'Summer upload', 'alex', ?, 1, 1, 1, '2021-01-01 00:00:00', 3), (2, 'Plain', 'steve', ?, 1, 1, 1, '2021-01-01 00:00:00', 0),
       (3, 'Founder', 'cape', ?, 1, 1, 1, '2021-01-01 00:00:00', 2), (4, 'Broken', 'steve', ?, 1, 4, 1, '2021-01-01 00:00:00', 0),
       (5, 'Bomb', 'steve', ?, 1, 4, 1, '2021-01-01 00:00:00', 0)`,
      [files.slim, files.classic, files.cape, files.truncated, files.bomb],
    );
    await source.run(
      `INSERT INTO players (pid, uid, name, tid_cape, last_modified, tid_skin) VALUES
       (1, 1, 'AlexBS', 3, '2021-01-01 00:00:00', 1), (2, 4, 'DaveBS', 0, '2021-01-01 00:00:00', 4),
       (3, 1, 'AlexAlt', 0, '2021-01-01 00:00:00', 2), (4, 3, 'carolhere', 0, '2021-01-01 00:00:00', 0),
       (5, 5, 'ErinBS', 3, '2021-01-01 00:00:00', 2)`,
    );
    await source.run(
      `INSERT INTO user_closet (user_uid, texture_tid, item_name) VALUES (1, 1, 'Summer look'), (1, 2, 'Winter'), (1, 3, 'My cape'),
       (2, 3, 'Kept'), (4, 4, 'Broken'), (4, 5, 'Bomb'), (5, 3, 'Borrowed cape')`,
    );
    // The plugin's rows, in its letter case; AlexAlt has none (offline UUID).
    await source.run(`INSERT INTO uuid (name, uuid) VALUES ('alexbs', ?), ('ErinBS', ?)`, [alexUuid, randomUUID().replace(/-/g, '')]);

    await older.run(
      `INSERT INTO users (uid, email, score, password, ip, permission, last_sign_at, register_at)
       VALUES (1, 'frank@example.org', 0, ?, '::1', 0, '2019-01-01 00:00:00', '2019-01-01 00:00:00')`,
      [phpBcrypt('frank old password')],
    );
    await older.run(
      `INSERT INTO players (pid, uid, player_name, preference, tid_cape, last_modified, tid_skin)
       VALUES (1, 1, 'FrankOld', 'default', 0, '2019-01-01 00:00:00', 0)`,
    );
    // yggdrasil-connect keeps the row by pid; its name is stale (the player was renamed), the pid decides.
    await older.run(`INSERT INTO uuid (pid, name, uuid) VALUES (1, 'FrankBefore', ?)`, [frankUuid]);
  });
  after(async () => {
    await service?.close();
    await source?.drop();
    await older?.drop();
  });

  const importArgs = () => ['blessing-skin', '--from', source.url, '--textures', texturesDir, '--password-method', 'SALTED2SHA256'];
  const importMap = async () => (await service.db.selectFrom('import_map').selectAll().execute()).length;

  it('refuses a SALTED2 method without --salt, or an unknown method, before opening the source', { skip: skipWithoutMariaDb }, async () => {
    const unreachable = 'mysql://root@127.0.0.1:1/nothing';
    const noSalt = await runImportCli(target, ['blessing-skin', '--from', unreachable, '--password-method', 'SALTED2SHA256']);
    assert.equal(noSalt.code, 1);
    assert.match(noSalt.err, /--password-method SALTED2SHA256 needs --salt/);
    const unknown = await runImportCli(target, ['blessing-skin', '--from', unreachable, '--password-method', 'ROT13']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /--password-method "ROT13" is not a Blessing Skin PWD_METHOD/);
    const realSourceNoSalt = await runImportCli(target, importArgs());
    assert.equal(realSourceNoSalt.code, 1);
    assert.equal(await importMap(), 0, 'nothing written');
  });

  it('reads everything on a dry run and writes nothing', { skip: skipWithoutMariaDb }, async () => {
    const users = async () => (await service.db.selectFrom('users').select('id').execute()).length;
    const before = await users();
    const dry = await runImportCli(target, [...importArgs(), '--salt', SALT, '--dry-run']);
    assert.equal(dry.code, 0, dry.err);
    assert.equal(dry.report?.dry_run, true);
    assert.deepEqual(dry.report?.counts.accounts, { imported: 4, already: 0, left_out: 1 });
    assert.deepEqual(dry.report?.counts.profiles, { imported: 4, already: 0, left_out: 0 });
    assert.match(dry.out, /accounts: 4 would be imported, 0 already here, 1 would be left out/);
    assert.equal(await users(), before, 'no account written');
    assert.equal(await importMap(), 0);
    assert.equal((await service.db.selectFrom('audit_log').select('id').where('action', '=', 'import.run').execute()).length, 0);
  });

  it(
    'brings the users over with their passwords, players as profiles, UUIDs, levels, closets and capes',
    { skip: skipWithoutMariaDb },
    async () => {
      const run = await runImportCli(target, [...importArgs(), '--salt', SALT]);
      assert.equal(run.code, 0, run.err);
      const report = run.report!;
      assert.equal(report.dry_run, false);
      assert.deepEqual(report.counts.accounts, { imported: 4, already: 0, left_out: 1 });
      assert.deepEqual(report.counts.profiles, { imported: 4, already: 0, left_out: 0 });
      // Alex's two closet skins, the skin Erin's player wore without holding it; Dave's two broken files.
      assert.deepEqual(report.counts.skins, { imported: 3, already: 0, left_out: 2 });
      assert.deepEqual(report.counts.capes, { imported: 1, already: 0, left_out: 0 });
      const leftOut = (kind: string, id: string) => leftOutOf(report, kind, id);
      assert.match(leftOut('account', '3')!.reason, /carolhere is taken/);
      assert.ok(leftOut('skin', '4'), 'a broken PNG is left out');
      assert.ok(leftOut('skin', '5'), 'a decompression bomb is left out');
      assert.ok(leftOut('password', '4'), 'a hash the method never writes is reported');
      assert.equal(report.left_out.filter((entry) => entry.kind === 'password').length, 1);

      // Alex (super admin): the web login by mail with the old password; the stored hash is argon2id afterwards.
      const web = await service.call('POST', '/api/auth/login', {
        body: { username: 'alex@example.org', password: 'alex old password' },
        ip: randomAddress(),
      });
      assert.equal(web.status, 200, JSON.stringify(web.body));
      const alex = await service.db
        .selectFrom('users')
        .select(['password', 'perms', 'mail_verify', 'created_at'])
        .where('mail', '=', 'alex@example.org')
        .executeTakeFirstOrThrow();
      assert.match(alex.password, /^\$argon2id\$/);
      assert.equal(alex.perms, 3, 'permission 2 (super admin) is our owner level');
      assert.equal(alex.mail_verify, 1, 'unverified in Blessing Skin, which lets them play: verified here');
      assert.equal(Number(alex.created_at), Date.UTC(2020, 4, 1, 4, 0, 0), 'register_at, in Asia/Shanghai');
      const home = (await service.call('GET', '/api/home', { token: web.body.data.jwt })).body.data;
      assert.equal(home.Uuid, dashed(alexUuid), 'the uuid table, matched in any letter case');
      assert.equal(home.Username, 'AlexBS', 'the lowest pid is the primary profile');
      assert.deepEqual(
        home.Profiles.map((profile: { Username: string; Uuid: string; Primary: boolean }) => [
          profile.Username,
          profile.Uuid,
          profile.Primary,
        ]),
        [
          ['AlexBS', dashed(alexUuid), true],
          ['AlexAlt', offlineUuid('AlexAlt'), false],
        ],
      );
      assert.deepEqual(home.Skins.map((skin: { name: string }) => skin.name).sort(), ['Summer look', 'Winter'], 'closet item names');
      assert.deepEqual(
        home.Capes.map((cape: { Name: string }) => cape.Name),
        ['Founder'],
      );

      // Worn as Blessing Skin wore them: AlexBS the slim closet skin and the cape, AlexAlt the classic one.
      const worn = async (uuid: string) => (await service.call('GET', `/api/skin/launcher/${uuid}`)).body;
      const primary = await worn(dashed(alexUuid));
      assert.equal(primary.SKIN.metadata?.model, 'slim', 'type alex is a slim model');
      const served = await service.call('GET', `/textures/${primary.SKIN.digest}`);
      assert.deepEqual(pixelsOf(served.raw), pixelsOf(fixture('skins/slim.png')), 'the same pixels as the source file');
      const cape = await service.call('GET', `/textures/${primary.CAPE.digest}`);
      assert.deepEqual(pixelsOf(cape.raw), pixelsOf(fixture('capes/cape.png')));
      const second = await worn(offlineUuid('AlexAlt'));
      assert.equal(second.SKIN.metadata, undefined, 'type steve is a classic model');
      assert.deepEqual(
        pixelsOf((await service.call('GET', `/textures/${second.SKIN.digest}`)).raw),
        pixelsOf(fixture('skins/classic.png')),
      );
      assert.equal(second.CAPE, undefined);

      // The game login with the real client, by the second player's name: it binds that profile.
      const game = await yggdrasil({ host: `${await listening(service)}/api/yggdrasil/authserver` }).auth({
        user: 'AlexAlt',
        pass: 'alex old password',
      });
      assert.equal(game.selectedProfile.id, offlineUuid('AlexAlt').replace(/-/g, ''));
      assert.equal(game.selectedProfile.name, 'AlexAlt');

      // Bob had no player: he logs in with his mail and is sent to choose a name (registration step 3).
      const bob = await service.call('POST', '/api/auth/login', {
        body: { username: 'bob@example.org', password: 'bob old password' },
        ip: randomAddress(),
      });
      assert.equal(bob.status, 200, JSON.stringify(bob.body));
      assert.match(bob.body.url, /\/register\/finish$/);
      const bobRow = await service.db
        .selectFrom('users')
        .select(['id', 'username', 'perms'])
        .where('mail', '=', 'bob@example.org')
        .executeTakeFirstOrThrow();
      assert.equal(bobRow.username, null);
      assert.equal(bobRow.perms, 0);
      assert.equal((await service.db.selectFrom('profiles').select('uuid').where('user_id', '=', bobRow.id).execute()).length, 0);
      const bobCapes = await service.db
        .selectFrom('cape_owners')
        .innerJoin('capes', 'capes.id', 'cape_owners.cape_id')
        .select('capes.name')
        .where('cape_owners.user_id', '=', bobRow.id)
        .execute();
      assert.deepEqual(bobCapes, [{ name: 'Founder' }], 'a cape in the closet is owned, worn or not');

      // Erin (admin) through the launcher API; her player wears the cape her closet holds (the one Alex owns too)
      // and the skin it wore without her closet holding it, now in her wardrobe under the texture's name.
      const launchServer = new LaunchServerRequester(service, GRAVIT_TOKEN);
      const authorized = await launchServer.post('authorize', { login: 'ErinBS', password: 'erin old password' });
      assert.ok(authorized.ok, JSON.stringify(authorized));
      const erin = await service.db
        .selectFrom('users')
        .select(['id', 'uuid', 'perms', 'password'])
        .where('mail', '=', 'erin@example.org')
        .executeTakeFirstOrThrow();
      assert.equal(authorized.result.user.uuid, erin.uuid);
      assert.equal(erin.perms, 2, 'permission 1 (admin) is our admin');
      assert.match(erin.password, /^\$argon2id\$/);
      const erinWorn = await worn(erin.uuid!);
      assert.equal(erinWorn.CAPE.digest, primary.CAPE.digest, 'one cape, shared');
      assert.equal(erinWorn.SKIN.digest, second.SKIN.digest);
      assert.deepEqual(
        (await service.db.selectFrom('skins').select('name').where('user_id', '=', erin.id).execute()).map((skin) => skin.name),
        ['Plain'],
      );
      assert.equal((await service.db.selectFrom('capes').select('id').execute()).length, 1);

      // Dave: banned as Blessing Skin had him, without his broken files, without a usable password.
      const dave = await service.db
        .selectFrom('users')
        .select(['id', 'perms', 'password', 'uuid'])
        .where('mail', '=', 'dave@example.org')
        .executeTakeFirstOrThrow();
      assert.equal(dave.perms, -1);
      assert.match(dave.password, /^imported:unusable:/);
      assert.equal(dave.uuid, offlineUuid('DaveBS'), 'no uuid row: the offline UUID of the name');
      assert.equal((await service.db.selectFrom('skins').select('id').where('user_id', '=', dave.id).execute()).length, 0);

      // The account that was here keeps its name; audited once.
      const carol = await service.db.selectFrom('users').select('mail').where('username', '=', existingName).executeTakeFirstOrThrow();
      assert.notEqual(carol.mail, 'carol@example.org');
      assert.equal((await service.db.selectFrom('audit_log').select('id').where('action', '=', 'import.run').execute()).length, 1);
    },
  );

  it('adds nothing when run again, and says so', { skip: skipWithoutMariaDb }, async () => {
    const users = async () => (await service.db.selectFrom('users').select('id').execute()).length;
    const before = await users();
    const again = await runImportCli(target, [...importArgs(), '--salt', SALT]);
    assert.equal(again.code, 0, again.err);
    assert.deepEqual(again.report!.counts.accounts, { imported: 0, already: 4, left_out: 1 });
    assert.deepEqual(again.report!.counts.profiles, { imported: 0, already: 4, left_out: 0 });
    assert.equal(await users(), before);
    assert.equal((await service.db.selectFrom('audit_log').select('id').where('action', '=', 'import.run').execute()).length, 2);
  });

  it('reads an older install with yggdrasil-connect, its bcrypt passwords by default', { skip: skipWithoutMariaDb }, async () => {
    const run = await runImportCli(target, ['blessing-skin', '--from', older.url]);
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(run.report!.counts.accounts, { imported: 1, already: 0, left_out: 0 });
    assert.equal(run.report!.left_out.length, 0);
    // PHP's $2y$ bcrypt through the game login; the UUID is the uuid row of the player's pid.
    const game = await yggdrasil({ host: `${await listening(service)}/api/yggdrasil/authserver` }).auth({
      user: 'frank@example.org',
      pass: 'frank old password',
    });
    assert.equal(game.selectedProfile.id, frankUuid);
    assert.equal(game.selectedProfile.name, 'FrankOld');
    const frank = await service.db.selectFrom('users').select('password').where('mail', '=', 'frank@example.org').executeTakeFirstOrThrow();
    assert.match(frank.password, /^\$argon2id\$/);
  });
});

/** The service's base URL over a real socket (the `yggdrasil` client speaks HTTP). */
async function listening(service: TestService): Promise<string> {
  if (!service.app.server.listening) await service.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(service.app.server.address() as { port: number }).port}`;
}
