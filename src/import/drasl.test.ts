// Importing a Drasl instance (contract section 17): the source is a drasl.db built with Drasl's own DDL (sql/5.sql as
// Drasl dumps it, then what db.go's 5→6 migration does, PRAGMA user_version=6), its passwords hashed by other code than
// the importer's (Python's hashlib.scrypt with Drasl's parameters over random salt bytes), its texture files named by
// hash in its StateDirectory layout. After the import the players log in with their player names and old passwords
// through the web login, the game login (the `yggdrasil` client) and the launcher API, and the served skins are the
// source's pixels.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import Database from 'better-sqlite3';
import yggdrasil from 'yggdrasil';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../../test/support/databases.ts';
import { fixture } from '../../test/support/fixtures.ts';
import { importTarget, pixelsOf, runImportCli, type ImportTarget, leftOutOf } from '../../test/support/import-run.ts';
import { offlinePlayerUuid } from '../minecraft/offline-uuid.ts';
import { LaunchServerRequester } from '../../test/support/launchserver.ts';
import { randomAddress, startService, type TestService } from '../../test/support/service.ts';

// Drasl's tables as sql/5.sql has them (gorm's DDL on SQLite), then the 5→6 migration of db.go: clients gains
// auth_method (AutoMigrate: ALTER TABLE … ADD), the v5 triggers are replaced by the v6 ones, user_version 6.
const DRASL_DDL = `
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE \`users\` (\`is_admin\` numeric,\`is_locked\` numeric,\`uuid\` text,\`username\` text NOT NULL,\`password_salt\` blob,\`password_hash\` blob,\`browser_token\` text,\`minecraft_token\` text,\`api_token\` text,\`preferred_language\` text,\`max_player_count\` integer,PRIMARY KEY (\`uuid\`),CONSTRAINT \`uni_users_username\` UNIQUE (\`username\`));
CREATE TABLE \`players\` (\`uuid\` text,\`name\` text collate nocase NOT NULL,\`offline_uuid\` text NOT NULL,\`created_at\` datetime,\`name_last_changed_at\` datetime,\`skin_hash\` text,\`skin_model\` text,\`cape_hash\` text,\`server_id\` text,\`fallback_player\` text,\`user_uuid\` text NOT NULL,PRIMARY KEY (\`uuid\`),CONSTRAINT \`fk_users_players\` FOREIGN KEY (\`user_uuid\`) REFERENCES \`users\`(\`uuid\`),CONSTRAINT \`uni_players_name\` UNIQUE (\`name\`));
CREATE TABLE \`clients\` (\`uuid\` text,\`client_token\` text,\`version\` integer,\`user_uuid\` text NOT NULL,\`player_uuid\` text,\`last_used_at\` datetime,PRIMARY KEY (\`uuid\`),CONSTRAINT \`fk_players_clients\` FOREIGN KEY (\`player_uuid\`) REFERENCES \`players\`(\`uuid\`) ON DELETE CASCADE,CONSTRAINT \`fk_users_clients\` FOREIGN KEY (\`user_uuid\`) REFERENCES \`users\`(\`uuid\`));
CREATE TABLE \`invites\` (\`code\` text,\`created_at\` datetime,PRIMARY KEY (\`code\`));
CREATE TABLE \`user_oidc_identities\` (\`id\` integer PRIMARY KEY AUTOINCREMENT,\`user_uuid\` text NOT NULL,\`subject\` text NOT NULL,\`issuer\` text NOT NULL,CONSTRAINT \`fk_users_o_id_c_identities\` FOREIGN KEY (\`user_uuid\`) REFERENCES \`users\`(\`uuid\`));
CREATE INDEX \`idx_users_browser_token\` ON \`users\`(\`browser_token\`);
CREATE INDEX \`idx_players_cape_hash\` ON \`players\`(\`cape_hash\`);
CREATE INDEX \`idx_players_skin_hash\` ON \`players\`(\`skin_hash\`);
CREATE INDEX \`idx_clients_player_uuid\` ON \`clients\`(\`player_uuid\`);
CREATE UNIQUE INDEX \`subject_issuer_unique_index\` ON \`user_oidc_identities\`(\`subject\`,\`issuer\`);
CREATE INDEX \`idx_user_oidc_identities_user_uuid\` ON \`user_oidc_identities\`(\`user_uuid\`);
ALTER TABLE \`clients\` ADD \`auth_method\` integer;
CREATE TRIGGER v6_insert_unique_username BEFORE INSERT ON users FOR EACH ROW BEGIN
  SELECT RAISE(ABORT, 'UNIQUE constraint failed: users.username') WHERE EXISTS(SELECT 1 FROM users WHERE username = NEW.username AND uuid != NEW.uuid);
  SELECT RAISE(ABORT, 'USERNAME_TAKEN_BY_PLAYER_NAME') WHERE EXISTS(SELECT 1 from players WHERE name == NEW.username AND user_uuid != NEW.uuid);
END;
CREATE TRIGGER v6_update_unique_username BEFORE UPDATE ON users FOR EACH ROW BEGIN
  SELECT RAISE(ABORT, 'UNIQUE constraint failed: users.username') WHERE EXISTS(SELECT 1 FROM users WHERE username = NEW.username AND uuid != NEW.uuid);
  SELECT RAISE(ABORT, 'USERNAME_TAKEN_BY_PLAYER_NAME') WHERE EXISTS(SELECT 1 from players WHERE name == NEW.username AND user_uuid != NEW.uuid);
END;
CREATE TRIGGER v6_insert_unique_player_name BEFORE INSERT ON players BEGIN
  SELECT RAISE(ABORT, 'UNIQUE constraint failed: players.name') WHERE EXISTS(SELECT 1 from players WHERE name == NEW.name AND uuid != NEW.uuid);
  SELECT RAISE(ABORT, 'PLAYER_NAME_TAKEN_BY_USERNAME') WHERE EXISTS(SELECT 1 from users WHERE username == NEW.name AND uuid != NEW.user_uuid);
END;
CREATE TRIGGER v6_update_unique_player_name BEFORE UPDATE ON players BEGIN
  SELECT RAISE(ABORT, 'UNIQUE constraint failed: players.name') WHERE EXISTS(SELECT 1 from players WHERE name == NEW.name AND uuid != NEW.uuid);
  SELECT RAISE(ABORT, 'PLAYER_NAME_TAKEN_BY_USERNAME') WHERE EXISTS(SELECT 1 from users WHERE username == NEW.name AND uuid != NEW.user_uuid);
END;
CREATE TRIGGER v6_insert_unique_user_oidc_identities BEFORE INSERT ON user_oidc_identities BEGIN
  SELECT RAISE(ABORT, 'UNIQUE constraint failed: user_oidc_identities.issuer, user_oidc_identities.subject') WHERE EXISTS(SELECT 1 from user_oidc_identities WHERE id != NEW.id AND issuer == NEW.issuer AND subject == NEW.subject);
  SELECT RAISE(ABORT, 'UNIQUE constraint failed: user_oidc_identities.issuer') WHERE EXISTS(SELECT 1 from user_oidc_identities WHERE id != NEW.id AND user_uuid == NEW.user_uuid AND issuer == NEW.issuer);
END;
CREATE TRIGGER v6_insert_clients_max_count AFTER INSERT ON clients BEGIN
  DELETE FROM clients WHERE user_uuid = NEW.user_uuid AND uuid NOT IN (SELECT uuid FROM clients WHERE user_uuid = NEW.user_uuid ORDER BY last_used_at DESC LIMIT 256);
END;
COMMIT;
PRAGMA user_version=6;
`;

