// Imported passwords (contract section 17): every stored format against hashes made by other code than the module's
// (Python's crypt, hashlib.scrypt and hashlib.pbkdf2_hmac, @node-rs/argon2's own hash, digests written out here with
// node:crypto), malformed and hostile values, and end to end on SQLite and PostgreSQL: each way in (web login, game
// login, GravitLauncher authorize and verifypassword, a logged-in player's confirmation) accepts an imported hash and
// the login replaces it with argon2id, audited; wrong passwords count and change nothing; a change made meanwhile wins.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import type { Algorithm } from '@node-rs/argon2';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { LaunchServerRequester } from '../../test/support/launchserver.ts';
import { randomAddress, startService, type Reply, type TestService } from '../../test/support/service.ts';
import { ImportedChecksBusy, ImportedPasswordChecks } from './imported-password-checks.ts';
import { beyondBounds, IMPORTED_FORMATS, importedFormat, isImported, taggedHash, type ImportedFormat } from './imported-passwords.ts';
import { hashPassword, upgradeImported, verifyPassword as verifyWith } from './passwords.ts';

/** The checks of imported passwords as the service runs them: worker threads, two at once. */
const checks = new ImportedPasswordChecks();
after(() => checks.close());
const verifyImported = async (stored: string, password: string) => checks.check(stored, password);
const verifyPassword = (stored: string, password: string) => verifyWith(stored, password, checks);

const PASSWORD = 'correct horse battery ü';
const WRONG = 'correct horse battery u';

// Made with Python 3 (crypt.crypt(PASSWORD, crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=2**5)), and 2**10), which
// writes $2b$; PHP's password_hash writes $2y$ and older libraries $2a$, the same algorithm on the same bytes.
const BCRYPT_2B = '$2b$05$9oAPRPbDBjzRa0Ytpd.5/OUMki/3p6vgEMzEoJId.HTEr3A1WzRfu';
const BCRYPT_2B_COST_10 = '$2b$10$yGir.kRU/Cym7a.oM9qnz.YVgQEs9/gtbKhfojrM5bHoQczgfmre.';
const BCRYPT_2Y = BCRYPT_2B.replace('$2b$', '$2y$');
const BCRYPT_2A = BCRYPT_2B.replace('$2b$', '$2a$');
// Python 3: salt = bytes(range(200, 216)); base64(salt) + ':' + base64(hashlib.scrypt(PASSWORD, salt=salt, n=32768,
// r=8, p=1, dklen=32, maxmem=64 MiB)): Drasl's parameters, a salt that is not text.
const SCRYPT = 'yMnKy8zNzs/Q0dLT1NXW1w==:rn/vQoZlN89Xkl1xnqiLxedoQ4daQulpOO3uqCxRYSE=';
// Python 3: 'pbkdf2_sha256$10000$' + s + '$' + hashlib.pbkdf2_hmac('sha256', PASSWORD, s, 10000, 64).hex().upper()
// with s = 'a1b2c3d4e5f60718': AuthMe's Pbkdf2 (uppercase hex, 64-byte key).
const PBKDF2 =
  'pbkdf2_sha256$10000$a1b2c3d4e5f60718$3D1843C97E716B57139F3567039BE496A8D614A8DC94EB2BDE370F885DE06D8EC22E3430AD27370FC249094069B3252F7830A1C5CA54716E4F419C19D216998B';

/** bcrypt of `password` at `cost`, made by Python's crypt (as PHP's password_hash would, $2y$ aside). */
const pythonBcrypt = (password: string, cost: number) =>
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
/** AuthMe's PBKDF2 of `password` with `rounds`, made by Python's hashlib. */
const pythonPbkdf2 = (password: string, rounds: number) =>
  execFileSync(
    'python3',
    [
      '-c',
      "import hashlib,sys; r=int(sys.argv[2]); s='0f1e2d3c4b5a6978'; print('pbkdf2_sha256$%d$%s$%s' % (r, s, hashlib.pbkdf2_hmac('sha256', sys.argv[1].encode(), s.encode(), r, 64).hex().upper()))",
      password,
      String(rounds),
    ],
    { encoding: 'utf8' },
  ).trim();

