import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import SQLite from 'better-sqlite3';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { buildApp } from '../app.ts';
import { openDatabase } from '../database/connect.ts';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../../test/support/databases.ts';
import { testSettings } from '../../test/support/service.ts';

describeEachDatabase('operator CLI', (kind) => {
  let database: TestDatabase;
  let env: Record<string, string>;
  before(async () => {
    database = await createTestDatabase(kind);
    const url = database.settings.kind === 'postgres' ? database.settings.url : `sqlite:${database.settings.file}`;
    env = {
      DATA_DIR: mkdtempSync(join(tmpdir(), 'skinservice-cli-')),
      DATABASE_URL: url,
      JWT_SECRET: 'cli-test-secret-that-is-long-enough-32',
    };
  });
  after(async () => database?.drop());

  /** Runs the CLI with `args`, more environment variables and what it reads on standard input. */
  const cliWith = (extra: { env?: Record<string, string>; input?: string }, ...args: string[]) =>
    new Promise<{ code: number; out: string; err: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/admin/cli.ts', ...args], {
        env: { ...process.env, ...env, ...extra.env },
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.stderr.on('data', (chunk) => (err += chunk));
      child.on('exit', (code) => resolve({ code: code ?? 1, out, err }));
      child.stdin.end(extra.input);
    });
  const cli = (...args: string[]) => cliWith({}, ...args);
  /** Logs in through the real service on the same database and settings. */
  const login = async (username: string, password: string) => {
    const app = await buildApp(testSettings({ database: database.settings, jwtSecret: env.JWT_SECRET! }), { logger: false });
    try {
      return (await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } })).statusCode;
    } finally {
      await app.close();
    }
  };

  it('creates users the service then lets log in, and lists them', async () => {
    const created = await cli(
      'create-user',
      '--username',
      'Operator',
      '--mail',
      'op@example.org',
      '--password',
      'operator password',
      '--perms',
      '3',
    );
    assert.equal(created.code, 0, created.err);
    assert.match(created.out, /Created user \d+ \(Operator\) with perms 3/);
    assert.equal((await cli('create-user', '--username', 'Player1', '--mail', 'p1@example.org', '--password', 'player password')).code, 0);
    assert.equal(await login('Operator', 'operator password'), 200);
    const listed = await cli('list-users', '--search', 'player');
    assert.equal(listed.code, 0);
    assert.match(listed.out, /\tPlayer1\tp1@example\.org\t0\t1/);
    assert.match(listed.out, /1 of 1 users/);
  });

  it("sets perms and resets passwords under the service's rules", async () => {
    assert.equal((await cli('set-perms', 'Player1', '2')).code, 0);
    const reset = await cli('reset-password', 'player1');
    assert.equal(reset.code, 0);
    const password = /New password of Player1: (\S+)/.exec(reset.out)![1]!;
    assert.equal(await login('Player1', 'player password'), 401);
    assert.equal(await login('Player1', password), 200);
    const common = await cli('create-user', '--username', 'Player2', '--mail', 'p2@example.org', '--password', 'PassWord');
    assert.equal(common.code, 1);
    assert.match(common.err, /too easy to guess/);
    const ownMail = await cli('reset-password', 'Player1', '--password', 'P1@Example.ORG');
    assert.equal(ownMail.code, 1);
    assert.match(ownMail.err, /must not be your mail address or your player name/);
    const lastOwner = await cli('set-perms', 'Operator', '0');
    assert.equal(lastOwner.code, 1);
    assert.match(lastOwner.err, /last owner/);
  });

  it("turns off anyone's two-factor login, an owner's too (nobody is above an owner); audited as cli, the player mailed", async () => {
    const app = await buildApp(testSettings({ database: database.settings, jwtSecret: env.JWT_SECRET! }), { logger: false });
    const post = async (url: string, payload: object, token?: string) =>
      app.inject({ method: 'POST', url, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
    try {
      const token = (await post('/api/auth/login', { username: 'Operator', password: 'operator password' })).json().data.jwt;
      const { secret } = (await post('/api/home/2fa', { password: 'operator password' }, token)).json().data;
      const code = TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: Date.now() });
      assert.equal((await post('/api/home/2fa/confirm', { code }, token)).statusCode, 200);
      const asked = await post('/api/auth/login', { username: 'Operator', password: 'operator password' });
      assert.deepEqual([asked.statusCode, asked.json().data], [401, { totp_required: true }]);
    } finally {
      await app.close();
    }
    const off = await cli('turn-off-2fa', 'Operator');
    assert.equal(off.code, 0, off.err);
    assert.match(off.out, /Two-factor login of Operator is off/);
    // Read the queued mail before anything starts a service: a sent mail's body is cleared (docs/security.md).
    const db = openDatabase(database.settings);
    try {
      const audited = await db.selectFrom('audit_log').select(['iss', 'details']).where('action', '=', 'user.2fa_off').execute();
      assert.deepEqual(audited, [{ iss: 'cli', details: JSON.stringify({ by: 'operator' }) }]);
      const mail = await db
        .selectFrom('mail_outbox')
        .select(['recipient', 'text_body'])
        .where('subject', '=', 'Two-factor login was turned off')
        .execute();
      assert.equal(mail.length, 1);
      assert.equal(mail[0]!.recipient, 'op@example.org');
      assert.match(mail[0]!.text_body, /^The site's operator turned off two-factor login/);
    } finally {
      await db.destroy();
    }
    assert.equal(await login('Operator', 'operator password'), 200, 'the password alone logs in again');
    const again = await cli('turn-off-2fa', 'Operator');
    assert.equal(again.code, 1);
    assert.match(again.err, /not on for Operator/);
  });

  it('takes a password from SKINSERVICE_PASSWORD or standard input, out of the process list', async () => {
    const created = await cliWith(
      { env: { SKINSERVICE_PASSWORD: 'password from env' } },
      'create-user',
      '--username',
      'EnvPlayer',
      '--mail',
      'env@example.org',
    );
    assert.equal(created.code, 0, created.err);
    assert.equal(await login('EnvPlayer', 'password from env'), 200);
    const reset = await cliWith({ input: 'password from stdin\n' }, 'reset-password', 'EnvPlayer', '--password-stdin');
    assert.equal(reset.code, 0, reset.err);
    assert.match(reset.out, /Password of EnvPlayer changed/);
    assert.equal(await login('EnvPlayer', 'password from stdin'), 200);
    const both = await cliWith({ input: 'x\n' }, 'reset-password', 'EnvPlayer', '--password-stdin', '--password', 'long enough');
    assert.equal(both.code, 1);
    assert.match(both.err, /not both/);
    const help = await cli('help');
    assert.match(help.out, /SKINSERVICE_PASSWORD=PASSWORD/);
    assert.match(help.out, /--password-stdin/);
  });

  it('backs up a SQLite database online while the service runs; refuses on PostgreSQL', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'skinservice-backup-')), 'copy.sqlite');
    const app = await buildApp(testSettings({ database: database.settings, jwtSecret: env.JWT_SECRET! }), { logger: false });
    try {
      const backup = await cli('backup', file);
      if (kind === 'postgres') {
        assert.equal(backup.code, 1);
        assert.match(backup.err, /pg_dump/);
        return;
      }
      assert.equal(backup.code, 0, backup.err);
      assert.match(backup.out, /Backed up \d+ pages to /);
      assert.equal(statSync(file).mode & 0o777, 0o600, 'the copy holds password hashes: readable by the operator alone');
      const copy = new SQLite(file, { readonly: true });
      try {
        assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
        const names = copy.prepare('select username from users order by id').pluck().all();
        assert.deepEqual(names, ['Operator', 'Player1', 'EnvPlayer']);
      } finally {
        copy.close();
      }
      const again = await cli('backup', file);
      assert.equal(again.code, 1);
      assert.match(again.err, /exists already/);
      const nowhere = await cli('backup', join(file, 'no-such-folder', 'copy.sqlite'));
      assert.equal(nowhere.code, 1);
      assert.match(nowhere.err, /folder .*no-such-folder does not exist/);
    } finally {
      await app.close();
    }
  });

  it('refuses bad input with a clear message and exit code 1', async () => {
    const cases: [string[], RegExp][] = [
      [['create-user', '--username', 'bad name', '--mail', 'x@example.org', '--password', 'long enough'], /username must be/],
      [['create-user', '--username', 'Operator', '--mail', 'other@example.org', '--password', 'long enough'], /exists already/],
      [['create-user', '--username', 'CLI', '--mail', 'c@example.org', '--password', 'long enough'], /username CLI is reserved/],
      [['create-user', '--username', 'Someone'], /needs --username, --mail and --password/],
      [['create-user', '--username', 'Someone', '--mail', 's@example.org', '--password', 'short'], /password must be at least 8/],
      [['set-perms', 'Player1', '9'], /perms must be/],
      [['set-perms', 'Player1', 'high'], /LEVEL must be a whole number/],
      [['set-perms', 'nobody_at_all', '1'], /No user nobody_at_all/],
      [['list-users', '--limit', 'many'], /--limit must be a whole number/],
      [['frobnicate'], /Unknown command/],
      [['list-users', '--colour'], /Unknown option/],
    ];
    for (const [args, message] of cases) {
      const result = await cli(...args);
      assert.equal(result.code, 1, args.join(' '));
      assert.match(result.err, message, args.join(' '));
    }
    const help = await cli();
    assert.equal(help.code, 0);
    assert.match(help.out, /Usage: npm run cli/);
  });
});
