// App passwords (contract sections 18 and 15b) on SQLite and PostgreSQL: made with the password (and the two-factor
// code when on), mailed to the player, listed and revoked through the API; the game login through the `yggdrasil`
// package and GravitLauncher's authorize take one without the two-factor code; the web login, verifypassword and a
// change's current password never do; a password change or reset and a ban revoke them, logging out everywhere does
// not.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import yggdrasil from 'yggdrasil';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { LaunchServerRequester } from '../../test/support/launchserver.ts';
import { OWNER, randomAddress, startService, type TestService } from '../../test/support/service.ts';
import { codeIn, mailTo } from '../../test/support/smtp.ts';
import { newAppPassword as guess } from './secret.ts';

const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';
const STEP = 30_000;
const FORM = /^app(-[2-9a-hjkmnp-z]{7}){4}$/;
const URL = '/api/home/app-passwords';

describeEachDatabase('app passwords', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  let launchServer: LaunchServerRequester;
  let auth: ReturnType<typeof yggdrasil>;
  before(async () => {
    service = await startService(kind, { clock, settings: { owner: OWNER, gravitToken: GRAVIT_TOKEN } });
    launchServer = new LaunchServerRequester(service, GRAVIT_TOKEN);
    await service.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = service.app.server.address() as { port: number };
    auth = yggdrasil({ host: `http://127.0.0.1:${port}/api/yggdrasil/authserver` });
  });
  after(async () => service?.close());

  /** A logged-in player: the session's token and the password that proves it is them. */
  type Player = { token: string; password: string };
  const make = (player: Player, name = 'HMCL', proof: { password?: string; totp?: string } = { password: player.password }, ip?: string) =>
    service.call('POST', URL, { token: player.token, body: { name, ...proof }, ip: ip ?? randomAddress() });
  const list = async (token: string) =>
    (await service.call('GET', URL, { token })).body.data as { id: number; name: string; created: number; last_used: number | null }[];
  const newAppPassword = async (player: Player, name?: string, proof?: { password?: string; totp?: string }) => {
    const made = await make(player, name, proof);
    assert.equal(made.status, 201, made.raw.toString());
    return made.body.data as { id: number; name: string; password: string };
  };
  const userId = async (mail: string) =>
    (await service.db.selectFrom('users').select('id').where('mail', '=', mail).executeTakeFirstOrThrow()).id;
  const auditOf = async (action: string, target: number) =>
    (await service.db.selectFrom('audit_log').select('details').where('action', '=', action).where('target_id', '=', target).execute()).map(
      (row) => JSON.parse(row.details ?? '{}'),
    );
  const webLogin = (username: string, password: string) =>
    service.call('POST', '/api/auth/login', { body: { username, password }, ip: randomAddress() });
  const gameLogin = (user: string, pass: string) => auth.auth({ user, pass });
  const launcherLogin = (login: string, password: string, totpCode?: string) =>
    launchServer.post('authorize', { login, password, ...(totpCode === undefined ? {} : { totpCode }) });
  const codeOf = (secret: string) =>
    TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: clock.now() });

  it('is made, listed and revoked by its player; the password is shown once and stored only as a hash; audited', async () => {
    const player = await service.registerPlayer();
    assert.deepEqual(await list(player.token), []);
    const made = await newAppPassword(player, '  PojavLauncher  ');
    assert.equal(made.name, 'PojavLauncher');
    assert.match(made.password, FORM);
    const [listed] = await list(player.token);
    assert.deepEqual(listed, { id: made.id, name: 'PojavLauncher', created: Math.floor(clock.now() / 1000), last_used: null });
    assert.ok(!JSON.stringify(await list(player.token)).includes(made.password.slice(4)), 'the list never shows it again');
    const stored = await service.db.selectFrom('app_passwords').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(stored).includes(made.password.slice(4)), 'not stored as given');
    assert.deepEqual(await auditOf('app_password.create', await userId(player.mail)), [{ id: made.id, name: 'PojavLauncher' }]);

    assert.ok((await gameLogin(player.username, made.password)).accessToken, 'it logs in');
    const revoked = await service.call('DELETE', `${URL}/${made.id}`, { token: player.token });
    assert.equal(revoked.status, 200);
    assert.deepEqual(await list(player.token), []);
    assert.deepEqual(await auditOf('app_password.revoke', await userId(player.mail)), [{ id: made.id, name: 'PojavLauncher' }]);
    await assert.rejects(gameLogin(player.username, made.password), /Invalid credentials/, 'a revoked one is refused');
    assert.equal((await service.call('DELETE', `${URL}/${made.id}`, { token: player.token })).status, 404, 'gone');

    for (const name of ['', '   ', 'x'.repeat(65)]) assert.equal((await make(player, name)).status, 400, `name ${JSON.stringify(name)}`);
    assert.equal((await service.call('POST', URL, { token: player.token, body: { password: player.password } })).status, 400);
    assert.equal((await service.call('DELETE', `${URL}/abc`, { token: player.token })).status, 400);
    assert.deepEqual(await list(player.token), [], 'nothing made by the refused ones');
  });

  it('asks for the password to make one: without it a 401 counted as a failed login, nothing made; the player is mailed', async () => {
    const player = await service.registerPlayer();
    assert.equal((await service.call('PATCH', '/api/home', { token: player.token, body: { language: 'zh-CN' } })).status, 200);
    const address = randomAddress();
    const missing = await service.call('POST', URL, { token: player.token, body: { name: 'Stolen session' }, ip: address });
    assert.equal(missing.status, 401, missing.raw.toString());
    assert.equal(missing.headers['x-error-key'], 'appPasswords.passwordWrong');
    for (let attempt = 1; attempt < 10; attempt += 1)
      assert.equal((await make(player, 'Stolen session', { password: `guess ${attempt}` }, address)).status, 401, `guess ${attempt}`);
    const limited = await make(player, 'Stolen session', { password: player.password }, address);
    assert.equal(limited.status, 429, 'ten failures from one address: the right password is not even checked there now');
    assert.deepEqual(await list(player.token), [], 'nothing made by the refused ones');
    assert.equal(
      service.mailbox.messages.filter((mail) => mailTo(player.mail)(mail) && mail.subject === '你的账号创建了一个应用密码').length,
      0,
    );

    const made1 = await newAppPassword(player, 'Old launcher');
    const mail = await service.mailbox.waitFor((one) => mailTo(player.mail)(one) && one.subject === '你的账号创建了一个应用密码');
    assert.match(mail.text ?? '', /名为“Old launcher”的应用密码/);
    assert.match(mail.text ?? '', /http:\/\/skins\.test\/home/);
    assert.ok(!(mail.text ?? '').includes(made1.password), 'the mail does not carry the app password');
    assert.equal((await make(player, 'Another', { password: made1.password })).status, 401, 'an app password proves nothing here');
  });

  it('asks for the two-factor code too when that is on', async () => {
    const player = await service.registerPlayer();
    const setup = await service.call('POST', '/api/home/2fa', { token: player.token, body: { password: player.password } });
    const secret = setup.body.data.secret as string;
    assert.equal(
      (await service.call('POST', '/api/home/2fa/confirm', { token: player.token, body: { code: codeOf(secret) } })).status,
      200,
    );
    clock.advance(STEP);
    const withoutCode = await make(player);
    assert.equal(withoutCode.status, 401);
    assert.equal(withoutCode.body.data.totp_required, true);
    const wrongCode = await make(player, 'HMCL', { password: player.password, totp: '000000' });
    assert.equal(wrongCode.status, 401);
    assert.equal(wrongCode.headers['x-error-key'], 'appPasswords.codeWrong');
    assert.deepEqual(await list(player.token), []);
    assert.equal((await make(player, 'HMCL', { password: player.password, totp: codeOf(secret) })).status, 201);
  });

  it("cannot revoke another player's app password (404, nothing changes)", async () => {
    const owner = await service.registerPlayer();
    const other = await service.registerPlayer();
    const made = await newAppPassword(owner);
    const refused = await service.call('DELETE', `${URL}/${made.id}`, { token: other.token });
    assert.equal(refused.status, 404);
    assert.equal((await list(owner.token)).length, 1);
    assert.ok((await gameLogin(owner.mail, made.password)).accessToken, 'it still works');
    await assert.rejects(gameLogin(other.mail, made.password), /Invalid credentials/, "one account's is not another's");
  });

  it('allows at most 20 per account: the 21st is a 403', async () => {
    const player = await service.registerPlayer();
    for (let index = 1; index <= 20; index += 1) await newAppPassword(player, `launcher ${index}`);
    const refused = await make(player, 'one too many');
    assert.equal(refused.status, 403);
    assert.match(refused.body.msg, /at most 20/);
    assert.equal((await list(player.token)).length, 20);
  });

  it('logs in to the game (yggdrasil package) and the launcher API with two-factor login on, without the code', async () => {
    const player = await service.registerPlayer();
    const setup = await service.call('POST', '/api/home/2fa', { token: player.token, body: { password: player.password } });
    const secret = setup.body.data.secret as string;
    const on = await service.call('POST', '/api/home/2fa/confirm', { token: player.token, body: { code: codeOf(secret) } });
    assert.equal(on.status, 200, on.raw.toString());
    clock.advance(STEP);
    const made = await newAppPassword(player, 'HMCL', { password: player.password, totp: codeOf(secret) });
    clock.advance(STEP);

    const byMail = await gameLogin(player.mail, made.password);
    assert.equal(byMail.selectedProfile.name, player.username);
    const byName = await gameLogin(player.username.toUpperCase(), made.password.toUpperCase());
    assert.equal(byName.selectedProfile.name, player.username, 'a profile name, the password in any letter case');
    await assert.rejects(gameLogin(player.username, `${made.password}:${codeOf(secret)}`), /Invalid credentials/, 'with :code it is wrong');
    await assert.rejects(gameLogin(player.username, `${made.password}:123456`), /Invalid credentials/);
    const [listed] = await list(player.token);
    assert.equal(listed!.last_used, Math.floor(clock.now() / 1000), 'last_used set on use');

    const session = await launcherLogin(player.username, made.password);
    assert.ok(session.ok, JSON.stringify(session));
    assert.equal(session.result.user.username, player.username);
    assert.ok((await launcherLogin(player.mail, made.password)).ok, 'by mail');
    const withCode = await launcherLogin(player.username, `${made.password}:${codeOf(secret)}`);
    assert.ok(!withCode.ok && withCode.error.error === 'auth.wrongpassword', JSON.stringify(withCode));
    const plain = await launcherLogin(player.username, player.password);
    assert.ok(!plain.ok && plain.error.error === 'auth.require2fa', 'the password itself still needs the code');

    await auth.validate(byMail.accessToken);
    await auth.signout(player.mail, made.password);
    await assert.rejects(auth.validate(byMail.accessToken), /Invalid token\./, 'signout with the app password ended the game tokens');
  });

  it('counts wrong app passwords on the login limits, taken before the check', async () => {
    const player = await service.registerPlayer();
    const made = await newAppPassword(player);
    const address = randomAddress();
    const authenticate = (password: string, ip = address) =>
      service.call('POST', '/api/yggdrasil/authserver/authenticate', { body: { username: player.username, password }, ip });
    for (let attempt = 0; attempt < 10; attempt += 1) assert.equal((await authenticate(guess())).status, 403, `guess ${attempt}`);
    assert.equal((await authenticate(made.password)).status, 429, 'the right one is not even checked from that address now');
    assert.equal((await authenticate(made.password, randomAddress())).status, 200, 'from another address it works');
  });

  it('never works on the web login, verifypassword or as the current password of a change', async () => {
    const player = await service.registerPlayer();
    const made = await newAppPassword(player);
    assert.equal((await webLogin(player.username, made.password)).status, 401);
    assert.equal((await webLogin(player.mail, made.password)).status, 401);

    const { password: hash } = await service.db
      .selectFrom('users')
      .select('password')
      .where('mail', '=', player.mail)
      .executeTakeFirstOrThrow();
    const verify = await launchServer.post('verifypassword', { encryptedPassword: hash, password: made.password });
    assert.ok(verify.ok && verify.result.success === false, JSON.stringify(verify));

    const change = await service.call('PATCH', '/api/home', {
      token: player.token,
      body: { password: 'a brand new password', current_password: made.password },
    });
    assert.equal(change.status, 401);
    assert.equal((await webLogin(player.username, player.password)).status, 200, 'the password is unchanged');
    assert.equal((await list(player.token)).length, 1, 'and the app password stays');
  });

  it('is revoked by a password change, a reset and a ban; logging out everywhere keeps it', async () => {
    const player = await service.registerPlayer();
    const kept = await newAppPassword(player);
    assert.equal((await service.call('DELETE', '/api/home/sessions', { token: player.token })).status, 200);
    assert.ok((await gameLogin(player.username, kept.password)).accessToken, 'log out everywhere keeps it');

    let token = (await webLogin(player.username, player.password)).body.data.jwt as string;
    const changed = await newAppPassword({ token, password: player.password });
    const change = await service.call('PATCH', '/api/home', {
      token,
      body: { password: 'a changed password', current_password: player.password },
    });
    assert.equal(change.status, 200, change.raw.toString());
    await assert.rejects(gameLogin(player.username, changed.password), /Invalid credentials/, 'a password change revokes it');
    await assert.rejects(gameLogin(player.username, kept.password), /Invalid credentials/);

    token = (await webLogin(player.username, 'a changed password')).body.data.jwt as string;
    assert.deepEqual(await list(token), []);
    const beforeReset = await newAppPassword({ token, password: 'a changed password' });
    assert.equal((await service.call('POST', '/api/auth/forgetpass', { body: { mail: player.mail } })).status, 200);
    const mail = await service.mailbox.waitFor((m) => mailTo(player.mail)(m) && m.subject === 'Reset your password');
    const reset = await service.call('POST', '/api/auth/forgetpass/update', { body: { code: codeIn(mail), password: 'a reset password' } });
    assert.equal(reset.status, 200, reset.raw.toString());
    const refused = await launcherLogin(player.username, beforeReset.password);
    assert.ok(!refused.ok && refused.error.error === 'auth.wrongpassword', 'a reset revokes it');

    token = (await webLogin(player.username, 'a reset password')).body.data.jwt as string;
    const beforeBan = await newAppPassword({ token, password: 'a reset password' });
    const ownerToken = await service.ownerToken();
    const ban = await service.call('PATCH', `/api/admin/user/${player.username}`, { token: ownerToken, body: { perms: -1 } });
    assert.equal(ban.status, 200, ban.raw.toString());
    const rows = await service.db
      .selectFrom('app_passwords')
      .select('id')
      .where('user_id', '=', await userId(player.mail))
      .execute();
    assert.deepEqual(rows, [], 'a ban revokes it');
    const unban = await service.call('PATCH', `/api/admin/user/${player.username}`, { token: ownerToken, body: { perms: 0 } });
    assert.equal(unban.status, 200);
    await assert.rejects(gameLogin(player.username, beforeBan.password), /Invalid credentials/, 'and it stays revoked after the unban');
  });
});