type Digest = 'md5' | 'sha256' | 'sha512';
const hex = (algorithm: Digest, text: string) => createHash(algorithm).update(text, 'utf8').digest('hex');
/** Blessing Skin's SALTED2MD5/SHA256/SHA512 and AuthMe's SALTED2MD5: H(Hhex(password) ‖ salt). */
const salted2 = (algorithm: Digest, password: string, salt: string) => `${salt}:${hex(algorithm, hex(algorithm, password) + salt)}`;
/** AuthMe's SHA256: $SHA$salt$sha256hex(sha256hex(password) ‖ salt). */
const authmeSha256 = (password: string, salt: string) => `$SHA$${salt}$${hex('sha256', hex('sha256', password) + salt)}`;
const ARGON2I = 1 as Algorithm;
const ARGON2ID = 2 as Algorithm;

/** One right stored value per format (with the password PASSWORD), made outside the module. */
async function samples(): Promise<[ImportedFormat, string][]> {
  return [
    ['bcrypt', BCRYPT_2B],
    ['bcrypt', BCRYPT_2Y],
    ['bcrypt', BCRYPT_2A],
    ['bcrypt', BCRYPT_2B_COST_10.replace('$2b$', '$2y$')],
    ['argon2', await hash(PASSWORD, { algorithm: ARGON2I, memoryCost: 4096, timeCost: 3, parallelism: 1 })],
    ['argon2', await hash(PASSWORD, { algorithm: ARGON2ID, memoryCost: 4096, timeCost: 2, parallelism: 2 })],
    ['md5', hex('md5', PASSWORD)],
    ['sha256', hex('sha256', PASSWORD)],
    ['sha512', hex('sha512', PASSWORD)],
    ['salted2md5', salted2('md5', PASSWORD, 'Xy7kQ2pA')],
    ['salted2md5', salted2('md5', PASSWORD, 'site:wide:salt with spaces')],
    ['salted2md5', salted2('md5', PASSWORD, '')],
    ['salted2sha256', salted2('sha256', PASSWORD, 'a site-wide SALT from .env')],
    ['salted2sha512', salted2('sha512', PASSWORD, 'salt:with:colons:')],
    ['sha512-salted', `0123456789abcdef0123456789abcdef:${hex('sha512', `${PASSWORD}0123456789abcdef0123456789abcdef`)}`],
    ['authme-sha256', authmeSha256(PASSWORD, '1a2b3c4d5e6f7a8b')],
    ['pbkdf2-sha256', PBKDF2],
    ['scrypt', SCRYPT],
  ];
}

