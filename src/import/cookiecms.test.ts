// Importing a CookieCMS community (contract section 17): the source is built in MariaDB with CookieCMS's own DDL
// (migrations/cookiecms.init.js and perms.js, as knex makes them on MySQL), its passwords hashed by other code than the
// importer's (Python's crypt for bcrypt, @node-rs/argon2 for argon2id), its texture files in its layout. After the
// import the players log in with their old passwords through the web login, the game login (the `yggdrasil` client)
// and the launcher API, and the served skins are the source's pixels.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import yggdrasil from 'yggdrasil';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../../test/support/databases.ts';
import { fixture, FIXTURES } from '../../test/support/fixtures.ts';
import { importTarget, pixelsOf, runImportCli, type ImportTarget, leftOutOf } from '../../test/support/import-run.ts';
import { LaunchServerRequester } from '../../test/support/launchserver.ts';
import { COOKIECMS_DDL } from '../../test/support/cookiecms-ddl.ts';
import { createMariaDbSource, skipWithoutMariaDb, type MariaDbSource } from '../../test/support/mariadb.ts';
import { randomAddress, startService, type TestService } from '../../test/support/service.ts';

/** bcrypt as CookieCMS's node `bcrypt` writes it ($2b$, 10 rounds), made by Python's crypt. */
const bcrypt = (password: string) =>
  execFileSync(
    'python3',
    ['-W', 'ignore', '-c', 'import crypt,sys; print(crypt.crypt(sys.argv[1], crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1024)))', password],
    {
      encoding: 'utf8',
    },
  ).trim();

const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';
const DISCORD_ID = '1234567890123456789'; // beyond 2^53: must come over as a string, exactly

