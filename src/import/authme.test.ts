// Importing an AuthMe server's players (contract section 17): the source is built in MariaDB with AuthMe's own DDL
// (datasource/MySQL.java's checkTablesAndColumns, column for column, with the default column names of
// settings/properties/DatabaseSettings.java), its passwords hashed by other code than the importer's (Python's hashlib
// for SHA256, PBKDF2, SALTED2MD5 and SALTEDSHA512 as AuthMe's crypts/*.java compute them, Python's crypt for BCRYPT).
// After the import the players log in with their game names and old passwords on the web, in the game (the
// `yggdrasil` client) and through a LaunchServer, under the offline UUIDs their inventories are kept by.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { hash as argon2 } from '@node-rs/argon2';
import yggdrasil from 'yggdrasil';
import { offlinePlayerUuid } from '../minecraft/offline-uuid.ts';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../../test/support/databases.ts';
import { importTarget, runImportCli, type ImportTarget, leftOutOf } from '../../test/support/import-run.ts';
import { LaunchServerRequester } from '../../test/support/launchserver.ts';
import { createMariaDbSource, skipWithoutMariaDb, type MariaDbSource } from '../../test/support/mariadb.ts';
import { randomAddress, startService, type TestService } from '../../test/support/service.ts';

/**
 * AuthMe's table as MySQL.java makes it: the table with its id, then each missing column added in this order.
 * `salt` is the configured mySQLColumnSalt (none by default); `uuid` the configured mySQLPlayerUUID (none by default).
 */
function authMeDdl(table: string, options: { salt?: string; uuid?: string } = {}): string {
  const add = (column: string) => `ALTER TABLE ${table} ADD COLUMN ${column};`;
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (id MEDIUMINT(8) UNSIGNED AUTO_INCREMENT,PRIMARY KEY (id)) CHARACTER SET = utf8;`,
    add('username VARCHAR(255) NOT NULL UNIQUE AFTER id'),
    add('realname VARCHAR(255) NOT NULL AFTER username'),
    add('password VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL'),
    options.salt ? add(`${options.salt} VARCHAR(255)`) : '',
    add('ip VARCHAR(40) CHARACTER SET ascii COLLATE ascii_bin'),
    add('lastlogin BIGINT'),
    add('regdate BIGINT NOT NULL DEFAULT 0'),
    add('regip VARCHAR(40) CHARACTER SET ascii COLLATE ascii_bin'),
    `ALTER TABLE ${table} ADD COLUMN x DOUBLE NOT NULL DEFAULT '0.0' AFTER lastlogin , ADD y DOUBLE NOT NULL DEFAULT '0.0' AFTER x , ` +
      `ADD z DOUBLE NOT NULL DEFAULT '0.0' AFTER y;`,
    add(`world VARCHAR(255) NOT NULL DEFAULT 'world' AFTER z`),
    add('yaw FLOAT'),
    add('pitch FLOAT'),
    add('email VARCHAR(255)'),
    add(`isLogged SMALLINT NOT NULL DEFAULT '0' AFTER email`),
    add(`hasSession SMALLINT NOT NULL DEFAULT '0' AFTER isLogged`),
    add('totp VARCHAR(32)'),
    options.uuid ? add(`${options.uuid} VARCHAR(36)`) : '',
    add('premiumUUID VARCHAR(36)'),
  ].join('\n');
}

/** The stored value (and separate salt) AuthMe writes for `password` with `method`, computed by Python. */
function authMeHash(method: 'SHA256' | 'PBKDF2' | 'SALTED2MD5' | 'SALTEDSHA512' | 'BCRYPT' | 'BCRYPT2Y', password: string) {
  const script = `
import crypt, hashlib, json, secrets, sys
method, p = sys.argv[1], sys.argv[2]
h = lambda name, text: hashlib.new(name, text.encode()).hexdigest()
salt = None
if method == 'SHA256':  # crypts/Sha256.java: 16 hex salt
    salt16 = secrets.token_hex(8)
    stored = '$SHA$' + salt16 + '$' + h('sha256', h('sha256', p) + salt16)
elif method == 'PBKDF2':  # crypts/Pbkdf2.java: 16 hex salt, its text as the salt bytes, 64-byte key in upper-case hex
    salt16 = secrets.token_hex(8)
    key = hashlib.pbkdf2_hmac('sha256', p.encode(), salt16.encode(), 10000, 64)
    stored = 'pbkdf2_sha256$10000$' + salt16 + '$' + key.hex().upper()
elif method == 'SALTED2MD5':  # crypts/Salted2Md5.java: doubleMd5SaltLength (8) hex salt in the salt column
    salt = secrets.token_hex(4)
    stored = h('md5', h('md5', p) + salt)
elif method == 'SALTEDSHA512':  # crypts/SaltedSha512.java: 32 hex salt in the salt column
    salt = secrets.token_hex(16)
    stored = h('sha512', p + salt)
else:  # BCRYPT writes $2a$, BCRYPT2Y $2y$: the same algorithm as the $2b$ Python's crypt writes
    stored = crypt.crypt(p, crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1024))
    stored = ('$2y$' if method == 'BCRYPT2Y' else '$2a$') + stored[4:]