describe('imported password formats', () => {
  it('known answers: the digests the tests write out are the usual ones', () => {
    assert.equal(hex('md5', 'password'), '5f4dcc3b5aa765d61d8327deb882cf99');
    assert.equal(hex('sha256', 'abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('every format verifies its right password and refuses a wrong one', async () => {
    const tested = new Set<string>();
    for (const [format, payload] of await samples()) {
      const stored = taggedHash(format, payload);
      assert.equal(stored, `imported:${format}:${payload}`);
      assert.equal(await verifyImported(stored, PASSWORD), true, `${format} ${payload}: the right password`);
      assert.equal(await verifyImported(stored, WRONG), false, `${format} ${payload}: a wrong password`);
      assert.equal(await verifyImported(stored, ''), false, `${format}: the empty password`);
      assert.equal(await verifyPassword(stored, PASSWORD), true, `${format}: through verifyPassword`);
      assert.equal(await verifyPassword(stored, WRONG), false, `${format}: a wrong one through verifyPassword`);
      tested.add(format);
    }
    assert.deepEqual([...tested, 'unusable'].sort(), [...IMPORTED_FORMATS].sort(), 'every format has a sample');
  });

  it('digests are compared as bytes: uppercase hex verifies too, a digest of the wrong length does not', async () => {
    assert.equal(await verifyImported(taggedHash('md5', hex('md5', PASSWORD).toUpperCase()), PASSWORD), true);
    assert.equal(await verifyImported(taggedHash('sha256', hex('md5', PASSWORD)), PASSWORD), false, 'an md5 is no sha256');
    assert.equal(await verifyImported(taggedHash('sha512', hex('sha256', PASSWORD)), PASSWORD), false);
    assert.equal(await verifyImported(taggedHash('md5', hex('sha256', PASSWORD)), PASSWORD), false);
  });

  it('the salt of a salted format is everything before the last colon', async () => {
    const salt = 'a:b:c';
    const stored = taggedHash('salted2md5', salted2('md5', PASSWORD, salt));
    assert.equal(await verifyImported(stored, PASSWORD), true);
    // The same digest with the salt cut at the first colon is another value: refused.
    const digest = hex('md5', hex('md5', PASSWORD) + salt);
    assert.equal(await verifyImported(taggedHash('salted2md5', `a:${digest}`), PASSWORD), false);
    // A salted2 value is no plain double hash, and the two salted sha512 formats are not each other.
    assert.equal(await verifyImported(taggedHash('salted2md5', hex('md5', hex('md5', PASSWORD))), PASSWORD), false, 'no colon');
    const sha512Salted = `s4lt:${hex('sha512', `${PASSWORD}s4lt`)}`;
    assert.equal(await verifyImported(taggedHash('salted2sha512', sha512Salted), PASSWORD), false);
    assert.equal(await verifyImported(taggedHash('sha512-salted', sha512Salted), PASSWORD), true);
  });

  it('unusable never verifies, whatever the password', async () => {
    for (const reason of ['', 'unknown hash', PASSWORD]) {
      assert.equal(await verifyImported(taggedHash('unusable', reason), reason), false);
      assert.equal(await verifyImported(taggedHash('unusable', reason), PASSWORD), false);
    }
  });

  it('malformed, unknown and hostile values verify as false without throwing', async () => {
    const md5 = hex('md5', PASSWORD);
    const long = 'x'.repeat(2000);
    const malformed = [
      'imported:',
      'imported:md5',
      `imported:MD5:${md5}`,
      `imported:sha1:${hex('sha256', PASSWORD).slice(0, 40)}`,
      `imported::${md5}`,
      `imported:md5:${md5}00`,
      `imported:md5:${md5.slice(0, -1)}`,
      `imported:md5:${md5.slice(0, -1)}g`,
      `imported:md5: ${md5}`,
      `imported:sha256:`,
      `imported:salted2md5:${long}:${md5}`,
      `imported:salted2sha256:${'s'.repeat(300)}:${hex('sha256', hex('sha256', PASSWORD) + 's'.repeat(300))}`,
      `imported:salted2md5:salt:`,
      `imported:sha512-salted:${long}`,
      `imported:md5:${long}`,
      `imported:bcrypt:${BCRYPT_2B.slice(0, -1)}`,
      `imported:bcrypt:${BCRYPT_2B.replace('$2b$', '$2x$')}`,
      `imported:bcrypt:${BCRYPT_2B.replace('$05$', '$31$')}`, // a cost that would run for days
      `imported:bcrypt:${BCRYPT_2B.replace('$05$', '$03$')}`,
      `imported:bcrypt:$2b$05$${'!'.repeat(53)}`,
      'imported:bcrypt:',
      'imported:argon2:$argon2d$v=19$m=4096,t=3,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA',
      'imported:argon2:$argon2i$v=19$m=4194304,t=3,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA', // 4 GiB
      'imported:argon2:$argon2i$v=19$m=4096,t=100000,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA',
      'imported:argon2:$argon2i$v=19$m=4096,t=3,p=1$c2FsdHNhbHRzYWx0$',
      'imported:argon2:$argon2i$v=19$m=4096,t=3,p=1$!!!!$aGFzaA',
      'imported:argon2:argon2i',
      `imported:argon2:${BCRYPT_2B}`,
      `imported:bcrypt:${await hash(PASSWORD, { algorithm: ARGON2I, memoryCost: 4096, timeCost: 3, parallelism: 1 })}`,
      `imported:authme-sha256:${authmeSha256(PASSWORD, '1a2b3c4d5e6f7a8b').replace('$SHA$', '$SHA256$')}`,
      `imported:authme-sha256:${authmeSha256(PASSWORD, '1a2b3c4d5e6f7a8b')}$`,
      `imported:authme-sha256:${authmeSha256(PASSWORD, '1a2b$3c4d')}`,
      `imported:authme-sha256:$SHA$$`,
      `imported:pbkdf2-sha256:${PBKDF2.replace('$10000$', '$2000000000$')}`, // two billion rounds
      `imported:pbkdf2-sha256:${PBKDF2.replace('$10000$', '$0$')}`,
      `imported:pbkdf2-sha256:${PBKDF2.replace('$10000$', '$-1$')}`,
      `imported:pbkdf2-sha256:${PBKDF2.replace('$10000$', '$1e4$')}`,
      `imported:pbkdf2-sha256:${PBKDF2.replace('pbkdf2_sha256', 'pbkdf2_sha1')}`,
      `imported:pbkdf2-sha256:${PBKDF2.slice(0, -1)}`,
      `imported:pbkdf2-sha256:${PBKDF2}$`,
      `imported:pbkdf2-sha256:pbkdf2_sha256$10000$$${PBKDF2.split('$')[3]}`,
      `imported:pbkdf2-sha256:pbkdf2_sha256$10000$salt$${'ab'.repeat(4000)}`,
      `imported:scrypt:${SCRYPT.replace(':', '')}`,
      `imported:scrypt:${SCRYPT.split(':')[1]}`,
      `imported:scrypt::${SCRYPT.split(':')[1]}`,
      `imported:scrypt:${SCRYPT.split(':')[0]}:`,
      `imported:scrypt:${SCRYPT.replace(':', ':!')}`,
      `imported:scrypt:${Buffer.alloc(1000).toString('base64')}:${SCRYPT.split(':')[1]}`,
      `imported:scrypt:${SCRYPT.split(':')[0]}:${Buffer.alloc(1000).toString('base64')}`,
      `imported:scrypt:${SCRYPT.split(':')[0]}:AAAA`,
    ];
    for (const stored of malformed) {
      const started = performance.now();
      assert.equal(await verifyImported(stored, PASSWORD), false, stored.slice(0, 120));
      assert.equal(await verifyPassword(stored, PASSWORD), false, stored.slice(0, 120));
      assert.ok(performance.now() - started < 5000, `${stored.slice(0, 80)} took ${performance.now() - started} ms`);
    }
  });

  it('names the format of a stored value; argon2id values and unknown formats have none', async () => {
    const argon2id = await hashPassword(PASSWORD);
    assert.equal(isImported(argon2id), false);
    assert.equal(importedFormat(argon2id), null);
    assert.equal(await verifyImported(argon2id, PASSWORD), false, 'verifyImported checks imported values only');
    assert.equal(importedFormat(taggedHash('salted2sha256', 'a:b:c')), 'salted2sha256');
    assert.equal(importedFormat(taggedHash('pbkdf2-sha256', PBKDF2)), 'pbkdf2-sha256');
    assert.equal(importedFormat('imported:sha1:abc'), null);
    assert.equal(isImported('imported:sha1:abc'), true);
    assert.equal(importedFormat('imported'), null);
    assert.equal(importedFormat(BCRYPT_2B), null, 'a bare bcrypt string is not an imported value');
    assert.equal(await verifyPassword(BCRYPT_2B, PASSWORD), false, 'only tagged values are read as a foreign format');
  });

  it('checks a value at the bounds of contract 15b and refuses one beyond them without running it', async () => {
    const argon2i = (memoryCost: number, timeCost: number, parallelism: number) =>
      hash(PASSWORD, { algorithm: ARGON2I, memoryCost, timeCost, parallelism });
    const atBounds = [
      taggedHash('bcrypt', pythonBcrypt(PASSWORD, 12)),
      taggedHash('argon2', await argon2i(65_536, 4, 4)),
      taggedHash('pbkdf2-sha256', pythonPbkdf2(PASSWORD, 100_000)),
    ];
    const beyond: [string, RegExp][] = [
      [taggedHash('bcrypt', pythonBcrypt(PASSWORD, 13)), /bcrypt cost 13 is above 12/],
      [taggedHash('argon2', await argon2i(65_537, 1, 1)), /argon2 memory of 65537 KiB is above 65536 KiB/],
      [taggedHash('argon2', await argon2i(4096, 5, 1)), /argon2 t=5 is above 4/],
      [taggedHash('argon2', await argon2i(4096, 1, 5)), /argon2 p=5 is above 4/],
      [taggedHash('pbkdf2-sha256', pythonPbkdf2(PASSWORD, 100_001)), /PBKDF2 with 100001 rounds is above 100000/],
    ];
    for (const stored of atBounds) {
      assert.equal(beyondBounds(stored), null);
      assert.equal(await verifyImported(stored, PASSWORD), true, stored.slice(0, 60));
    }
    // Both worker threads busy with checks at the bounds: a value beyond them is still answered, so it never ran there.
    const running = [verifyImported(atBounds[0]!, WRONG), verifyImported(atBounds[0]!, WRONG)];
    for (const [stored, reason] of beyond) {
      assert.match(beyondBounds(stored) ?? '', reason);
      assert.equal(await verifyImported(stored, PASSWORD), false, `${stored.slice(0, 60)}: the right password, refused`);
    }
    assert.deepEqual(await Promise.all(running), [false, false]);
  });

  it('runs at most two slow checks at once; the third is refused at once, and digests are not held up', async () => {
    const bcrypt12 = taggedHash('bcrypt', pythonBcrypt(PASSWORD, 12));
    const first = verifyImported(bcrypt12, PASSWORD);
    const second = verifyImported(bcrypt12, WRONG);
    await assert.rejects(verifyImported(taggedHash('scrypt', SCRYPT), PASSWORD), ImportedChecksBusy);
    assert.equal(await verifyImported(taggedHash('md5', hex('md5', PASSWORD)), PASSWORD), true, 'a digest is no slow check');
    assert.deepEqual(await Promise.all([first, second]), [true, false]);
    assert.equal(await verifyImported(taggedHash('scrypt', SCRYPT), PASSWORD), true, 'a thread is free again');
  });

  it('leaves a process free to end: one whose check is done ends by itself', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'imported-checks-'));
    const script = join(dir, 'check.mts');
    const module = new URL('./imported-password-checks.ts', import.meta.url).pathname;
    writeFileSync(
      script,
      `import { ImportedPasswordChecks } from ${JSON.stringify(module)};\n` +
        `console.log(await new ImportedPasswordChecks().check(${JSON.stringify(taggedHash('scrypt', SCRYPT))}, ${JSON.stringify(PASSWORD)}));\n`,
    );
    // The worker threads inherit `--import tsx`, which loads their TypeScript as it loads the service's.
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    const hung = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await new Promise((resolve) => child.on('exit', (exitCode, signal) => resolve(signal ?? exitCode)));
    clearTimeout(hung);
    assert.equal(code, 0, 'ended by itself');
    assert.equal(out.trim(), 'true');
  });

  it('taggedHash refuses an unknown format and an overlong payload', () => {
    assert.throws(() => taggedHash('sha1' as ImportedFormat, 'abc'), TypeError);
    assert.throws(() => taggedHash('md5', 'a'.repeat(961)), RangeError);
    assert.ok(taggedHash('unusable', 'a'.repeat(960)).length <= 1024);
  });
});

