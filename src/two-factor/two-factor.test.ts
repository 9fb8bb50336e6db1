// Two-factor login (contract section 12) on SQLite and PostgreSQL: turning it on and off, the codes (RFC 6238 made by
// the test with otpauth at the test's own clock, which the service reads too), replays, drift, recovery codes, the
// login limits, the admin's switch-off, and every way in with and without the code: the web login, the game login
// through the `yggdrasil` package, and GravitLauncher's authorize and verifypassword through a LaunchServer's requester.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import yggdrasil from 'yggdrasil';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { LaunchServerRequester } from '../../test/support/launchserver.ts';
import { OWNER, randomAddress, startService, type TestService } from '../../test/support/service.ts';
import { mailTo } from '../../test/support/smtp.ts';

const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';
const STEP = 30_000;
const RECOVERY_FORM = /^[2-9A-HJ-NP-Z]{5}-[2-9A-HJ-NP-Z]{5}$/;

describeEachDatabase('two-factor login', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  let launchServer: LaunchServerRequester;
  /** The game login's root as the `yggdrasil` package takes it. */
  let authserver: string;
  before(async () => {
    service = await startService(kind, { clock, settings: { owner: OWNER, gravitToken: GRAVIT_TOKEN } });
    launchServer = new LaunchServerRequester(service, GRAVIT_TOKEN);
    await service.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = service.app.server.address() as { port: number };
    authserver = `http://127.0.0.1:${port}/api/yggdrasil/authserver`;
  });
  after(async () => service?.close());

  /** The code an authenticator app shows for `secret`, `steps` steps from the test's clock. */
  const codeOf = (secret: string, steps = 0) =>
    TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: clock.now() + steps * STEP });
  /** A code that is not the current one, nor one of the steps next to it. */
  const wrongCodeOf = (secret: string) => {
    const near = new Set([-1, 0, 1].map((steps) => codeOf(secret, steps)));
    return ['000000', '111111', '222222', '333333'].find((code) => !near.has(code))!;
  };
  const login = (username: string, password: string, totp?: string) =>
    service.call('POST', '/api/auth/login', { body: { username, password, ...(totp === undefined ? {} : { totp }) }, ip: randomAddress() });
  const userId = async (mail: string) =>
    (await service.db.selectFrom('users').select('id').where('mail', '=', mail).executeTakeFirstOrThrow()).id;
  const auditOf = async (action: string, target: number) =>
    service.db.selectFrom('audit_log').select(['iss', 'details']).where('action', '=', action).where('target_id', '=', target).execute();

  /** A player with two-factor login on: their secret and recovery codes; the clock then stands one step later. */
  const playerWithTwoFactor = async (input: { password?: string } = {}) => {
    const player = await service.registerPlayer(input);
    const setup = await service.call('POST', '/api/home/2fa', { token: player.token, body: { password: player.password } });
    assert.equal(setup.status, 200, setup.raw.toString());
    const secret = setup.body.data.secret as string;
    const confirmed = await service.call('POST', '/api/home/2fa/confirm', { token: player.token, body: { code: codeOf(secret) } });
    assert.equal(confirmed.status, 200, confirmed.raw.toString());
    clock.advance(STEP);
    return { ...player, secret, recoveryCodes: confirmed.body.data.recovery_codes as string[] };
  };

  it('turns on from the profile: the secret as text, otpauth:// URI and QR code; on only after a first code; 10 recovery codes', async () => {
    const player = await service.registerPlayer();
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).body.data.TwoFactor, false);
    const setup = await service.call('POST', '/api/home/2fa', { token: player.token, body: { password: player.password } });
    assert.equal(setup.status, 200);
    const { secret, uri, qr } = setup.body.data as { secret: string; uri: string; qr: string };
    assert.match(secret, /^[A-Z2-7]{32}$/, '160 bits in base32');
    const parsed = new URL(uri);
    assert.equal(parsed.protocol, 'otpauth:');
    assert.equal(decodeURIComponent(`${parsed.host}${parsed.pathname}`), `totp/Test skins:${player.username}`);
    assert.equal(parsed.searchParams.get('secret'), secret);
    assert.equal(parsed.searchParams.get('issuer'), 'Test skins');
    assert.deepEqual(
      [parsed.searchParams.get('algorithm'), parsed.searchParams.get('digits'), parsed.searchParams.get('period')],
      ['SHA1', '6', '30'],
    );
    assert.match(qr, /^data:image\/png;base64,/);
    const png = Buffer.from(qr.slice('data:image/png;base64,'.length), 'base64');
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG image');

    // Not on yet: the login does not ask for a code, and the profile says off.
    assert.equal((await login(player.username, player.password)).status, 200);
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).body.data.TwoFactor, false);

    const wrong = await service.call('POST', '/api/home/2fa/confirm', { token: player.token, body: { code: wrongCodeOf(secret) } });
    assert.equal(wrong.status, 400);
    assert.match(wrong.body.msg, /code is wrong/);
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).status, 200, 'a wrong code keeps the token');

    const confirmed = await service.call('POST', '/api/home/2fa/confirm', { token: player.token, body: { code: codeOf(secret) } });
    assert.equal(confirmed.status, 200);
    const codes = confirmed.body.data.recovery_codes as string[];
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    for (const code of codes) assert.match(code, RECOVERY_FORM);
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).body.data.TwoFactor, true);
    assert.equal(
      (await service.call('POST', '/api/home/2fa/confirm', { token: player.token, body: { code: codeOf(secret, 1) } })).status,
      409,
    );
    assert.equal(
      (await service.call('POST', '/api/home/2fa', { token: player.token, body: { password: player.password } })).status,
      409,
      'no new secret while on',
    );

    // Stored: the secret encrypted (neither its base32 nor its bytes appear), the recovery codes only as hashes.
    const id = await userId(player.mail);
    const row = await service.db.selectFrom('two_factor').selectAll().where('user_id', '=', id).executeTakeFirstOrThrow();
    const secretHex = Buffer.from(Secret.fromBase32(secret).bytes).toString('hex');
    const stored =
      JSON.stringify(row) +
      JSON.stringify(await service.db.selectFrom('two_factor_recovery').selectAll().where('user_id', '=', id).execute());
    for (const clear of [
      secret,
      secretHex,
      Buffer.from(Secret.fromBase32(secret).bytes).toString('base64'),
      ...codes,
      ...codes.map((c) => c.replace('-', '')),
    ]) {
      assert.ok(!stored.toLowerCase().includes(clear.toLowerCase()), `${clear} is not stored in clear`);
    }
    assert.match(row.secret, /^v1\./);
    assert.equal((await auditOf('user.2fa_on', id)).length, 1);
  });

  it('web login: without the code 401 with totp_required, a wrong code a plain 401, the code lets in once', async () => {
    const player = await playerWithTwoFactor();
    const missing = await login(player.username, player.password);
    assert.equal(missing.status, 401);
    assert.deepEqual(missing.body.data, { totp_required: true });
    assert.equal(missing.body.error, true);
    const wrongPassword = await login(player.username, 'not the password');
    assert.equal(wrongPassword.status, 401);
    assert.deepEqual(wrongPassword.body.data, {}, 'a wrong password is not told apart from an unknown user, nor asks for a code');
    const wrongPasswordRightCode = await login(player.username, 'not the password', codeOf(player.secret));
    assert.equal(wrongPasswordRightCode.status, 401);
    assert.deepEqual(wrongPasswordRightCode.body.data, {});

    const wrong = await login(player.username, player.password, wrongCodeOf(player.secret));
    assert.equal(wrong.status, 401);
    assert.deepEqual(wrong.body.data, {});
    assert.match(wrong.body.msg, /code is wrong or was already used/);

    const code = codeOf(player.secret);
    const first = await login(player.mail, player.password, code);
    assert.equal(first.status, 200);
    assert.ok(first.body.data.jwt);
    assert.equal((await service.call('GET', '/api/home', { token: first.body.data.jwt })).status, 200);
    const replay = await login(player.username, player.password, code);
    assert.equal(replay.status, 401, 'a used code is refused the second time');
    assert.deepEqual(replay.body.data, {});
    assert.equal((await login(player.username, player.password, codeOf(player.secret, -1))).status, 401, 'and so is the step before it');

    clock.advance(STEP);
    assert.equal(
      (await login(player.username, player.password, ` ${codeOf(player.secret).replace(/^(\d{3})/, '$1 ')} `)).status,
      200,
      'spaces are fine',
    );
  });

  it('accepts one step of drift either way and refuses two; never a step at or before the last one used', async () => {
    const player = await playerWithTwoFactor();
    clock.advance(3 * STEP);
    assert.equal((await login(player.username, player.password, codeOf(player.secret, -2))).status, 401, 'two steps behind');
    assert.equal((await login(player.username, player.password, codeOf(player.secret, -1))).status, 200, 'one step behind');
    assert.equal((await login(player.username, player.password, codeOf(player.secret, 2))).status, 401, 'two steps ahead');
    assert.equal((await login(player.username, player.password, codeOf(player.secret, 1))).status, 200, 'one step ahead');
    assert.equal((await login(player.username, player.password, codeOf(player.secret))).status, 401, 'now is before the step last used');
    clock.advance(STEP);
    assert.equal((await login(player.username, player.password, codeOf(player.secret))).status, 401, 'the step last used, even later');
    clock.advance(STEP);
    assert.equal((await login(player.username, player.password, codeOf(player.secret))).status, 200, 'the next step');
  });

  it('recovery codes work once each, in any letter case and with or without the dash', async () => {
    const player = await playerWithTwoFactor();
    const [first, second] = player.recoveryCodes as [string, string];
    assert.equal((await login(player.username, player.password, first)).status, 200);
    const again = await login(player.username, player.password, first);
    assert.equal(again.status, 401, 'a recovery code works once');
    assert.deepEqual(again.body.data, {});
    assert.equal((await login(player.username, player.password, second.replace('-', '').toLowerCase())).status, 200);
    const id = await userId(player.mail);
    assert.deepEqual(
      (await auditOf('user.2fa_recovery_used', id)).map((entry) => JSON.parse(entry.details!)),
      [{ left: 9 }, { left: 8 }],
    );
    // Another player's recovery code is nobody else's.
    const other = await playerWithTwoFactor();
    assert.equal((await login(other.username, other.password, player.recoveryCodes[2]!)).status, 401);
  });

  it('wrong codes count against the code limit of the account, and a right password does not clear them', async () => {
    const player = await playerWithTwoFactor();
    for (let attempt = 0; attempt < 10; attempt++) {
      const wrong = await login(player.username, player.password, wrongCodeOf(player.secret));
      assert.equal(wrong.status, 401, `attempt ${attempt + 1}`);
    }
    const limited = await login(player.username, player.password, codeOf(player.secret));
    assert.equal(limited.status, 429, '10 wrong codes from 10 addresses: the account is limited, even with the right code');
    assert.ok(Number(limited.headers['retry-after']) > 0);
    const viaGame = await service.call('POST', '/api/yggdrasil/authserver/authenticate', {
      body: { username: player.username, password: `${player.password}:${codeOf(player.secret)}` },
      ip: randomAddress(),
    });
    assert.equal(viaGame.status, 429, 'the same counter for the game login');
    assert.equal((await auditOf('auth.login_failures', await userId(player.mail))).length, 1, 'the burst is audited');
    clock.advance(15 * 60_000);
    assert.equal((await login(player.username, player.password, codeOf(player.secret))).status, 200, 'after the window');
  });

  it('asks for the password to turn it on: a wrong or missing one is a 401 counted as a failed login, and no secret is made', async () => {
    const player = await service.registerPlayer();
    const ip = randomAddress();
    const begin = (body: object) => service.call('POST', '/api/home/2fa', { token: player.token, body, ip });
    const id = await userId(player.mail);
    for (const body of [{}, { password: '' }, { password: 'not the password' }]) {
      const refused = await begin(body);
      assert.equal(refused.status, 401, JSON.stringify(refused.body));
      assert.equal(refused.body.error, true);
      assert.match(refused.body.msg, /password is wrong/);
      assert.deepEqual(refused.body.data, {});
    }
    assert.equal(await service.db.selectFrom('two_factor').select('user_id').where('user_id', '=', id).executeTakeFirst(), undefined);
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).status, 200, 'the token stays valid');
    // Failures count as failed logins: at the limit, even the right password is refused.
    for (let failures = 3; failures < 10; failures++) assert.equal((await begin({ password: 'wrong' })).status, 401);
    assert.equal((await begin({ password: player.password })).status, 429);
    const elsewhere = await service.call('POST', '/api/home/2fa', {
      token: player.token,
      body: { password: player.password },
      ip: randomAddress(),
    });
    assert.equal(elsewhere.status, 200, 'from another address the password still works: ten failures fill that address alone');
    clock.advance(15 * 60_000);
    const setup = await begin({ password: player.password });
    assert.equal(setup.status, 200, JSON.stringify(setup.body));
    assert.match(setup.body.data.secret, /^[A-Z2-7]{32}$/);
  });

  it('wrong passwords while turning it off count as failed logins, and the burst is audited as at the login', async () => {
    const player = await playerWithTwoFactor();
    for (let attempt = 0; attempt < 100; attempt++) {
      const wrong = await service.call('DELETE', '/api/home/2fa', {
        token: player.token,
        body: { password: `not the password ${attempt}`, code: codeOf(player.secret) },
        ip: randomAddress(),
      });
      assert.equal(wrong.status, 401, `attempt ${attempt + 1}`);
    }
    const id = await userId(player.mail);
    assert.equal((await auditOf('auth.login_failures', id)).length, 1, 'the 100th failure is audited');
    assert.equal((await login(player.username, player.password, codeOf(player.secret))).status, 429, 'the login is limited too');
    const limited = await service.call('DELETE', '/api/home/2fa', {
      token: player.token,
      body: { password: player.password, code: codeOf(player.secret) },
      ip: randomAddress(),
    });
    assert.equal(limited.status, 429, 'even the right password waits');
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).body.data.TwoFactor, true);
  });

  it('turns off with the password and a code; a wrong one is refused, keeps the token and changes nothing', async () => {
    const player = await playerWithTwoFactor();
    const off = (body: object) => service.call('DELETE', '/api/home/2fa', { token: player.token, body, ip: randomAddress() });
    const wrongPassword = await off({ password: 'not the password', code: codeOf(player.secret) });
    assert.equal(wrongPassword.status, 401);
    assert.equal(wrongPassword.body.msg, 'password is wrong');
    const wrongCode = await off({ password: player.password, code: wrongCodeOf(player.secret) });
    assert.equal(wrongCode.status, 401);
    assert.equal((await off({ password: player.password })).status, 400);
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).body.data.TwoFactor, true, 'still on, token kept');

    const done = await off({ password: player.password, code: codeOf(player.secret) });
    assert.equal(done.status, 200);
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).body.data.TwoFactor, false);
    assert.equal((await login(player.username, player.password)).status, 200, 'the password alone logs in again');
    const id = await userId(player.mail);
    assert.equal(await service.db.selectFrom('two_factor').select('user_id').where('user_id', '=', id).executeTakeFirst(), undefined);
    assert.deepEqual(await service.db.selectFrom('two_factor_recovery').select('id').where('user_id', '=', id).execute(), []);
    assert.deepEqual(
      (await auditOf('user.2fa_off', id)).map((entry) => entry.iss),
      [player.username],
    );
    assert.equal((await off({ password: player.password, code: codeOf(player.secret, 1) })).status, 409, 'not on');

    // With a recovery code, too.
    const second = await playerWithTwoFactor();
    const byRecovery = await service.call('DELETE', '/api/home/2fa', {
      token: second.token,
      body: { password: second.password, code: second.recoveryCodes[0] },
    });
    assert.equal(byRecovery.status, 200);
  });

  it('admins above the player turn it off for them: audited, and the player is mailed', async () => {
    const ownerToken = await service.ownerToken();
    const promote = async (username: string, perms: number) =>
      assert.equal((await service.call('PATCH', `/api/admin/user/${username}`, { token: ownerToken, body: { perms } })).status, 200);
    const admin = await service.registerPlayer();
    await promote(admin.username, 2);
    const moderator = await service.registerPlayer();
    await promote(moderator.username, 1);
    const player = await playerWithTwoFactor();
    const otherAdmin = await playerWithTwoFactor();
    await promote(otherAdmin.username, 2);
    const switchOff = (token: string, identifier: string) => service.call('DELETE', `/api/admin/user/${identifier}/2fa`, { token });

    assert.equal((await switchOff(moderator.token, player.username)).status, 403, 'moderators read only');
    assert.equal((await switchOff(player.token, player.username)).status, 403);
    assert.equal((await switchOff(admin.token, otherAdmin.username)).status, 403, 'not at their own level');
    assert.equal((await switchOff(admin.token, 'nobody_here')).status, 404);
    assert.equal((await switchOff(admin.token, moderator.username)).status, 409, 'not on for the moderator');

    const id = await userId(player.mail);
    const done = await switchOff(admin.token, String(id));
    assert.equal(done.status, 200);
    assert.deepEqual(done.body.data, { id });
    assert.equal((await login(player.username, player.password)).status, 200, 'the password alone logs in again');
    assert.deepEqual(
      (await auditOf('user.2fa_off', id)).map((entry) => ({ iss: entry.iss, details: JSON.parse(entry.details!) })),
      [{ iss: admin.username, details: { by: 'admin' } }],
    );
    const mail = await service.mailbox.waitFor((m) => mailTo(player.mail)(m) && m.subject === 'Two-factor login was turned off');
    assert.match(mail.text ?? '', new RegExp(`administrator \\(${admin.username}\\)`));
    assert.match(mail.text ?? '', /http:\/\/skins\.test\/home/);
    assert.equal((await switchOff(admin.token, player.username)).status, 409, 'already off');

    assert.equal((await switchOff(ownerToken, otherAdmin.username)).status, 200, 'the owner is above the admin');
  });

  it('game login (the yggdrasil package): authenticate and signout take password:code when on, else the whole password', async () => {
    const auth = yggdrasil({ host: authserver });
    const player = await playerWithTwoFactor({ password: 'pass:word with colons' });
    await assert.rejects(
      auth.auth({ user: player.username, pass: player.password }),
      /two-factor login on: type your password, a colon and the code/,
    );
    await assert.rejects(
      auth.auth({ user: player.username, pass: `${player.password}:${wrongCodeOf(player.secret)}` }),
      /code is wrong or was already used/,
    );
    await assert.rejects(
      auth.auth({ user: player.username, pass: `wrong:${codeOf(player.secret)}` }),
      /Invalid credentials\. Invalid username or password\./,
    );
    const code = codeOf(player.secret);
    const session = await auth.auth({ user: player.mail, pass: `${player.password}:${code}` });
    assert.equal(session.selectedProfile.name, player.username);
    await assert.rejects(auth.auth({ user: player.mail, pass: `${player.password}:${code}` }), /already used/, 'replayed');
    clock.advance(STEP);
    const second = await auth.auth({ user: player.mail, pass: `${player.password}:${player.recoveryCodes[0]}` });
    assert.ok(second.accessToken, 'a recovery code after the colon');

    await assert.rejects(auth.signout(player.username, player.password), /two-factor login on/);
    await auth.validate(session.accessToken);
    await auth.signout(player.username, `${player.password}:${codeOf(player.secret)}`);
    await assert.rejects(auth.validate(session.accessToken), /Invalid token\./, 'signout with the code revoked the tokens');

    // Without two-factor login, a password that ends like a code is simply the password.
    const plain = await service.registerPlayer({ password: 'my password:123456' });
    assert.ok((await auth.auth({ user: plain.username, pass: 'my password:123456' })).accessToken);
    await assert.rejects(auth.auth({ user: plain.username, pass: 'my password' }), /Invalid credentials\. Invalid username or password\./);
  });

  it('GravitLauncher: authorize answers auth.require2fa, then takes totpCode; verifypassword takes password:code', async () => {
    const player = await playerWithTwoFactor();
    const without = await launchServer.post('authorize', { login: player.username, password: player.password });
    assert.ok(!without.ok && without.error.error === 'auth.require2fa', JSON.stringify(without));
    const wrong = await launchServer.post('authorize', {
      login: player.username,
      password: player.password,
      totpCode: wrongCodeOf(player.secret),
    });
    assert.ok(!wrong.ok && wrong.error.error === 'auth.wrongtotp', JSON.stringify(wrong));
    const wrongPassword = await launchServer.post('authorize', {
      login: player.username,
      password: 'not it',
      totpCode: codeOf(player.secret),
    });
    assert.ok(!wrongPassword.ok && wrongPassword.error.error === 'auth.wrongpassword', JSON.stringify(wrongPassword));
    const code = codeOf(player.secret);
    const session = await launchServer.post('authorize', { login: player.username, password: player.password, totpCode: code });
    assert.ok(session.ok, JSON.stringify(session));
    assert.equal(session.result.user.username, player.username);
    const replay = await launchServer.post('authorize', { login: player.username, password: player.password, totpCode: code });
    assert.ok(!replay.ok && replay.error.error === 'auth.wrongtotp', 'a used code');

    const { password: hash } = await service.db
      .selectFrom('users')
      .select('password')
      .where('mail', '=', player.mail)
      .executeTakeFirstOrThrow();
    const verify = async (password: string) => {
      const answer = await launchServer.post('verifypassword', { encryptedPassword: hash, password });
      assert.ok(answer.ok, JSON.stringify(answer));
      return answer.result.success as boolean;
    };
    assert.equal(await verify(player.password), false, 'the password alone is not enough');
    assert.equal(await verify(`${player.password}:${wrongCodeOf(player.secret)}`), false);
    clock.advance(STEP);
    assert.equal(await verify(`${player.password}:${codeOf(player.secret)}`), true);

    // Without two-factor login, totpCode is ignored.
    const plain = await service.registerPlayer();
    const plainSession = await launchServer.post('authorize', { login: plain.username, password: plain.password, totpCode: '123456' });
    assert.ok(plainSession.ok, JSON.stringify(plainSession));
  });
});
