// A hostile CookieCMS source (the security review's appendix, issue 36 L12): rows the service refuses of its own
// players, NUL bytes, addresses that are lists or 200 KB long, reserved names, hashes that ask for seconds of work,
// and texture "files" that are links out of the folder, a FIFO or a device. Imported through the CLI into SQLite and
// PostgreSQL: every such row is reported and left out (or comes in without the part that fails), nothing stops the
// run, nothing blocks it, and the accounts that come in hold only what the service allows.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { cookieCmsDdl } from '../../test/support/cookiecms-ddl.ts';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../../test/support/databases.ts';
import { FIXTURES } from '../../test/support/fixtures.ts';
import { importTarget, leftOutOf, runImportCli, type ImportReportFile, type ImportTarget } from '../../test/support/import-run.ts';
import { createImportSource, type ImportSource } from '../../test/support/import-sources.ts';
import { OWNER, randomAddress, startService, type TestService } from '../../test/support/service.ts';

/** bcrypt of `password` at `cost` as CookieCMS's node `bcrypt` writes it, made by Python's crypt. */
const bcrypt = (password: string, cost: number) =>
  execFileSync(
    'python3',
    [
      '-W',
      'ignore',
      '-c',
      'import crypt,sys; print(crypt.crypt(sys.argv[1], crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=2**int(sys.argv[2]))))',
      password,
      String(cost),
    ],
    { encoding: 'utf8' },
  ).trim();

const PASSWORD = 'an old password';
const KEY_HERE = randomBytes(65);