const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';

describeEachDatabase('imported passwords, every way in', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  let launchServer: LaunchServerRequester;
  before(async () => {
    service = await startService(kind, { clock, settings: { gravitToken: GRAVIT_TOKEN } });
    launchServer = new LaunchServerRequester(service, GRAVIT_TOKEN);
  });
  after(async () => service?.close());

  /** A finished account whose password is the imported value `stored` (as an importer leaves it). */
  const imported = async (stored: string) => {
    const player = await service.registerPlayer();
    const { id } = await service.db.selectFrom('users').select('id').where('mail', '=', player.mail).executeTakeFirstOrThrow();
    await service.db.updateTable('users').set({ password: stored }).where('id', '=', id).execute();
    return { ...player, id };
  };
  const storedOf = async (id: number) =>
    (await service.db.selectFrom('users').select('password').where('id', '=', id).executeTakeFirstOrThrow()).password;
  const rehashes = async (id: number) =>
    (
      await service.db
        .selectFrom('audit_log')
        .select(['actor_id', 'iss', 'details'])
        .where('action', '=', 'user.password_rehash')
        .where('target_id', '=', id)
        .execute()
    ).map((row) => ({ ...row, details: JSON.parse(row.details ?? 'null') }));
  /** The account's password is argon2id now, still PASSWORD, and the change was audited once, by the account. */
  const rehashed = async (account: { id: number; username: string }, from: ImportedFormat) => {
    const stored = await storedOf(account.id);
    assert.match(stored, /^\$argon2id\$/);
    assert.equal(await verifyPassword(stored, PASSWORD), true);
    assert.deepEqual(await rehashes(account.id), [{ actor_id: account.id, iss: account.username, details: { from } }]);
  };
  const webLogin = (login: string, password: string, ip = randomAddress()) =>
    service.call('POST', '/api/auth/login', { body: { username: login, password }, ip });

  it('the web login accepts a $2y$ bcrypt hash and replaces it with argon2id, audited', async () => {
    const account = await imported(taggedHash('bcrypt', BCRYPT_2Y));
    const login = await webLogin(account.mail, PASSWORD);
    assert.equal(login.status, 200, JSON.stringify(login.body));
    assert.equal(typeof login.body.data.jwt, 'string');
    await rehashed(account, 'bcrypt');
    // The argon2id value works from now on, and a second login rehashes nothing.
    assert.equal((await webLogin(account.username, PASSWORD)).status, 200);
    assert.equal((await rehashes(account.id)).length, 1);
    assert.equal((await webLogin(account.username, WRONG)).status, 401);
  });

  it('a wrong password counts as a failed login and changes nothing', async () => {
    const stored = taggedHash('salted2md5', salted2('md5', PASSWORD, 'per-user'));
    const account = await imported(stored);
    const address = randomAddress();
    for (let attempt = 0; attempt < 10; attempt += 1) assert.equal((await webLogin(account.username, WRONG, address)).status, 401);
    assert.equal(await storedOf(account.id), stored);
    assert.deepEqual(await rehashes(account.id), []);
    // The account-and-address limit (10) is used up: even the right password is refused there, checking nothing.
    assert.equal((await webLogin(account.username, PASSWORD, address)).status, 429);
    assert.equal(await storedOf(account.id), stored);
    // From elsewhere it works.
    assert.equal((await webLogin(account.username, PASSWORD)).status, 200);
    await rehashed(account, 'salted2md5');
  });

  it('an unusable password lets no one in', async () => {
    const stored = taggedHash('unusable', 'PLAINTEXT');
    const account = await imported(stored);
    assert.equal((await webLogin(account.username, 'PLAINTEXT')).status, 401);
    assert.equal((await webLogin(account.username, PASSWORD)).status, 401);
    assert.equal(await storedOf(account.id), stored);
    assert.deepEqual(await rehashes(account.id), []);
  });

  it('the game login accepts AuthMe SHA256 and rehashes', async () => {
    const account = await imported(taggedHash('authme-sha256', authmeSha256(PASSWORD, '9f8e7d6c5b4a3921')));
    const wrong = await service.call('POST', '/api/yggdrasil/authserver/authenticate', {
      body: { username: account.username, password: WRONG },
      ip: randomAddress(),
    });
    assert.equal(wrong.status, 403);
    assert.match(await storedOf(account.id), /^imported:authme-sha256:/);
    const login = await service.call('POST', '/api/yggdrasil/authserver/authenticate', {
      body: { username: account.username, password: PASSWORD },
      ip: randomAddress(),
    });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    assert.equal(typeof login.body.accessToken, 'string');
    await rehashed(account, 'authme-sha256');
  });

  it('GravitLauncher authorize accepts Drasl scrypt and rehashes', async () => {
    const account = await imported(taggedHash('scrypt', SCRYPT));
    const wrong = await launchServer.post('authorize', { login: account.username, password: WRONG });
    assert.equal(wrong.ok, false);
    assert.equal(await storedOf(account.id), taggedHash('scrypt', SCRYPT));
    const answer = await launchServer.post('authorize', { login: account.username, password: PASSWORD });
    assert.ok(answer.ok, JSON.stringify(answer));
    assert.equal(answer.result.user.username, account.username);
    await rehashed(account, 'scrypt');
  });

  it('GravitLauncher verifypassword accepts AuthMe PBKDF2 and rehashes; the old value then names no account', async () => {
    const stored = taggedHash('pbkdf2-sha256', PBKDF2);
    const account = await imported(stored);
    const verify = async (encryptedPassword: string, password: string) => {
      const answer = await launchServer.post('verifypassword', { encryptedPassword, password });
      assert.ok(answer.ok, JSON.stringify(answer));
      return answer.result.success;
    };
    assert.equal(await verify(stored, WRONG), false);
    assert.equal(await storedOf(account.id), stored);
    assert.equal(await verify(stored, PASSWORD), true);
    await rehashed(account, 'pbkdf2-sha256');
    assert.equal(await verify(stored, PASSWORD), false, 'the imported value is no account’s any more');
    assert.equal(await verify(await storedOf(account.id), PASSWORD), true);
  });

  it('a logged-in player confirms a change with an imported password', async () => {
    const account = await imported(taggedHash('sha512', hex('sha512', PASSWORD)));
    const token = (await webLogin(account.username, PASSWORD)).body.data.jwt as string;
    // The login replaced it; an importer running again meanwhile (or an admin) could put one back.
    await service.db
      .updateTable('users')
      .set({ password: taggedHash('md5', hex('md5', PASSWORD)) })
      .where('id', '=', account.id)
      .execute();
    const refused = await service.call('PATCH', '/api/home', {
      token,
      body: { password: 'a brand new password 1', current_password: WRONG },
    });
    assert.notEqual(refused.status, 200);
    const changed = await service.call('PATCH', '/api/home', {
      token,
      body: { password: 'a brand new password 1', current_password: PASSWORD },
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal(await verifyPassword(await storedOf(account.id), 'a brand new password 1'), true);
  });

  /** Three wrong logins at once at a bcrypt-12 account: two run in the worker threads, the third finds both busy. */
  const threeAtOnce = async (send: (login: string) => Promise<Reply>) => {
    const account = await imported(taggedHash('bcrypt', pythonBcrypt(PASSWORD, 12)));
    const replies = await Promise.all([send(account.username), send(account.username), send(account.username)]);
    const busy = replies.filter((reply) => reply.status === 429);
    assert.equal(busy.length, 1, `one of three refused: ${replies.map((reply) => reply.status).join(', ')}`);
    assert.equal(busy[0]!.headers['retry-after'], '1');
    return { busy: busy[0]!, checked: replies.filter((reply) => reply.status !== 429) };
  };

  it('a third imported check at once is a 429 in each API’s own shape, with Retry-After', async () => {
    const web = await threeAtOnce((login) => webLogin(login, WRONG));
    assert.deepEqual(
      web.checked.map((reply) => reply.status),
      [401, 401],
    );
    assert.equal(web.busy.body.error, true);
    assert.match(web.busy.body.msg, /passwords from the previous site are being checked/);
    assert.equal(web.busy.headers['x-error-key'], 'limits.importedPasswordChecks');

    const game = await threeAtOnce((login) =>
      service.call('POST', '/api/yggdrasil/authserver/authenticate', { body: { username: login, password: WRONG }, ip: randomAddress() }),
    );
    assert.deepEqual(Object.keys(game.busy.body).sort(), ['error', 'errorMessage']);
    assert.equal(game.busy.body.error, 'ForbiddenOperationException');

    const launcher = await threeAtOnce((login) =>
      service.call('POST', '/api/gravit/authorize', {
        body: { login, password: WRONG },
        headers: { authorization: `Bearer ${GRAVIT_TOKEN}` },
      }),
    );
    assert.deepEqual(Object.keys(launcher.busy.body).sort(), ['code', 'error']);
    assert.equal(launcher.busy.body.code, 429);
  });

  it('a refusal for busy checks counts as a failed login', async () => {
    const account = await imported(taggedHash('bcrypt', pythonBcrypt(PASSWORD, 12)));
    const address = randomAddress();
    // 12 at once from one address: the account-and-address limit (10) admits 10; two run, eight find the threads busy.
    const replies = await Promise.all(Array.from({ length: 12 }, () => webLogin(account.username, WRONG, address)));
    const keys = replies.map((reply) => (reply.status === 429 ? String(reply.headers['x-error-key']) : String(reply.status)));
    assert.deepEqual(keys.filter((key) => key === '401').length, 2, keys.join(', '));
    assert.deepEqual(keys.filter((key) => key === 'limits.importedPasswordChecks').length, 8, keys.join(', '));
    // All ten counted: the right password from that address is refused by the limit now, checking nothing.
    const right = await webLogin(account.username, PASSWORD, address);
    assert.equal(right.status, 429);
    assert.equal(right.headers['x-error-key'], 'limits.loginFailuresPerAccountAndAddress');
    assert.match(await storedOf(account.id), /^imported:bcrypt:/);
  });

  it('a stored value beyond the bounds lets no one in, and costs nothing to refuse', async () => {
    const account = await imported(taggedHash('bcrypt', pythonBcrypt(PASSWORD, 13)));
    assert.equal((await webLogin(account.username, PASSWORD)).status, 401);
    assert.match(await storedOf(account.id), /^imported:bcrypt:\$2b\$13\$/);
  });

  it('a password change made while the imported one was being verified is not overwritten', async () => {
    const old = taggedHash('md5', hex('md5', PASSWORD));
    const account = await imported(old);
    const user = await service.db.selectFrom('users').selectAll().where('id', '=', account.id).executeTakeFirstOrThrow();
    assert.equal(user.password, old);
    // The player changed the password after the login read the row, before the login's update.
    const changed = await hashPassword('the password set meanwhile');
    await service.db.updateTable('users').set({ password: changed }).where('id', '=', account.id).execute();
    assert.equal(await upgradeImported(service.db, user, PASSWORD, clock.now()), null);
    assert.equal(await storedOf(account.id), changed);
    assert.deepEqual(await rehashes(account.id), []);
    // Without the change in between, the same call replaces it.
    await service.db.updateTable('users').set({ password: old }).where('id', '=', account.id).execute();
    const replacement = await upgradeImported(service.db, user, PASSWORD, clock.now());
    assert.match(replacement ?? '', /^\$argon2id\$/);
    assert.equal(await storedOf(account.id), replacement);
    await rehashed(account, 'md5');
    // An argon2id value is left alone.
    assert.equal(await upgradeImported(service.db, { ...user, password: replacement! }, PASSWORD, clock.now()), null);
  });
});
