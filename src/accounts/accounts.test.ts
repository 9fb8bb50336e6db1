import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { PUBLIC_URL, randomAddress, startService, uniqueName, type TestService } from '../../test/support/service.ts';
import { codeIn, linkIn, mailTo, typedCodeIn } from '../../test/support/smtp.ts';
import { skinFile } from '../../test/support/fixtures.ts';
import { hashPassword } from './passwords.ts';

const PASSWORD = 'correct horse battery';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describeEachDatabase('account flows', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  before(async () => {
    service = await startService(kind, { clock });
  });
  after(async () => service?.close());

  const post = (url: string, body: unknown, ip = randomAddress()) => service.call('POST', url, { body, ip });
  /** An account through steps 1 and 2 (mail confirmed, no player name yet), logged in with PASSWORD. */
  const confirmedUnnamed = async () => {
    const mail = `${uniqueName()}@example.org`;
    await post('/api/auth/register', { mail, password: PASSWORD });
    await post('/api/auth/confirm', { code: codeIn(await service.mailbox.waitFor(mailTo(mail))) });
    return { mail, token: (await post('/api/auth/login', { username: mail, password: PASSWORD })).body.data.jwt as string };
  };
  const countUsers = async () =>
    (
      await service.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;

  it('registers in three steps, reading the code from the mail', async () => {
    const mail = `${uniqueName()}@Example.org`;
    const registered = await post('/api/auth/register', { mail, password: PASSWORD });
    assert.equal(registered.status, 200);
    assert.deepEqual(registered.body, {
      error: false,
      msg: registered.body.msg,
      url: `${PUBLIC_URL}/register/confirm`,
      // The registering tab's continuation (frictions.test.ts): with the code, it logs that tab in.
      data: { continuation: registered.body.data.continuation },
    });
    assert.match(registered.body.data.continuation, /^\d+\.\d+\.\d+\.[A-Za-z0-9_-]{43}$/);

    const message = await service.mailbox.waitFor(mailTo(mail));
    const code = codeIn(message);
    assert.match(code, /^[2-9A-HJ-NP-Z]{26}$/, "the link's token");
    assert.equal(linkIn(message), `${PUBLIC_URL}/register/confirm?code=${code}`);
    assert.ok(String(message.html).includes(code), 'the HTML body carries the link too');
    assert.match(typedCodeIn(message), /^[2-9A-HJ-NP-Z]{10}$/, 'and the code for typing');

    const early = await post('/api/auth/login', { username: mail, password: PASSWORD });
    assert.equal(early.status, 403, 'an unconfirmed mail cannot log in');

    const confirmed = await post('/api/auth/confirm', { code });
    assert.equal(confirmed.status, 200);
    assert.equal(confirmed.body.url, `${PUBLIC_URL}/register/finish`);
    assert.deepEqual(confirmed.body.data, {});

    const login = await post('/api/auth/login', { username: mail.toUpperCase(), password: PASSWORD });
    assert.equal(login.status, 200);
    assert.equal(login.body.url, `${PUBLIC_URL}/register/finish`, 'login sends an unfinished account to step 3');
    const token = login.body.data.jwt;

    const pending = await service.call('GET', '/api/home', { token });
    assert.equal(pending.status, 200, 'an unfinished account sees its own profile');
    assert.equal(pending.body.data.Username, '');
    assert.equal(pending.body.data.Mail, mail);

    const blocked = await service.call('PATCH', '/api/home', { token, body: { password: 'another password', current_password: PASSWORD } });
    assert.equal(blocked.status, 403, 'other endpoints wait for step 3');
    assert.match(blocked.body.msg, /registerfinish/);

    const username = uniqueName('Steve');
    const finished = await service.call('POST', '/api/home/registerfinish', { token, body: { username, password: 'second password' } });
    assert.equal(finished.status, 200);
    assert.deepEqual(finished.body, { error: false, msg: finished.body.msg, url: null, data: {} });

    const again = await service.call('POST', '/api/home/registerfinish', {
      token,
      body: { username: uniqueName(), password: 'second password' },
    });
    assert.equal(again.status, 409);

    const home = await service.call('GET', '/api/home', { token });
    assert.equal(home.body.data.Username, username);
    assert.match(home.body.data.Uuid, UUID_V4);
    assert.equal(home.body.data.Mail_verify, 1);
    assert.equal(home.body.data.PermLvl, 0);
    assert.deepEqual(home.body.data.Skins, []);
    assert.deepEqual(home.body.data.Capes, []);
    assert.equal(home.body.data.Discord_integration, false);

    const byUsername = await post('/api/auth/login', { username: username.toLowerCase(), password: 'second password' });
    assert.equal(byUsername.status, 200, 'step 3 set the password and the username logs in, any letter case');
    assert.equal(byUsername.body.url, `${PUBLIC_URL}/home`);
    assert.equal((await post('/api/auth/login', { username, password: PASSWORD })).status, 401, 'the step-1 password is replaced');

    const claims = decodeJwt(byUsername.body.data.jwt);
    assert.equal(typeof claims.sub, 'number');
    assert.equal(typeof claims.sId, 'number');
    assert.equal(claims.exp! - claims.iat!, service.settings.jwtTtlSeconds);
    assert.equal(claims.iss, PUBLIC_URL);
  });

  it('refuses bad registration input with a message naming the field, and creates nothing', async () => {
    const before = await countUsers();
    const cases: [unknown, RegExp][] = [
      [{ mail: 'not-a-mail', password: PASSWORD }, /mail/],
      // Control characters (PostgreSQL refuses a NUL in text; a mail header must not carry any).
      [{ mail: `${uniqueName()}\u0000@example.org`, password: PASSWORD }, /mail/],
      [{ mail: `${uniqueName()}@exa\u0007mple.org`, password: PASSWORD }, /mail/],
      [{ mail: `${uniqueName()}@example.org`, password: 'short' }, /password.*8/],
      [{ mail: `${uniqueName()}@example.org`, password: 'x'.repeat(257) }, /password.*256/],
      [{ mail: `${uniqueName()}@example.org` }, /"password" is required/],
      [{ mail: 42, password: PASSWORD }, /mail/],
      [[], /body must be object/],
    ];
    for (const [body, message] of cases) {
      const reply = await post('/api/auth/register', body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.deepEqual({ ...reply.body, msg: '' }, { error: true, msg: '', url: null, data: {} });
      assert.match(reply.body.msg, message);
    }
    assert.equal(await countUsers(), before);
  });

  it('gives 409 for a verified mail in any letter case, and mails an unverified one another code', async () => {
    const player = await service.registerPlayer();
    const taken = await post('/api/auth/register', { mail: player.mail.toUpperCase(), password: PASSWORD });
    assert.equal(taken.status, 409);

    const mail = `${uniqueName()}@example.org`;
    await post('/api/auth/register', { mail, password: PASSWORD });
    const firstCode = codeIn(await service.mailbox.waitFor(mailTo(mail)));
    clock.advance(61_000); // one mail per address per minute
    const again = await post('/api/auth/register', { mail: mail.toUpperCase(), password: 'the new password' });
    assert.equal(again.status, 200);
    const secondCode = codeIn(await service.mailbox.waitFor((m) => mailTo(mail)(m) && codeIn(m) !== firstCode));
    // Registering again kept no password (contract section 15b): its code asks for one (pending-passwords.test.ts).
    assert.equal((await post('/api/auth/confirm', { code: secondCode })).status, 400);
    assert.equal((await post('/api/auth/confirm', { code: secondCode, password: 'a chosen password' })).status, 200);
    assert.equal((await post('/api/auth/login', { username: mail, password: PASSWORD })).status, 401);
    assert.equal((await post('/api/auth/login', { username: mail, password: 'the new password' })).status, 401);
    assert.equal((await post('/api/auth/login', { username: mail, password: 'a chosen password' })).status, 200);
    assert.equal((await post('/api/auth/confirm', { code: firstCode })).status, 400, 'confirming ends the other codes');
  });

  it('gives 409 for a username taken in any letter case', async () => {
    const first = await service.registerPlayer();
    const mail = `${uniqueName()}@example.org`;
    const ip = randomAddress();
    await post('/api/auth/register', { mail, password: PASSWORD }, ip);
    await post('/api/auth/confirm', { code: codeIn(await service.mailbox.waitFor(mailTo(mail))) }, ip);
    const token = (await post('/api/auth/login', { username: mail, password: PASSWORD }, ip)).body.data.jwt;
    const clash = await service.call('POST', '/api/home/registerfinish', {
      token,
      body: { username: first.username.toUpperCase(), password: PASSWORD },
    });
    assert.equal(clash.status, 409);
    const badName = await service.call('POST', '/api/home/registerfinish', { token, body: { username: 'no spaces!', password: PASSWORD } });
    assert.equal(badName.status, 400);
    assert.match(badName.body.msg, /username/);
    const home = await service.call('GET', '/api/home', { token });
    assert.equal(home.body.data.Username, '', 'a refused step 3 leaves the account unfinished');
  });

  it("refuses the audit's own actor names system and cli, in any letter case, with a 400 in every language", async () => {
    const mail = `${uniqueName()}@example.org`;
    const ip = randomAddress();
    await post('/api/auth/register', { mail, password: PASSWORD }, ip);
    await post('/api/auth/confirm', { code: codeIn(await service.mailbox.waitFor(mailTo(mail))) }, ip);
    const token = (await post('/api/auth/login', { username: mail, password: PASSWORD }, ip)).body.data.jwt;
    for (const [username, language, reason] of [
      ['system', 'en', /^username system is reserved/],
      ['SYSTEM', 'ru', /^username: имя SYSTEM зарезервировано/],
      ['Cli', 'zh-CN', /^username Cli 为保留名称/],
      ['cLI', 'en', /reserved/],
    ] as const) {
      const refused = await service.call('POST', '/api/home/registerfinish', {
        token,
        body: { username, password: PASSWORD },
        headers: { 'accept-language': language },
      });
      assert.equal(refused.status, 400, username);
      assert.match(refused.body.msg, reason, username);
    }
    const home = await service.call('GET', '/api/home', { token });
    assert.equal(home.body.data.Username, '', 'a refused step 3 leaves the account unfinished');
    const other = await service.call('POST', '/api/home/registerfinish', { token, body: { username: 'systems', password: PASSWORD } });
    assert.equal(other.status, 200, 'only the exact names are reserved');
  });

  it('gives the same 401 for an unknown user and a wrong password', async () => {
    const player = await service.registerPlayer();
    const unknown = await post('/api/auth/login', { username: 'nobody_here', password: PASSWORD });
    const wrong = await post('/api/auth/login', { username: player.username, password: 'wrong password' });
    assert.equal(unknown.status, 401);
    assert.equal(wrong.status, 401);
    assert.equal(unknown.body.msg, wrong.body.msg);
  });

  it('uses each code once and only for its purpose', async () => {
    const mail = `${uniqueName()}@example.org`;
    await post('/api/auth/register', { mail, password: PASSWORD });
    const code = codeIn(await service.mailbox.waitFor(mailTo(mail)));
    assert.equal((await post('/api/auth/forgetpass/validate', { code })).status, 400, 'a registration code is no reset code');
    assert.equal((await post('/api/auth/forgetpass/update', { code, password: 'hijacked password' })).status, 400);
    assert.equal((await post('/api/auth/confirm', { code: code.toLowerCase() })).status, 200, 'codes are read without regard to case');
    const reused = await post('/api/auth/confirm', { code });
    assert.equal(reused.status, 400);
    assert.match(reused.body.msg, /code/);
  });

  it('lets registration codes expire after 24 hours and reset codes after 30 minutes', async () => {
    const mail = `${uniqueName()}@example.org`;
    await post('/api/auth/register', { mail, password: PASSWORD });
    const code = codeIn(await service.mailbox.waitFor(mailTo(mail)));
    clock.advance(24 * 3600_000 + 1000);
    assert.equal((await post('/api/auth/confirm', { code })).status, 400);

    const player = await service.registerPlayer();
    await post('/api/auth/forgetpass', { mail: player.mail });
    const resetCode = codeIn(await service.mailbox.waitFor((m) => mailTo(player.mail)(m) && m.subject === 'Reset your password'));
    clock.advance(29 * 60_000);
    assert.equal((await post('/api/auth/forgetpass/validate', { code: resetCode })).status, 204);
    clock.advance(2 * 60_000);
    assert.equal((await post('/api/auth/forgetpass/validate', { code: resetCode })).status, 400);
    assert.equal((await post('/api/auth/forgetpass/update', { code: resetCode, password: 'too late password' })).status, 400);
  });

  it('resets a password in three steps and revokes every session', async () => {
    const player = await service.registerPlayer();
    const secondLogin = (await post('/api/auth/login', { username: player.username, password: player.password })).body.data.jwt;

    const requested = await post('/api/auth/forgetpass', { mail: player.mail.toUpperCase() });
    assert.equal(requested.status, 200);
    assert.deepEqual(requested.body.data, {});
    assert.equal(requested.body.url, `${PUBLIC_URL}/reset/confirm`);
    const message = await service.mailbox.waitFor((m) => mailTo(player.mail)(m) && m.subject === 'Reset your password');
    const code = codeIn(message);
    assert.equal(linkIn(message), `${PUBLIC_URL}/reset/confirm?code=${code}`);

    const valid = await post('/api/auth/forgetpass/validate', { code });
    assert.equal(valid.status, 204);
    assert.equal(valid.raw.length, 0, '204 has no body');
    assert.equal((await post('/api/auth/forgetpass/validate', { code })).status, 204, 'validating does not use the code up');

    const short = await post('/api/auth/forgetpass/update', { code, password: 'short' });
    assert.equal(short.status, 400);
    const updated = await post('/api/auth/forgetpass/update', { code, password: 'brand new password' });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.url, `${PUBLIC_URL}/login`);
    assert.deepEqual(updated.body.data, {});
    assert.equal((await post('/api/auth/forgetpass/update', { code, password: 'another new password' })).status, 400, 'single use');

    for (const token of [player.token, secondLogin]) {
      assert.equal((await service.call('GET', '/api/home', { token })).status, 401, 'every session is revoked');
    }
    assert.equal((await post('/api/auth/login', { username: player.username, password: player.password })).status, 401);
    assert.equal((await post('/api/auth/login', { username: player.username, password: 'brand new password' })).status, 200);
  });

  it('answers forgetpass the same for unknown mail, sends nothing, and refuses malformed mail', async () => {
    const before = service.mailbox.messages.length;
    const unknownMail = `${uniqueName()}@example.org`;
    const unknown = await post('/api/auth/forgetpass', { mail: unknownMail });
    assert.equal(unknown.status, 200);
    const player = await service.registerPlayer();
    const known = await post('/api/auth/forgetpass', { mail: player.mail });
    assert.deepEqual(unknown.body, known.body, 'no account enumeration');
    await service.mailbox.waitFor((m) => mailTo(player.mail)(m) && m.subject === 'Reset your password');
    // Counted among the mails to these two addresses: an earlier test's security mail may still be on its way.
    const sent = service.mailbox.messages.slice(before).filter((m) => mailTo(unknownMail)(m) || mailTo(player.mail)(m));
    assert.equal(sent.length, 2, 'only the registration and the known reset mail were sent');

    const malformed = await post('/api/auth/forgetpass', { mail: 'nope' });
    assert.equal(malformed.status, 400);
    assert.deepEqual({ ...malformed.body, msg: '' }, { error: true, msg: '', url: null, data: {} });
    assert.match(malformed.body.msg, /[Ii]nvalid email/);
  });

  it('sends at most one mail per address per minute', async () => {
    const player = await service.registerPlayer();
    assert.equal((await post('/api/auth/forgetpass', { mail: player.mail })).status, 200);
    const second = await post('/api/auth/forgetpass', { mail: player.mail });
    assert.equal(second.status, 429);
    assert.ok(Number(second.headers['retry-after']) >= 1);
    assert.equal(second.body.error, true);
    clock.advance(60_000);
    assert.equal((await post('/api/auth/forgetpass', { mail: player.mail })).status, 200);
  });

  it('sends at most one registration or mail-change code per address per minute', async () => {
    const mail = `${uniqueName()}@example.org`;
    assert.equal((await post('/api/auth/register', { mail, password: PASSWORD })).status, 200);
    assert.equal((await post('/api/auth/register', { mail, password: PASSWORD })).status, 429, 'registration code');

    const [player, other] = [await service.registerPlayer(), await service.registerPlayer()];
    const [first, second] = [`${uniqueName()}@example.net`, `${uniqueName()}@example.net`];
    const move = (who: typeof player, newMail: string) =>
      service.call('PATCH', '/api/home', { token: who.token, body: { mail: newMail, current_password: who.password } });
    assert.equal((await move(player, first)).status, 200);
    await post('/api/auth/confirm', { code: codeIn(await service.mailbox.waitFor(mailTo(first))) });
    assert.equal((await move(player, second)).status, 200, 'the first address is free again');
    assert.equal((await move(other, first)).status, 429, 'mail change: another code to the first address within the minute');
    clock.advance(60_000);
    assert.equal((await move(other, first)).status, 200);
  });

  it('limits wrong codes per client address', async () => {
    const ip = randomAddress();
    const mail = 'nobody@example.org';
    for (let attempt = 0; attempt < 10; attempt += 1) {
      assert.equal((await post('/api/auth/confirm', { code: 'AAAAA-AAAAA', mail }, ip)).status, 400);
    }
    const limited = await post('/api/auth/forgetpass/validate', { code: 'AAAAA-AAAAA', mail }, ip);
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers['retry-after']) > 0);
    assert.equal((await post('/api/auth/confirm', { code: 'AAAAA-AAAAA', mail })).status, 400, 'other addresses are not limited');
  });

  it('limits failed logins per account and client address, and per client address', async () => {
    const player = await service.registerPlayer();
    const guesser = randomAddress();
    for (let attempt = 0; attempt < 10; attempt += 1) {
      assert.equal((await post('/api/auth/login', { username: player.username, password: 'wrong password' }, guesser)).status, 401);
    }
    const limited = await post('/api/auth/login', { username: player.username.toUpperCase(), password: player.password }, guesser);
    assert.equal(limited.status, 429, 'even the right password waits at that address');
    assert.ok(Number(limited.headers['retry-after']) > 0);

    const ip = randomAddress();
    for (let attempt = 0; attempt < 30; attempt += 1) {
      await post('/api/auth/login', { username: uniqueName(), password: 'wrong password' }, ip);
    }
    assert.equal((await post('/api/auth/login', { username: uniqueName(), password: 'wrong password' }, ip)).status, 429);
    clock.advance(15 * 60_000);
    assert.equal(
      (await post('/api/auth/login', { username: player.username, password: player.password }, guesser)).status,
      200,
      'the window passes',
    );
  });

  it('logout revokes that session only', async () => {
    const player = await service.registerPlayer();
    const other = (await post('/api/auth/login', { username: player.username, password: player.password })).body.data.jwt;
    const out = await service.call('POST', '/api/auth/logout', { token: player.token });
    assert.equal(out.status, 200);
    assert.deepEqual(out.body, { error: false, msg: out.body.msg, url: null, data: {} });
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).status, 401);
    assert.equal((await service.call('POST', '/api/auth/logout', { token: player.token })).status, 401);
    assert.equal((await service.call('GET', '/api/home', { token: other })).status, 200);
    const empty = await service.call('POST', '/api/auth/logout', { token: other, headers: { 'content-type': 'application/json' } });
    assert.equal(empty.status, 200, 'an empty JSON body is no body');
  });

  it('changes the password through PATCH /api/home and revokes every session', async () => {
    const player = await service.registerPlayer();
    const wrong = await service.call('PATCH', '/api/home', {
      token: player.token,
      body: { password: 'new password 1', current_password: 'wrong password' },
    });
    assert.equal(wrong.status, 401);
    const missing = await service.call('PATCH', '/api/home', { token: player.token, body: { password: 'new password 1' } });
    assert.equal(missing.status, 400);
    const typo = await service.call('PATCH', '/api/home', {
      token: player.token,
      body: { pasword: 'new password 1', current_password: player.password },
    });
    assert.equal(typo.status, 400);
    assert.match(typo.body.msg, /"pasword" is not accepted/);

    const changed = await service.call('PATCH', '/api/home', {
      token: player.token,
      body: { password: 'new password 1', current_password: player.password },
    });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.data.Username, player.username);
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).status, 401);
    assert.equal((await post('/api/auth/login', { username: player.username, password: 'new password 1' })).status, 200);
  });

  it('finishes registration without a password, keeping the one chosen at step 1', async () => {
    const { token } = await confirmedUnnamed();
    const username = uniqueName('Alex');
    const finished = await service.call('POST', '/api/home/registerfinish', { token, body: { username } });
    assert.equal(finished.status, 200);
    assert.equal((await post('/api/auth/login', { username, password: PASSWORD })).status, 200);
    const short = await service.call('POST', '/api/home/registerfinish', { token, body: { username: uniqueName(), password: 'short' } });
    assert.equal(short.status, 409, 'a finished registration stays finished');
  });

  it('applies PATCH /api/home all or nothing: a refused part leaves every other part unchanged', async () => {
    const player = await service.registerPlayer();
    const first = await service.upload('/api/home/skins', player.token, {}, skinFile('classic'));
    const second = await service.upload('/api/home/skins', player.token, {}, skinFile('slim'));
    const home = async () => (await service.call('GET', '/api/home', { token: player.token })).body.data;
    const mailsQueued = async () => (await service.db.selectFrom('mail_outbox').select('id').execute()).length;
    assert.equal((await home()).Selected_Skin, first.body.data.uuid);

    const wrongPassword = await service.call('PATCH', '/api/home', {
      token: player.token,
      body: { selected_skin: second.body.data.uuid, password: 'new password 1', current_password: 'wrong password' },
    });
    assert.equal(wrongPassword.status, 401);
    assert.equal((await home()).Selected_Skin, first.body.data.uuid, 'the selection is not saved');

    const queuedBefore = await mailsQueued();
    const newMail = `${uniqueName()}@example.net`;
    const shortPassword = await service.call('PATCH', '/api/home', {
      token: player.token,
      body: { mail: newMail, password: 'short', current_password: player.password },
    });
    assert.equal(shortPassword.status, 400);
    assert.match(shortPassword.body.msg, /password/);
    assert.equal((await home()).Mail, player.mail, 'the mail address is not changed');
    assert.equal(await mailsQueued(), queuedBefore, 'no confirmation mail is queued');

    const unknownSkin = await service.call('PATCH', '/api/home', {
      token: player.token,
      body: { selected_skin: '00000000-0000-4000-8000-000000000000', password: 'new password 1', current_password: player.password },
    });
    assert.equal(unknownSkin.status, 400);
    assert.equal((await home()).Selected_Skin, first.body.data.uuid);
    assert.equal((await post('/api/auth/login', { username: player.username, password: player.password })).status, 200);

    const all = await service.call('PATCH', '/api/home', {
      token: player.token,
      body: { selected_skin: second.body.data.uuid, mail: newMail, password: 'new password 1', current_password: player.password },
    });
    assert.equal(all.status, 200);
    assert.equal(all.body.data.Selected_Skin, second.body.data.uuid);
    assert.equal(all.body.data.Mail, newMail);
    // The code to the new address, and the notice to the former one (frictions.test.ts).
    assert.equal(await mailsQueued(), queuedBefore + 2);
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).status, 401, 'the password change revoked the session');
  });

  it('changes the mail address, which must be confirmed again', async () => {
    const player = await service.registerPlayer();
    const other = await service.registerPlayer();
    const clash = await service.call('PATCH', '/api/home', {
      token: player.token,
      body: { mail: other.mail.toUpperCase(), current_password: player.password },
    });
    assert.equal(clash.status, 409);

    const newMail = `${uniqueName()}@example.net`;
    const changed = await service.call('PATCH', '/api/home', {
      token: player.token,
      body: { mail: newMail, current_password: player.password },
    });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.data.Mail, newMail);
    assert.equal(changed.body.data.Mail_verify, 0);
    assert.equal((await post('/api/auth/login', { username: player.username, password: player.password })).status, 403);
    const code = codeIn(await service.mailbox.waitFor(mailTo(newMail)));
    const confirmed = await post('/api/auth/confirm', { code });
    assert.equal(confirmed.status, 200);
    assert.equal(confirmed.body.url, `${PUBLIC_URL}/home`, 'a finished account goes home after confirming');
    assert.equal((await post('/api/auth/login', { username: newMail, password: player.password })).status, 200);
  });

  describe('refuses an easily guessed password wherever one is set (contract section 15)', () => {
    // `PassWord`: the list is compared without regard to case; eight spaces: one character repeated.
    const COMMON = ['password', '12345678', 'PassWord', '        '];
    /** Asserts a 400 naming the password field, with the message key of the reason. */
    const assertRefused = (
      reply: { status: number; headers: Record<string, unknown>; body: { msg: string } },
      key: string,
      what: string,
    ) => {
      assert.equal(reply.status, 400, `${what}: ${reply.body.msg}`);
      assert.equal(reply.headers['x-error-key'], key, what);
      assert.deepEqual(JSON.parse(String(reply.headers['x-error-params'])), { field: 'password' }, what);
    };
    const COMMON_KEY = 'accounts.passwordCommon';
    const OWN_KEY = 'accounts.passwordIsOwnIdentifier';

    it('at registration, and creates nothing', async () => {
      const mail = `${uniqueName()}@Example.org`;
      const usersBefore = await countUsers();
      for (const password of COMMON) assertRefused(await post('/api/auth/register', { mail, password }), COMMON_KEY, password);
      assertRefused(await post('/api/auth/register', { mail, password: mail.toLowerCase() }), OWN_KEY, 'the mail');
      assert.equal(await countUsers(), usersBefore);
      assert.match((await post('/api/auth/register', { mail, password: 'password' })).body.msg, /too easy to guess/);
    });

    it('at step 3, where the name being chosen counts', async () => {
      const { mail, token } = await confirmedUnnamed();
      const username = uniqueName('Alex');
      const finish = (password: string) => service.call('POST', '/api/home/registerfinish', { token, body: { username, password } });
      for (const password of COMMON) assertRefused(await finish(password), COMMON_KEY, password);
      assertRefused(await finish(username.toUpperCase()), OWN_KEY, 'the name being chosen');
      assertRefused(await finish(mail.toUpperCase()), OWN_KEY, 'the mail');
      assert.equal((await finish('a name of my own')).status, 200);
    });

    it('at a password change, counting the mail being set too', async () => {
      const player = await service.registerPlayer();
      const change = (password: string, mail?: string) =>
        service.call('PATCH', '/api/home', { token: player.token, body: { password, mail, current_password: player.password } });
      for (const password of COMMON) assertRefused(await change(password), COMMON_KEY, password);
      assertRefused(await change(player.mail.toUpperCase()), OWN_KEY, 'the mail');
      assertRefused(await change(player.username.toLowerCase()), OWN_KEY, 'the name');
      const newMail = `${uniqueName()}@example.net`;
      assertRefused(await change(newMail, newMail), OWN_KEY, 'the new mail');
      assert.equal((await post('/api/auth/login', { username: player.username, password: player.password })).status, 200);
    });

    it('at a reset, without using the code up', async () => {
      const player = await service.registerPlayer();
      await post('/api/auth/forgetpass', { mail: player.mail });
      const code = codeIn(await service.mailbox.waitFor((m) => mailTo(player.mail)(m) && m.subject === 'Reset your password'));
      const reset = (password: string) => post('/api/auth/forgetpass/update', { code, password });
      for (const password of COMMON) assertRefused(await reset(password), COMMON_KEY, password);
      assertRefused(await reset(player.mail.toUpperCase()), OWN_KEY, 'the mail');
      assertRefused(await reset(player.username.toUpperCase()), OWN_KEY, 'the name');
      assert.equal((await reset('a fresh start')).status, 200);
      assert.equal((await post('/api/auth/login', { username: player.username, password: 'a fresh start' })).status, 200);
    });

    it('but never at login: an account whose password is common still logs in', async () => {
      const player = await service.registerPlayer();
      const stored = await hashPassword('PassWord');
      await service.db.updateTable('users').set({ password: stored }).where('username', '=', player.username).execute();
      assert.equal((await post('/api/auth/login', { username: player.username, password: 'PassWord' })).status, 200);
    });
  });
});

describeEachDatabase('owner from settings', (kind) => {
  let service: TestService;
  const owner = { username: 'TheOwner', mail: 'owner@example.org', password: 'owner password' };
  before(async () => {
    service = await startService(kind, { settings: { owner } });
  });
  after(async () => service?.close());

  it('creates an owner who can log in at level 3, once', async () => {
    const login = await service.call('POST', '/api/auth/login', { body: { username: owner.username, password: owner.password } });
    assert.equal(login.status, 200);
    assert.equal(login.body.url, `${PUBLIC_URL}/home`);
    const home = await service.call('GET', '/api/home', { token: login.body.data.jwt });
    assert.equal(home.body.data.PermLvl, 3);
    assert.equal(home.body.data.Mail_verify, 1);
    assert.match(home.body.data.Uuid, UUID_V4);
    const rows = await service.db.selectFrom('users').select('id').where('mail_key', '=', owner.mail).execute();
    assert.equal(rows.length, 1);
  });
});