describeEachDatabase('importing a hostile CookieCMS source', (kind) => {
  let source: ImportSource;
  let database: TestDatabase;
  let target: ImportTarget;
  let service: TestService;
  let report: ImportReportFile;
  let printed: string;
  const skins = {
    good: randomUUID(),
    linkedInside: 'link-inside',
    secret: 'link-secret',
    zero: 'link-zero',
    fifo: 'fifo',
    up: '../../../../../../etc/passwd',
    nul: randomUUID(),
  };

  before(async () => {
    source = await createImportSource('sqlite', cookieCmsDdl('sqlite'));
    const textures = mkdtempSync(join(tmpdir(), 'hostile-uploads-'));
    mkdirSync(join(textures, 'skins'));
    const outside = join(mkdtempSync(join(tmpdir(), 'hostile-outside-')), 'secret-key');
    writeFileSync(outside, 'a secret the service keeps');
    copyFileSync(join(FIXTURES, 'skins/classic.png'), join(textures, 'skins', `${skins.good}.png`));
    copyFileSync(join(FIXTURES, 'skins/slim.png'), join(textures, 'skins', `${skins.nul}.png`));
    symlinkSync(join(textures, 'skins', `${skins.good}.png`), join(textures, 'skins', `${skins.linkedInside}.png`));
    symlinkSync(outside, join(textures, 'skins', `${skins.secret}.png`));
    symlinkSync('/dev/zero', join(textures, 'skins', `${skins.zero}.png`));
    execFileSync('mkfifo', [join(textures, 'skins', `${skins.fifo}.png`)]);

    database = await createTestDatabase(kind);
    target = importTarget(database);
    service = await startService(kind, { database, settings: { dataDir: target.dataDir, owner: OWNER } });
    // A machine this service knows already, by the launcher key the source's HwKnown also has.
    await service.db.insertInto('hwids').values({ publickey: KEY_HERE, hwdiskid: 'HERE-1', banned: 0 }).execute();

    const users: [number, string, string | null, string][] = [
      [1, 'Bcrypt10', 'bcrypt10@example.org', bcrypt(PASSWORD, 10)],
      [2, 'BombSkins', 'bombskins@example.org', bcrypt(PASSWORD, 4)],
      [3, 'Nul\0Name', 'nulname@example.org', bcrypt(PASSWORD, 4)],
      [4, 'NulMail', 'nul\0mail@example.org', bcrypt(PASSWORD, 4)],
      [5, "x'); DROP TABLE users;--", "'; DROP TABLE users; --@example.org", bcrypt(PASSWORD, 4)],
      [6, 'CommaMail', 'victim@example.org, attacker@evil.example', bcrypt(PASSWORD, 4)],
      [7, 'HugeMail', `${'h'.repeat(200_000)}@example.org`, bcrypt(PASSWORD, 4)],
      [8, 'ImpOwner', 'impowner@example.org', bcrypt(PASSWORD, 4)],
      [9, 'DiscordXss', 'discordxss@example.org', bcrypt(PASSWORD, 4)],
      [10, 'Bcrypt13', 'bcrypt13@example.org', bcrypt(PASSWORD, 13)],
      [11, 'Bcrypt31', 'bcrypt31@example.org', bcrypt(PASSWORD, 4).replace('$04$', '$31$')],
      [12, 'HwLong', 'hwlong@example.org', bcrypt(PASSWORD, 4)],
      [13, 'OwnerTwin', OWNER.mail.toUpperCase(), bcrypt(PASSWORD, 4)],
      [14, 'System', 'system@example.org', bcrypt(PASSWORD, 4)],
      [15, 'cli', 'cli@example.org', bcrypt(PASSWORD, 4)],
      [16, 'HwKnown', 'hwknown@example.org', bcrypt(PASSWORD, 4)],
    ];
    await source.run('INSERT INTO hwids (id, publickey, "hwDiskId") VALUES (1, \'AAAA\', ?)', ['D'.repeat(100_000)]);
    await source.run('INSERT INTO hwids (id, publickey, "hwDiskId") VALUES (2, ?, \'SRC-2\')', [KEY_HERE.toString('base64')]);
    for (const [id, username, mail, password] of users) {
      await source.run(
        'INSERT INTO users (id, username, dsid, mail, mail_verify, uuid, password, "hwidId", permission_group_id) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?)',
        [
          id,
          username,
          id === 9 ? '1152921504606846977' : null,
          mail,
          randomUUID(),
          password,
          id === 12 ? 1 : id === 16 ? 2 : null,
          id === 8 ? 5 : 1,
        ],
      );
    }
    await source.run(
      "INSERT INTO discord (userid, avatar_cache, name_gb) VALUES (1152921504606846977, 'https://evil.example/track.png', '<img src=x onerror=alert(1)>')",
    );
    for (const [key, name, owner] of [
      [skins.good, 'Good', 2],
      [skins.linkedInside, 'Linked inside', 2],
      [skins.secret, 'Secret', 2],
      [skins.zero, 'Zero', 2],
      [skins.fifo, 'Fifo', 2],
      [skins.up, 'Passwd', 2],
      [skins.nul, 'Nul\0Skin', 1],
    ] as const)
      await source.run('INSERT INTO skins_library (uuid, name, ownerid) VALUES (?, ?, ?)', [key, name, owner]);

    const run = await runImportCli(target, ['cookiecms', '--from', source.url, '--textures', textures]);
    assert.equal(run.code, 0, `the run goes on to the end: ${run.err}`);
    report = run.report!;
    printed = run.out;
  });
  after(async () => {
    await service?.close();
    await source?.drop();
  });

  const account = (name: string) =>
    service.db
      .selectFrom('users')
      .select(['id', 'mail', 'perms', 'password', 'dsid', 'discord_avatar', 'hwid_id'])
      .where('username', '=', name)
      .executeTakeFirst();

  it('leaves out the accounts the service’s name rules refuse, saying why, in the report and the output', async () => {
    assert.match(leftOutOf(report, 'account', '3')!.reason, /no profile name is allowed here/);
    assert.match(leftOutOf(report, 'account', '5')!.reason, /no profile name is allowed here/);
    for (const id of ['14', '15']) {
      assert.match(leftOutOf(report, 'account', id)!.reason, /no profile name is allowed here/);
      assert.match(
        report.left_out.find(
          (entry) => entry.kind === 'profile' && /reserved/.test(entry.reason) && entry.name === (id === '14' ? 'System' : 'cli'),
        )!.reason,
        /reserved/,
      );
    }
    assert.match(leftOutOf(report, 'account', '13')!.reason, /has an account here/);
    const profiles = await service.call('POST', '/api/yggdrasil/api/profiles/minecraft', { body: ['System', 'cli'] });
    assert.deepEqual(profiles.body, [], 'nobody holds the names the audit log uses');
    assert.match(printed, /^  account "cli" \("15"\): no profile name is allowed here$/m);
    assert.match(printed, /no profile name is allowed here/);
  });

  it('brings accounts whose address breaks the mail rule without one: their players log in by name', async () => {
    for (const [id, name] of [
      ['4', 'NulMail'],
      ['6', 'CommaMail'],
      ['7', 'HugeMail'],
    ] as const) {
      assert.match(leftOutOf(report, 'mail', id)!.reason, /without one/);
      assert.equal((await account(name))?.mail, '', `${name} has no mail address`);
    }
    const login = await service.call('POST', '/api/auth/login', {
      body: { username: 'CommaMail', password: PASSWORD },
      ip: randomAddress(),
    });
    assert.equal(login.status, 200, JSON.stringify(login.body));
  });

  it('keeps a password that asks for more than a login may cost as unusable, and says so', async () => {
    for (const [id, name, cost] of [
      ['10', 'Bcrypt13', 13],
      ['11', 'Bcrypt31', 31],
    ] as const) {
      assert.match(leftOutOf(report, 'password', id)!.reason, new RegExp(`bcrypt cost ${cost} is above 12`));
      assert.match((await account(name))!.password, /^imported:unusable:/);
    }
    const bcrypt10 = await service.call('POST', '/api/auth/login', {
      body: { username: 'Bcrypt10', password: PASSWORD },
      ip: randomAddress(),
    });
    assert.equal(bcrypt10.status, 200, 'cost 10, as the sources write it, logs in');
  });

  it('reads texture files only as regular files inside the folder, without blocking on a FIFO', async () => {
    const skinReason = (key: string) => leftOutOf(report, 'skin', key)?.reason;
    assert.match(skinReason(skins.secret)!, /link out of the texture folder/);
    assert.match(skinReason(skins.zero)!, /link out of the texture folder/);
    assert.match(skinReason(skins.fifo)!, /not a regular file/);
    assert.match(skinReason(skins.up)!, /missing/);
    assert.match(skinReason(skins.nul)!, /control characters/);
    assert.equal(skinReason(skins.good), undefined);
    assert.equal(skinReason(skins.linkedInside), undefined, 'a link within the folder is read');
    const bomb = await account('BombSkins');
    const names = await service.db.selectFrom('skins').select('name').where('user_id', '=', bomb!.id).orderBy('name').execute();
    assert.deepEqual(
      names.map((row) => row.name),
      ['Good', 'Linked inside'],
    );
  });

  it('keeps Discord links as Discord makes them, hardware within the LaunchServer’s bounds, and levels', async () => {
    const xss = await account('DiscordXss');
    assert.deepEqual(
      { dsid: xss!.dsid, avatar: xss!.discord_avatar },
      { dsid: '1152921504606846977', avatar: '' },
      'no avatar from elsewhere',
    );
    assert.equal((await account('HwLong'))!.hwid_id, null);
    assert.match(leftOutOf(report, 'hardware', '1')!.reason, /longer than a LaunchServer sends/);
    const known = await service.db.selectFrom('hwids').select('id').where('hwdiskid', '=', 'HERE-1').executeTakeFirstOrThrow();
    assert.equal(Number((await account('HwKnown'))!.hwid_id), Number(known.id), 'the machine known here by its key');
    assert.equal((await account('ImpOwner'))!.perms, 3, 'CookieCMS group 5 (Owner) is an owner, as the contract says');
  });
});