/** Drasl's HashPassword (model.go): scrypt N=32768, r=8, p=1, a 32-byte key over the raw salt, made by Python. */
function draslPassword(password: string): { salt: Buffer; hash: Buffer } {
  const salt = randomBytes(16);
  const hex = execFileSync(
    'python3',
    [
      '-c',
      'import hashlib,sys; print(hashlib.scrypt(sys.argv[1].encode(), salt=bytes.fromhex(sys.argv[2]), n=32768, r=8, p=1, dklen=32, maxmem=64*1024*1024).hex())',
      password,
      salt.toString('hex'),
    ],
    { encoding: 'utf8' },
  ).trim();
  return { salt, hash: Buffer.from(hex, 'hex') };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';

describeEachDatabase('importing Drasl', (kind) => {
  let stateDir: string;
  let dbFile: string;
  let database: TestDatabase;
  let target: ImportTarget;
  let service: TestService;
  const users = {
    alice: randomUUID(),
    bob: randomUUID(),
    carol: randomUUID(),
    dave: randomUUID(),
    erin: randomUUID(),
    frank: randomUUID(),
    gina: randomUUID(),
  };
  const players = {
    aliceFirst: randomUUID(),
    aliceSecond: randomUUID(),
    bob: randomUUID(),
    carol: randomUUID(),
    dave: randomUUID(),
    erin: randomUUID(),
    frank: randomUUID(),
  };
  const files = {
    slim: fixture('skins/slim.png'),
    classic: fixture('skins/classic.png'),
    cape: fixture('capes/cape.png'),
    truncated: fixture('invalid/truncated.png'),
    bomb: fixture('invalid/bomb-20000x20000.png'),
  };
  const hashes = Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name, sha256(bytes)])) as Record<
    keyof typeof files,
    string
  >;
  let existingName: string;

  before(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'drasl-state-'));
    mkdirSync(join(stateDir, 'skin'));
    mkdirSync(join(stateDir, 'cape'));
    // Drasl names each file by the hash of its bytes (StateDirectory/skin/{hash}.png, cape/{hash}.png).
    for (const name of ['slim', 'classic', 'truncated', 'bomb'] as const)
      writeFileSync(join(stateDir, 'skin', `${hashes[name]}.png`), files[name]);
    writeFileSync(join(stateDir, 'cape', `${hashes.cape}.png`), files.cape);

    dbFile = join(stateDir, 'drasl.db');
    const drasl = new Database(dbFile);
    drasl.exec(DRASL_DDL);
    const addUser = drasl.prepare(
      `INSERT INTO users (is_admin, is_locked, uuid, username, password_salt, password_hash, browser_token, minecraft_token, api_token,
       preferred_language, max_player_count) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, 'en', ?)`,
    );
    const user = (admin: number, locked: number, uuid: string, username: string, password: string | null, maxPlayers: number) => {
      const { salt, hash } = password === null ? { salt: null, hash: null } : draslPassword(password);
      addUser.run(
        admin,
        locked,
        uuid,
        username,
        salt,
        hash,
        `MC_${randomBytes(8).toString('hex')}`,
        randomBytes(8).toString('hex'),
        maxPlayers,
      );
    };
    user(1, 0, users.alice, 'alicefirst', 'alice old password', -2);
    user(0, 0, users.bob, 'bob_web', 'bob old password', 5);
    user(0, 1, users.carol, 'CarolLocked', 'carol old password', -2);
    user(0, 0, users.dave, 'TakenHere', 'dave old password', -2);
    user(0, 0, users.erin, 'ErinBomb', 'erin old password', -1);
    user(0, 0, users.frank, 'FrankOidc', null, -2);
    user(0, 0, users.gina, 'GinaNobody', 'gina old password', -2);
    const addPlayer = drasl.prepare(
      `INSERT INTO players (uuid, name, offline_uuid, created_at, name_last_changed_at, skin_hash, skin_model, cape_hash, server_id,
       fallback_player, user_uuid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)`,
    );
    const player = (uuid: string, name: string, created: string, skin: string | null, model: string, cape: string | null, owner: string) =>
      addPlayer.run(uuid, name, offlinePlayerUuid(name), created, created, skin, model, cape, uuid, owner);
    // AliceSecond is the first row and sorts first as text, but AliceFirst is older (09:00Z against 15:00Z).
    player(players.aliceSecond, 'AliceSecond', '2025-03-01 10:00:00.123456789-05:00', hashes.classic, 'classic', null, users.alice);
    player(players.aliceFirst, 'AliceFirst', '2025-03-01 11:00:00.5+02:00', hashes.slim, 'slim', hashes.cape, users.alice);
    player(players.bob, 'BobPlays', '2025-04-01 12:00:00-04:00', hashes.truncated, 'classic', hashes.cape, users.bob);
    player(players.carol, 'CarolLocked', '2025-04-02 12:00:00-04:00', null, 'classic', null, users.carol);
    player(players.dave, 'takenhere', '2025-04-03 12:00:00-04:00', null, 'classic', null, users.dave);
    player(players.erin, 'ErinBomb', '2025-04-04 12:00:00-04:00', hashes.bomb, 'slim', null, users.erin);
    player(players.frank, 'FrankOidc', '2025-04-05 12:00:00-04:00', null, 'classic', null, users.frank);
    drasl
      .prepare('INSERT INTO user_oidc_identities (user_uuid, subject, issuer) VALUES (?, ?, ?)')
      .run(users.frank, randomUUID(), 'https://idm.example.com/oauth2/openid/drasl');
    drasl.prepare("INSERT INTO invites (code, created_at) VALUES ('T2TKoCjKNgA', '2025-04-01 00:00:00-04:00')").run();
    assert.equal(drasl.pragma('user_version', { simple: true }), 6);
    drasl.close();

    database = await createTestDatabase(kind);
    target = importTarget(database);
    service = await startService(kind, { database, settings: { dataDir: target.dataDir, gravitToken: GRAVIT_TOKEN } });
    // An account here with a name a Drasl player has (in another letter case): that Drasl account is left out.
    existingName = (await service.registerPlayer({ username: 'TakenHere' })).username;
  });
  after(async () => {
    await service?.close();
  });

  const importArgs = () => ['drasl', '--from', `sqlite:${dbFile}`, '--textures', stateDir];
  const importRuns = async () =>
    (await service.db.selectFrom('audit_log').select('id').where('action', '=', 'import.run').execute()).length;
  const userCount = async () => (await service.db.selectFrom('users').select('id').execute()).length;

  it('refuses an option Drasl does not take and a file that is no Drasl database, and writes nothing', async () => {
    const badOption = await runImportCli(target, [...importArgs(), '--salt', 'x']);
    assert.equal(badOption.code, 1);
    assert.match(badOption.err, /--salt does not apply to drasl/);
    const empty = join(mkdtempSync(join(tmpdir(), 'not-drasl-')), 'other.db');
    new Database(empty).exec('CREATE TABLE something (id integer)');
    const notDrasl = await runImportCli(target, ['drasl', '--from', `sqlite:${empty}`]);
    assert.equal(notDrasl.code, 1);
    assert.match(notDrasl.err, /no Drasl users and players tables/);
    assert.equal((await service.db.selectFrom('import_map').selectAll().execute()).length, 0);
  });

  it('reads everything on a dry run and writes nothing', async () => {
    const before = await userCount();
    const dry = await runImportCli(target, [...importArgs(), '--dry-run']);
    assert.equal(dry.code, 0, dry.err);
    assert.equal(dry.report?.dry_run, true);
    assert.deepEqual(dry.report?.counts.accounts, { imported: 5, already: 0, left_out: 2 });
    assert.deepEqual(dry.report?.counts.capes, { imported: 1, already: 0, left_out: 0 });
    assert.match(dry.out, /accounts: 5 would be imported, 0 already here, 2 would be left out/);
    assert.match(dry.out, /dry run: nothing was written/);
    assert.equal(await userCount(), before, 'no account written');
    assert.equal((await service.db.selectFrom('capes').select('id').execute()).length, 0, 'no cape written');
    assert.equal(await importRuns(), 0);
  });

  it('brings the users over as accounts without mail, their players as profiles with their UUIDs, skins and capes', async () => {
    const run = await runImportCli(target, importArgs());
    assert.equal(run.code, 0, run.err);
    const report = run.report!;
    assert.equal(report.dry_run, false);
    assert.deepEqual(report.counts.accounts, { imported: 5, already: 0, left_out: 2 });
    assert.deepEqual(report.counts.profiles, { imported: 6, already: 0, left_out: 0 });
    assert.deepEqual(report.counts.skins, { imported: 2, already: 0, left_out: 2 });
    assert.deepEqual(report.counts.capes, { imported: 1, already: 0, left_out: 0 });
    const leftOut = (kind: string, id: string) => leftOutOf(report, kind, id);
    assert.match(leftOut('account', users.dave)!.reason, /takenhere is taken/i, 'a name conflict leaves the account out');
    assert.match(leftOut('account', users.gina)!.reason, /no players/);
    assert.match(leftOut('profile', users.bob)!.reason, /username is no player's name/, 'bob_web is reported');
    assert.equal(leftOut('profile', users.alice), undefined, "alicefirst is AliceFirst's name in another case: kept");
    assert.ok(leftOut('skin', players.bob), 'a truncated PNG is left out');
    assert.ok(leftOut('skin', players.erin), 'a decompression bomb is left out');
    assert.match(leftOut('password', users.frank)!.reason, /no password/);
    assert.equal(await importRuns(), 1);

    // The imported rows: no mail, Drasl's passwords kept tagged, levels, the own profile limit.
    const row = (uuid: string) =>
      service.db
        .selectFrom('users')
        .select(['mail', 'mail_verify', 'password', 'perms', 'uuid', 'username', 'max_profiles'])
        .where('uuid', '=', uuid)
        .executeTakeFirstOrThrow();
    const alice = await row(players.aliceFirst);
    assert.equal(alice.username, 'AliceFirst', 'the oldest player is the primary profile');
    assert.deepEqual([alice.mail, alice.mail_verify, alice.perms, alice.max_profiles], ['', 1, 2, null]);
    assert.match(alice.password, /^imported:scrypt:/);
    const bob = await row(players.bob);
    assert.deepEqual([bob.username, bob.perms, bob.max_profiles], ['BobPlays', 0, 5]);
    assert.equal((await row(players.carol)).perms, -1, 'is_locked: banned');
    assert.equal((await row(players.erin)).max_profiles, -1, 'max_player_count -1: unlimited');
    const existing = await service.db.selectFrom('users').select('uuid').where('username', '=', existingName).executeTakeFirstOrThrow();
    assert.notEqual(existing.uuid, players.dave, 'the account that was here is untouched');

    // Alice: the web login by her second player's name with the old password (scrypt checked, then argon2id).
    const web = await service.call('POST', '/api/auth/login', {
      body: { username: 'AliceSecond', password: 'alice old password' },
      ip: randomAddress(),
    });
    assert.equal(web.status, 200, JSON.stringify(web.body));
    assert.match((await row(players.aliceFirst)).password, /^\$argon2id\$/, 'rehashed on the first login');
    const home = await service.call('GET', '/api/home', { token: web.body.data.jwt });
    assert.equal(home.status, 200, JSON.stringify(home.body));
    const detail = home.body.data;
    assert.equal(detail.Mail, '');
    assert.equal(detail.Uuid, players.aliceFirst);
    assert.equal(detail.PermLvl, 2, 'is_admin: our admin');
    const profiles = detail.Profiles as { Uuid: string; Username: string; Primary: boolean; Selected_Skin: string }[];
    assert.deepEqual(profiles.map((profile) => [profile.Username, profile.Uuid, profile.Primary]).sort(), [
      ['AliceFirst', players.aliceFirst, true],
      ['AliceSecond', players.aliceSecond, false],
    ]);
    const skins = detail.Skins as { uuid: string; name: string }[];
    assert.deepEqual(skins.map((skin) => skin.name).sort(), ['AliceFirst', 'AliceSecond'], "each player's skin, named after it");
    for (const profile of profiles)
      assert.equal(skins.find((skin) => skin.uuid === profile.Selected_Skin)?.name, profile.Username, `${profile.Username} wears its skin`);
    assert.deepEqual(
      detail.Capes.map((cape: { Name: string }) => cape.Name),
      [`Cape ${hashes.cape.slice(0, 8)}`],
    );

    // The game login by each player name binds that profile; the UUIDs are Drasl's.
    const host = `${await listening(service)}/api/yggdrasil/authserver`;
    for (const [name, uuid] of [
      ['AliceFirst', players.aliceFirst],
      ['AliceSecond', players.aliceSecond],
    ] as const) {
      const game = await yggdrasil({ host }).auth({ user: name, pass: 'alice old password' });
      assert.equal(game.selectedProfile.id, uuid.replace(/-/g, ''), `${name} binds its own profile`);
    }
    // Erin's first login is the game login: scrypt checked there.
    const erinGame = await yggdrasil({ host }).auth({ user: 'ErinBomb', pass: 'erin old password' });
    assert.equal(erinGame.selectedProfile.id, players.erin.replace(/-/g, ''));
    assert.match((await row(players.erin)).password, /^\$argon2id\$/);

    // The served skins are the source files' pixels, slim as skin_model said; AliceFirst wears the cape.
    const first = (await service.call('GET', `/api/skin/launcher/${players.aliceFirst}`)).body;
    assert.equal(first.SKIN.metadata?.model, 'slim');
    assert.deepEqual(pixelsOf((await service.call('GET', `/textures/${first.SKIN.digest}`)).raw), pixelsOf(files.slim));
    assert.ok(first.CAPE, 'AliceFirst wears her cape');
    assert.deepEqual(pixelsOf((await service.call('GET', `/textures/${first.CAPE.digest}`)).raw), pixelsOf(files.cape));
    const second = (await service.call('GET', `/api/skin/launcher/${players.aliceSecond}`)).body;
    assert.equal(second.SKIN.metadata, undefined, 'classic');
    assert.deepEqual(pixelsOf((await service.call('GET', `/textures/${second.SKIN.digest}`)).raw), pixelsOf(files.classic));
    assert.equal(second.CAPE, undefined, 'AliceSecond had no cape');

    // Bob through the launcher API, by his player name (his Drasl username is not kept); he wears the same cape.
    const launchServer = new LaunchServerRequester(service, GRAVIT_TOKEN);
    const wrong = await launchServer.post('authorize', { login: 'BobPlays', password: 'not bob password' });
    assert.equal(wrong.ok, false);
    const byUsername = await launchServer.post('authorize', { login: 'bob_web', password: 'bob old password' });
    assert.equal(byUsername.ok, false, 'the Drasl username is no login here');
    const authorized = await launchServer.post('authorize', { login: 'BobPlays', password: 'bob old password' });
    assert.ok(authorized.ok, JSON.stringify(authorized));
    assert.equal(authorized.result.user.uuid, players.bob);
    const bobLauncher = (await service.call('GET', `/api/skin/launcher/${players.bob}`)).body;
    assert.equal(bobLauncher.SKIN, undefined, 'his broken skin was left out');
    assert.equal(bobLauncher.CAPE?.digest, first.CAPE.digest);

    // One cape, owned by both accounts whose players had it.
    const capes = await service.db.selectFrom('capes').select('id').execute();
    assert.equal(capes.length, 1);
    const owners = await service.db
      .selectFrom('cape_owners')
      .innerJoin('users', 'users.id', 'cape_owners.user_id')
      .select('users.uuid')
      .where('cape_owners.cape_id', '=', capes[0]!.id)
      .execute();
    assert.deepEqual(owners.map((owner) => owner.uuid).sort(), [players.aliceFirst, players.bob].sort());

    // Carol was locked: banned here, her login refused with the ban's reason.
    const carol = await service.call('POST', '/api/auth/login', {
      body: { username: 'CarolLocked', password: 'carol old password' },
      ip: randomAddress(),
    });
    assert.equal(carol.status, 403);
    assert.match(JSON.stringify(carol.body), /This account is banned/);
    await assert.rejects(yggdrasil({ host }).auth({ user: 'CarolLocked', pass: 'carol old password' }));

    // Frank logged in through OIDC only: he has no usable password (a reset by mail once he adds one, or an admin).
    assert.match((await row(players.frank)).password, /^imported:unusable:/);
    const frank = await service.call('POST', '/api/auth/login', {
      body: { username: 'FrankOidc', password: 'any password at all' },
      ip: randomAddress(),
    });
    assert.equal(frank.status, 401);
  });

  it('adds nothing when run again, and says so', async () => {
    const before = await userCount();
    const again = await runImportCli(target, importArgs());
    assert.equal(again.code, 0, again.err);
    assert.deepEqual(again.report!.counts.accounts, { imported: 0, already: 5, left_out: 2 });
    assert.deepEqual(again.report!.counts.profiles, { imported: 0, already: 6, left_out: 0 });
    assert.equal(await userCount(), before);
    assert.equal((await service.db.selectFrom('capes').select('id').execute()).length, 1);
    assert.equal(await importRuns(), 2);
  });
});

/** The service's base URL over a real socket (the `yggdrasil` client speaks HTTP). */
async function listening(service: TestService): Promise<string> {
  if (!service.app.server.listening) await service.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(service.app.server.address() as { port: number }).port}`;
}