print(json.dumps([stored, salt]))
`;
  const [stored, salt] = JSON.parse(
    execFileSync('python3', ['-W', 'ignore::DeprecationWarning', '-c', script, method, password], { encoding: 'utf8' }),
  ) as [string, string | null];
  return { stored, salt };
}

const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';
const API = '/api/yggdrasil';
const dashless = (uuid: string) => uuid.replace(/-/g, '');
const ALEX_REGISTERED = 1_600_000_000_123;

describeEachDatabase('importing AuthMe', (kind) => {
  let source: MariaDbSource;
  let database: TestDatabase;
  let target: ImportTarget;
  let service: TestService;
  let existingName: string;

  before(async () => {
    if (skipWithoutMariaDb) return;
    source = await createMariaDbSource(
      [
        authMeDdl('authme', { uuid: 'uuid' }),
        authMeDdl('authme_pbkdf2'),
        authMeDdl('authme_md5', { salt: 'salt' }),
        authMeDdl('authme_sha512', { salt: 'pwsalt' }),
        authMeDdl('authme_bcrypt'),
        authMeDdl('authme_argon2'),
      ].join('\n'),
    );
    database = await createTestDatabase(kind);
    target = importTarget(database);
    service = await startService(kind, { database, settings: { dataDir: target.dataDir, gravitToken: GRAVIT_TOKEN } });
    // An account here whose name a source player has: that player is left out, this account untouched.
    existingName = (await service.registerPlayer({ username: 'CarolHere' })).username;

    const row = `INSERT INTO authme (id, username, realname, password, ip, lastlogin, regdate, regip, x, y, z, world, email, totp, uuid)
      VALUES (?, ?, ?, ?, '10.0.0.1', 1700000000000, ?, '10.0.0.2', 12.5, 64, -3, 'world_nether', ?, ?, ?)`;
    const add = (id: number, username: string, realname: string, password: string, regdate: number, email: string | null) =>
      source.run(row, [id, username, realname, password, regdate, email, id === 1 ? 'JBSWY3DPEHPK3PXP' : null, randomUUID()]);
    await add(1, 'alexold', 'AlexOld', authMeHash('SHA256', 'alex old password').stored, ALEX_REGISTERED, 'alex@example.org');
    await add(2, 'bobold', 'BobOld', authMeHash('SHA256', 'bob old password').stored, 0, 'your@email.com');
    await add(3, 'carolhere', 'carolhere', authMeHash('SHA256', 'carol password').stored, 0, 'carol@example.org');
    // An unsalted MD5 from legacyHashes: not the SHA256 the server uses now.
    await add(4, 'daveold', 'DaveOld', '5f4dcc3b5aa765d61d8327deb882cf99', 0, null);
    // AuthMe writes `Player` as the realname when it knew none: the lower-case username is the name then.
    await add(5, 'erinold', 'Player', authMeHash('SHA256', 'erin old password').stored, 0, null);
    // AuthMe lets players share an address: the oldest keeps it, Frank logs in by name.
    await add(6, 'frankold', 'FrankOld', authMeHash('SHA256', 'frank old password').stored, 0, 'ALEX@example.org');

    const other =
      (table: string, saltColumn?: string) => async (id: number, name: string, value: { stored: string; salt: string | null }) =>
        source.run(
          `INSERT INTO ${table} (id, username, realname, password, regdate${saltColumn ? `, ${saltColumn}` : ''}) VALUES (?, ?, ?, ?, ?${saltColumn ? ', ?' : ''})`,
          [id, name.toLowerCase(), name, value.stored, 1_650_000_000_000, ...(saltColumn ? [value.salt] : [])],
        );
    // The same ids as the first table: another table is another source of ids.
    await other('authme_pbkdf2')(1, 'PeteOld', authMeHash('PBKDF2', 'pete old password'));
    await other('authme_pbkdf2')(2, 'PaulOld', authMeHash('SHA256', 'paul old password'));
    await other('authme_md5', 'salt')(1, 'MiaOld', authMeHash('SALTED2MD5', 'mia old password'));
    await other('authme_sha512', 'pwsalt')(1, 'SamOld', authMeHash('SALTEDSHA512', 'sam old password'));
    await other('authme_bcrypt')(1, 'BenOld', authMeHash('BCRYPT', 'ben old password'));
    await other('authme_bcrypt')(2, 'BeaOld', authMeHash('BCRYPT2Y', 'bea old password'));
    // crypts/Argon2.java's form: argon2i, version 19, its base64 without padding.
    const argon2i = await argon2('ari old password', { algorithm: 1 /* Argon2i */, memoryCost: 4096, timeCost: 2, parallelism: 1 });
    await other('authme_argon2')(1, 'AriOld', { stored: argon2i, salt: null });
  });
  after(async () => {
    await service?.close();
    await source?.drop();
  });

  const users = async () => (await service.db.selectFrom('users').select('id').execute()).length;
  const importRuns = async () =>
    (await service.db.selectFrom('audit_log').select('id').where('action', '=', 'import.run').execute()).length;
  const login = (username: string, password: string) =>
    service.call('POST', '/api/auth/login', { body: { username, password }, ip: randomAddress() });

  it('refuses a bad --hash, --table or --salt-column with a message, and writes nothing', { skip: skipWithoutMariaDb }, async () => {
    const before = await users();
    const refusals: [string[], RegExp][] = [
      [['--hash', 'WHIRLPOOL'], /--hash: "WHIRLPOOL" is not an AuthMe passwordHash .*SHA256, BCRYPT/],
      [['--hash', 'MD5'], /legacy formats are not supported/],
      [['--hash', 'SALTED2MD5'], /--hash SALTED2MD5 keeps its salts in a column: name it with --salt-column/],
      [['--hash', 'SALTEDSHA512'], /--salt-column/],
      [['--table', 'authme; DROP TABLE authme'], /--table: "authme; DROP TABLE authme" is not a table name/],
      [['--table', 'nothing_here'], /--table: the source has no table "nothing_here"/],
      [
        ['--hash', 'SALTED2MD5', '--table', 'authme_md5', '--salt-column', 'pepper'],
        /--salt-column: the table "authme_md5" has no column "pepper"/,
      ],
      [['--textures', '/tmp'], /--textures does not apply to authme/],
    ];
    for (const [options, message] of refusals) {
      const refused = await runImportCli(target, ['authme', '--from', source.url, ...options]);
      assert.equal(refused.code, 1, options.join(' '));
      assert.match(refused.err, message);
      assert.equal(refused.report, null, 'no report');
    }
    assert.equal(await users(), before);
    assert.equal((await service.db.selectFrom('import_map').selectAll().execute()).length, 0);
    assert.equal(await importRuns(), 0);
  });

  it('reads everything on a dry run and writes nothing', { skip: skipWithoutMariaDb }, async () => {
    const before = await users();
    const dry = await runImportCli(target, ['authme', '--from', source.url, '--dry-run']);
    assert.equal(dry.code, 0, dry.err);
    assert.equal(dry.report?.dry_run, true);
    assert.deepEqual(dry.report?.counts.accounts, { imported: 5, already: 0, left_out: 1 });
    assert.match(dry.out, /accounts: 5 would be imported, 0 already here, 1 would be left out/);
    assert.equal(await users(), before, 'no account written');
    assert.equal((await service.db.selectFrom('import_map').selectAll().execute()).length, 0);
    assert.equal(await importRuns(), 0);
  });

  it(
    'brings the players over with their names, offline UUIDs, passwords and mails (SHA256, the default)',
    { skip: skipWithoutMariaDb },
    async () => {
      const run = await runImportCli(target, ['authme', '--from', source.url]);
      assert.equal(run.code, 0, run.err);
      const report = run.report!;
      assert.equal(report.dry_run, false);
      assert.deepEqual(report.counts.accounts, { imported: 5, already: 0, left_out: 1 });
      assert.deepEqual(report.counts.profiles, { imported: 5, already: 0, left_out: 0 });
      assert.deepEqual(report.counts.skins, { imported: 0, already: 0, left_out: 0 });
      assert.deepEqual(report.counts.capes, { imported: 0, already: 0, left_out: 0 });
      const leftOut = (kind: string, id: string) => leftOutOf(report, kind, id);
      assert.match(leftOut('account', 'authme:3')!.reason, /the name carolhere is taken here/);
      assert.match(leftOut('password', 'authme:4')!.reason, /not a SHA256 hash/);
      assert.equal(report.left_out.length, 2);

      // Alex: by name and by mail on the web, under the offline UUID of his realname, registered when AuthMe says.
      const byName = await login('AlexOld', 'alex old password');
      assert.equal(byName.status, 200, JSON.stringify(byName.body));
      const alexRow = await service.db
        .selectFrom('users')
        .select(['id', 'password', 'uuid', 'username', 'mail_verify', 'perms', 'created_at'])
        .where('mail', '=', 'alex@example.org')
        .executeTakeFirstOrThrow();
      assert.match(alexRow.password, /^\$argon2id\$/, 'rehashed on the first login');
      const rehash = await service.db
        .selectFrom('audit_log')
        .select(['details'])
        .where('action', '=', 'user.password_rehash')
        .where('target_id', '=', alexRow.id)
        .execute();
      assert.equal(rehash.length, 1);
      assert.match(String(rehash[0]!.details), /authme-sha256/);
      assert.deepEqual(
        { uuid: alexRow.uuid, username: alexRow.username, mail_verify: alexRow.mail_verify, perms: alexRow.perms },
        { uuid: offlinePlayerUuid('AlexOld'), username: 'AlexOld', mail_verify: 1, perms: 0 },
      );
      assert.equal(Number(alexRow.created_at), ALEX_REGISTERED);
      const byMail = await login('alex@example.org', 'alex old password');
      assert.equal(byMail.status, 200, 'a real mail logs in too');
      const alexHome = (await service.call('GET', '/api/home', { token: byMail.body.data.jwt })).body.data;
      assert.equal(alexHome.Mail, 'alex@example.org');
      assert.equal(alexHome.Uuid, offlinePlayerUuid('AlexOld'), 'the offline UUID, not the one in the uuid column');
      assert.equal(alexHome.PermLvl, 0);
      assert.equal(alexHome.TwoFactor, false, 'the TOTP secret stays behind');
      assert.deepEqual(alexHome.Skins, []);

      // Bob had AuthMe's placeholder address: no mail here, he logs in by name.
      const bob = await login('BobOld', 'bob old password');
      assert.equal(bob.status, 200, JSON.stringify(bob.body));
      const bobHome = await service.call('GET', '/api/home', { token: bob.body.data.jwt });
      assert.equal(bobHome.status, 200);
      assert.equal(bobHome.body.data.Mail, '');
      assert.equal(bobHome.body.data.Uuid, offlinePlayerUuid('BobOld'));
      assert.equal((await login('your@email.com', 'bob old password')).status, 401);
      const bobRow = await service.db.selectFrom('users').select('created_at').where('username', '=', 'BobOld').executeTakeFirstOrThrow();
      assert.ok(Number(bobRow.created_at) > ALEX_REGISTERED, 'regdate 0: registered now');

      // Frank shared Alex's address: it stayed with Alex, Frank came in without one.
      const frank = await login('FrankOld', 'frank old password');
      assert.equal(frank.status, 200);
      assert.equal((await service.call('GET', '/api/home', { token: frank.body.data.jwt })).body.data.Mail, '');

      // Erin's realname was AuthMe's `Player`: her name is her username, in the game too (the real client).
      const game = await yggdrasil({ host: `${await listening(service)}${API}/authserver` }).auth({
        user: 'erinold',
        pass: 'erin old password',
      });
      assert.deepEqual(game.selectedProfile, { id: dashless(offlinePlayerUuid('erinold')), name: 'erinold' });

      // What an offline-mode server knows: the UUID of the name, found by name and answered by that UUID.
      const byNames = await service.call('POST', `${API}/api/profiles/minecraft`, { body: ['alexold', 'frankold'] });
      assert.deepEqual(
        [...byNames.body].sort((a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name)),
        [
          { id: dashless(offlinePlayerUuid('AlexOld')), name: 'AlexOld' },
          { id: dashless(offlinePlayerUuid('FrankOld')), name: 'FrankOld' },
        ],
      );
      const session = await service.call('GET', `${API}/sessionserver/session/minecraft/profile/${dashless(offlinePlayerUuid('AlexOld'))}`);
      assert.equal(session.status, 200);
      assert.equal(session.body.name, 'AlexOld');

      // A LaunchServer authorizes Frank with his old password... and Bob, rehashed already, with his.
      const launchServer = new LaunchServerRequester(service, GRAVIT_TOKEN);
      const authorized = await launchServer.post('authorize', { login: 'FrankOld', password: 'frank old password' });
      assert.ok(authorized.ok, JSON.stringify(authorized));
      assert.equal(authorized.result.user.uuid, offlinePlayerUuid('FrankOld'));
      assert.ok((await launchServer.post('authorize', { login: 'BobOld', password: 'bob old password' })).ok);
      assert.equal((await launchServer.post('authorize', { login: 'BobOld', password: 'not his password' })).ok, false);

      // Dave's legacy hash cannot be checked: he needs a new password.
      assert.equal((await login('DaveOld', '5f4dcc3b5aa765d61d8327deb882cf99')).status, 401);
      assert.equal((await login('DaveOld', 'password')).status, 401);
      // The account that was here keeps its name and mail; audited once.
      const carol = await service.db.selectFrom('users').select('mail').where('username', '=', existingName).executeTakeFirstOrThrow();
      assert.notEqual(carol.mail, 'carol@example.org');
      assert.equal(await importRuns(), 1);
    },
  );

  it('adds nothing when run again, and says so', { skip: skipWithoutMariaDb }, async () => {
    const before = await users();
    const again = await runImportCli(target, ['authme', '--from', source.url, '--table', 'authme', '--hash', 'sha256']);
    assert.equal(again.code, 0, again.err);
    assert.deepEqual(again.report!.counts.accounts, { imported: 0, already: 5, left_out: 1 });
    assert.equal(await users(), before);
    assert.equal(await importRuns(), 2);
  });

  it('imports other tables with their --hash and --salt-column', { skip: skipWithoutMariaDb }, async () => {
    const variants: { args: string[]; players: [string, string][]; unusable?: string }[] = [
      { args: ['--table', 'authme_pbkdf2', '--hash', 'PBKDF2'], players: [['PeteOld', 'pete old password']], unusable: 'authme_pbkdf2:2' },
      { args: ['--table', 'authme_md5', '--hash', 'SALTED2MD5', '--salt-column', 'salt'], players: [['MiaOld', 'mia old password']] },
      {
        args: ['--table', 'authme_sha512', '--hash', 'SALTEDSHA512', '--salt-column', 'pwsalt'],
        players: [['SamOld', 'sam old password']],
      },
      {
        args: ['--table', 'authme_bcrypt', '--hash', 'BCRYPT'],
        players: [
          ['BenOld', 'ben old password'],
          ['BeaOld', 'bea old password'],
        ],
      },
      { args: ['--table', 'authme_argon2', '--hash', 'ARGON2'], players: [['AriOld', 'ari old password']] },
    ];
    for (const variant of variants) {
      const run = await runImportCli(target, ['authme', '--from', source.url, ...variant.args]);
      assert.equal(run.code, 0, run.err);
      const count = variant.players.length + (variant.unusable ? 1 : 0);
      assert.deepEqual(run.report!.counts.accounts, { imported: count, already: 0, left_out: 0 }, variant.args.join(' '));
      assert.deepEqual(
        run.report!.left_out.map((entry) => [entry.kind, entry.source_id]),
        variant.unusable ? [['password', variant.unusable]] : [],
      );
      for (const [name, password] of variant.players) {
        assert.equal((await login(name, 'a wrong password')).status, 401, name);
        const ok = await login(name, password);
        assert.equal(ok.status, 200, `${name}: ${JSON.stringify(ok.body)}`);
        const home = (await service.call('GET', '/api/home', { token: ok.body.data.jwt })).body.data;
        assert.equal(home.Uuid, offlinePlayerUuid(name));
        const stored = await service.db.selectFrom('users').select('password').where('username', '=', name).executeTakeFirstOrThrow();
        assert.match(stored.password, /^\$argon2id\$/);
      }
    }
    // Paul's $SHA$ value in the PBKDF2 table is no PBKDF2: it was not guessed.
    assert.equal((await login('PaulOld', 'paul old password')).status, 401);
  });
});

/** The service's base URL over a real socket (the `yggdrasil` client speaks HTTP). */
async function listening(service: TestService): Promise<string> {
  if (!service.app.server.listening) await service.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(service.app.server.address() as { port: number }).port}`;
}