describeEachDatabase('importing CookieCMS', (kind) => {
  let source: MariaDbSource;
  let texturesDir: string;
  let database: TestDatabase;
  let target: ImportTarget;
  let service: TestService;
  const alex = { uuid: randomUUID(), skin: randomUUID(), other: randomUUID(), cape: randomUUID() };
  const bobUuid = randomUUID();
  const daveUuid = randomUUID();
  const broken = { truncated: randomUUID(), bomb: randomUUID() };
  let existingName: string;

  before(async () => {
    if (skipWithoutMariaDb) return;
    source = await createMariaDbSource(COOKIECMS_DDL);
    texturesDir = mkdtempSync(join(tmpdir(), 'cookiecms-uploads-'));
    mkdirSync(join(texturesDir, 'skins'));
    mkdirSync(join(texturesDir, 'capes'));
    copyFileSync(join(FIXTURES, 'skins/slim.png'), join(texturesDir, 'skins', `${alex.skin}.png`));
    copyFileSync(join(FIXTURES, 'skins/classic.png'), join(texturesDir, 'skins', `${alex.other}.png`));
    copyFileSync(join(FIXTURES, 'capes/cape.png'), join(texturesDir, 'capes', `${alex.cape}.png`));
    copyFileSync(join(FIXTURES, 'invalid/truncated.png'), join(texturesDir, 'skins', `${broken.truncated}.png`));
    copyFileSync(join(FIXTURES, 'invalid/bomb-20000x20000.png'), join(texturesDir, 'skins', `${broken.bomb}.png`));

    database = await createTestDatabase(kind);
    target = importTarget(database);
    service = await startService(kind, { database, settings: { dataDir: target.dataDir, gravitToken: GRAVIT_TOKEN } });
    // An account here whose name a source account has: that source account is left out, this one untouched.
    existingName = (await service.registerPlayer({ username: 'CarolHere' })).username;

    await source.run(
      `INSERT INTO hwids (id, publickey, hwDiskId, baseboardSerialNumber, graphicCard, bitness, totalMemory, battery, banned)
       VALUES (7, ?, 'DISK-1', 'BOARD-1', 'GPU', 64, 17179869184, 1, 1)`,
      [Buffer.from('a launcher public key').toString('base64')],
    );
    await source.run(`INSERT INTO cloaks_lib (uuid, name) VALUES (?, 'Founder')`, [alex.cape]);
    await source.run(
      `INSERT INTO users (id, username, dsid, mail, mail_verify, uuid, password, perms, hwidId, permission_group_id) VALUES
       (1, 'AlexOld', ?, 'alex@example.org', 1, ?, ?, 1, 7, 4),
       (2, 'BobOld', NULL, 'bob@example.org', 1, ?, ?, 1, NULL, 1),
       (3, 'carolhere', NULL, 'carol@example.org', 1, ?, ?, 1, NULL, 1),
       (4, 'DaveOld', NULL, 'dave@example.org', 0, ?, ?, 1, NULL, NULL),
       (5, 'ErinOld', NULL, 'erin@example.org', 1, ?, 'md5:0123', 1, NULL, 3)`,
      [
        DISCORD_ID,
        alex.uuid,
        bcrypt('alex old password'),
        bobUuid,
        await hash('bob old password', { algorithm: 2, memoryCost: 4096, timeCost: 3 }),
        randomUUID(),
        bcrypt('carol password'),
        daveUuid,
        bcrypt('dave old password'),
        randomUUID(),
      ],
    );
    await source.run(
      `INSERT INTO skins_library (uuid, name, ownerid, slim, hd, disabled, cloak_id) VALUES
       (?, 'Summer', 1, 1, 0, 0, ?), (?, 'Winter', 1, 0, 0, 0, '0'), (?, 'Broken', 4, 0, 0, 0, '0'), (?, 'Bomb', 4, 0, 0, 0, '0')`,
      [alex.skin, alex.cape, alex.other, broken.truncated, broken.bomb],
    );
    await source.run('INSERT INTO skin_user (uid, skin_id) VALUES (1, ?)', [alex.skin]);
    await source.run('INSERT INTO cloaks_users (uid, cloak_id) VALUES (1, ?)', [alex.cape]);
    await source.run(`INSERT INTO discord (userid, avatar_cache, name_gb) VALUES (?, 'avatarhash', 'alex#0001')`, [DISCORD_ID]);
  });
  after(async () => {
    await service?.close();
    await source?.drop();
  });

  const importArgs = () => ['cookiecms', '--from', source.url, '--textures', texturesDir];

  it('refuses a bad option or an unreachable source with a message, and writes nothing', { skip: skipWithoutMariaDb }, async () => {
    const badOption = await runImportCli(target, [...importArgs(), '--salt', 'x']);
    assert.equal(badOption.code, 1);
    assert.match(badOption.err, /--salt does not apply to cookiecms/);
    const unreachable = await runImportCli(target, ['cookiecms', '--from', 'mysql://root@127.0.0.1:1/nothing']);
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.err, /--from: cannot open the source database/);
    assert.equal((await service.db.selectFrom('import_map').selectAll().execute()).length, 0);
  });

  it('reads everything on a dry run and writes nothing', { skip: skipWithoutMariaDb }, async () => {
    const users = async () => (await service.db.selectFrom('users').select('id').execute()).length;
    const before = await users();
    const dry = await runImportCli(target, [...importArgs(), '--dry-run']);
    assert.equal(dry.code, 0, dry.err);
    assert.equal(dry.report?.dry_run, true);
    assert.deepEqual(dry.report?.counts.accounts, { imported: 4, already: 0, left_out: 1 });
    assert.match(dry.out, /accounts: 4 would be imported, 0 already here, 1 would be left out/);
    assert.equal(await users(), before, 'no account written');
    assert.equal((await service.db.selectFrom('audit_log').select('id').where('action', '=', 'import.run').execute()).length, 0);
  });

  it(
    'brings the accounts over with their passwords, UUIDs, levels, skins, capes, Discord links and hardware',
    { skip: skipWithoutMariaDb },
    async () => {
      const run = await runImportCli(target, importArgs());
      assert.equal(run.code, 0, run.err);
      const report = run.report!;
      assert.equal(report.dry_run, false);
      assert.deepEqual(report.counts.accounts, { imported: 4, already: 0, left_out: 1 });
      assert.deepEqual(report.counts.skins, { imported: 2, already: 0, left_out: 2 });
      assert.deepEqual(report.counts.capes, { imported: 1, already: 0, left_out: 0 });
      assert.deepEqual(report.counts.hardware, { imported: 1, already: 0, left_out: 0 });
      const leftOut = (kind: string, id: string) => leftOutOf(report, kind, id);
      assert.match(leftOut('account', '3')!.reason, /carolhere is taken/);
      assert.ok(leftOut('skin', broken.truncated), 'a broken PNG is left out');
      assert.ok(leftOut('skin', broken.bomb), 'a decompression bomb is left out');
      assert.ok(leftOut('password', '5'), 'a password CookieCMS never wrote is reported');

      // Alex: the web login with the old password, by name; the stored hash is argon2id afterwards.
      const web = await service.call('POST', '/api/auth/login', {
        body: { username: 'AlexOld', password: 'alex old password' },
        ip: randomAddress(),
      });
      assert.equal(web.status, 200, JSON.stringify(web.body));
      const stored = await service.db
        .selectFrom('users')
        .select(['password', 'dsid', 'hwid_id'])
        .where('mail', '=', 'alex@example.org')
        .executeTakeFirstOrThrow();
      assert.match(stored.password, /^\$argon2id\$/);
      assert.equal(stored.dsid, DISCORD_ID);
      assert.notEqual(stored.hwid_id, null);
      const home = (await service.call('GET', '/api/home', { token: web.body.data.jwt })).body.data;
      assert.equal(home.Uuid, alex.uuid);
      assert.equal(home.PermLvl, 2, 'CookieCMS group 4 (Admin) is our admin');
      // CookieCMS keeps no order of its library (its key is the UUID): compared as a set.
      assert.deepEqual(home.Skins.map((skin: { name: string }) => skin.name).sort(), ['Summer', 'Winter']);
      assert.equal(home.Capes[0].Name, 'Founder');
      const hardware = await service.db.selectFrom('hwids').selectAll().where('id', '=', Number(stored.hwid_id)).executeTakeFirstOrThrow();
      assert.equal(hardware.hwdiskid, 'DISK-1');
      assert.ok(hardware.banned, 'a banned machine stays banned');

      // The game login with the real client; the served skin is the source file's pixels, worn with its cape.
      const game = await yggdrasil({ host: `${await listening(service)}/api/yggdrasil/authserver` }).auth({
        user: 'alex@example.org',
        pass: 'alex old password',
      });
      assert.equal(game.selectedProfile.id, alex.uuid.replace(/-/g, ''));
      const launcher = (await service.call('GET', `/api/skin/launcher/${alex.uuid}`)).body;
      assert.equal(launcher.SKIN.metadata?.model ?? 'slim', 'slim');
      const served = await service.call('GET', `/textures/${launcher.SKIN.digest}`);
      assert.deepEqual(pixelsOf(served.raw), pixelsOf(fixture('skins/slim.png')), 'the same pixels as the source file');
      assert.ok(launcher.CAPE, 'the cape CookieCMS showed with this skin');

      // Bob (argon2id) through the launcher API.
      const launchServer = new LaunchServerRequester(service, GRAVIT_TOKEN);
      const authorized = await launchServer.post('authorize', { login: 'BobOld', password: 'bob old password' });
      assert.ok(authorized.ok, JSON.stringify(authorized));
      assert.equal(authorized.result.user.uuid, bobUuid);

      // Dave came in without his broken files, unverified as CookieCMS had him.
      const dave = await service.db
        .selectFrom('users')
        .select(['mail_verify', 'perms'])
        .where('mail', '=', 'dave@example.org')
        .executeTakeFirstOrThrow();
      assert.deepEqual(dave, { mail_verify: 0, perms: 0 });
      // Erin's password cannot be checked: nobody logs in with it.
      const erin = await service.call('POST', '/api/auth/login', {
        body: { username: 'ErinOld', password: 'md5:0123' },
        ip: randomAddress(),
      });
      assert.equal(erin.status, 401);
      // The account that was here keeps its name; audited once.
      const carol = await service.db.selectFrom('users').select('mail').where('username', '=', existingName).executeTakeFirstOrThrow();
      assert.notEqual(carol.mail, 'carol@example.org');
      assert.equal((await service.db.selectFrom('audit_log').select('id').where('action', '=', 'import.run').execute()).length, 1);
    },
  );

  it('adds nothing when run again, and says so', { skip: skipWithoutMariaDb }, async () => {
    const users = async () => (await service.db.selectFrom('users').select('id').execute()).length;
    const before = await users();
    const again = await runImportCli(target, importArgs());
    assert.equal(again.code, 0, again.err);
    assert.deepEqual(again.report!.counts.accounts, { imported: 0, already: 4, left_out: 1 });
    // The cape and the machine are counted as here already, like the accounts (issue 38).
    assert.deepEqual(again.report!.counts.capes, { imported: 0, already: 1, left_out: 0 });
    assert.deepEqual(again.report!.counts.hardware, { imported: 0, already: 1, left_out: 0 });
    assert.match(again.out, /^capes: 0 imported, 1 already here, 0 left out$/m);
    assert.match(again.out, /^  account "carolhere" \("3"\): the name carolhere is taken here$/m, 'the CLI says why');
    assert.equal(await users(), before);
    // The audit entry keeps the reasons, for the console.
    const [entry] = await service.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'import.run')
      .orderBy('id', 'desc')
      .limit(1)
      .execute();
    const details = JSON.parse(entry!.details!) as { left_out: { kind: string; name: string; reason: string }[] };
    assert.deepEqual(
      details.left_out.find((item) => item.kind === 'account'),
      { kind: 'account', name: 'carolhere', reason: 'the name carolhere is taken here' },
    );
    assert.equal((await service.db.selectFrom('audit_log').select('id').where('action', '=', 'import.run').execute()).length, 2);
  });
});

/** The service's base URL over a real socket (the `yggdrasil` client speaks HTTP). */
async function listening(service: TestService): Promise<string> {
  if (!service.app.server.listening) await service.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(service.app.server.address() as { port: number }).port}`;
}
