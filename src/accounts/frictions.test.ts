// Issue 31, items 5, 6 and 8, through the API on SQLite and PostgreSQL: the tab that registered is logged in by
// confirming (its continuation, bound to the code it had mailed) while a code alone logs nobody in; "send the mail
// again" from that tab and from the login's refusal, within the mail limits; the login lock and the limits say when
// to come back (Retry-After and the minutes, in three languages and in the game login's words); a two-factor code
// used already says to wait for the next one; a mail change is told to the former address, with no code or link.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import type { ParsedMail } from 'mailparser';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { OWNER, randomAddress, startService, uniqueName, type TestService } from '../../test/support/service.ts';
import { codeIn, mailTo, typedCodeIn } from '../../test/support/smtp.ts';

const PASSWORD = 'correct horse battery';
const OTHER_PASSWORD = 'another horse battery';
const MINUTE = 60_000;
const MAIL_CODE = /[2-9A-HJ-NP-Z]{5}-?[2-9A-HJ-NP-Z]{5}/;

describeEachDatabase('first-impression frictions (issue 31)', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  before(async () => {
    service = await startService(kind, { clock, settings: { owner: OWNER } });
  });
  after(async () => service?.close());

  const post = (url: string, body: unknown, ip = randomAddress(), headers: Record<string, string> = {}) =>
    service.call('POST', url, { body, ip, headers });
  /** Mails to `mail` that arrived, oldest first. */
  const mailsTo = (mail: string) => service.mailbox.messages.filter(mailTo(mail));
  /** The next mail to `mail` after the `seen` ones. */
  const nextMail = (mail: string, seen: number) =>
    service.mailbox.waitFor((candidate) => mailTo(mail)(candidate) && mailsTo(mail).indexOf(candidate) >= seen);
  const register = async (mail: string, password = PASSWORD) => {
    const seen = mailsTo(mail).length;
    const registered = await post('/api/auth/register', { mail, password });
    assert.equal(registered.status, 200, registered.raw.toString());
    const continuation = registered.body.data.continuation as string;
    assert.equal(typeof continuation, 'string');
    return { continuation, code: codeIn(await nextMail(mail, seen)) };
  };
  const newMail = () => `${uniqueName()}@example.org`;

  it('the tab that registered is logged in by confirming, once, and goes on to step 3 without the password', async () => {
    const mail = newMail();
    const { continuation, code } = await register(mail);
    const confirmed = await post('/api/auth/confirm', { code, continuation });
    assert.equal(confirmed.status, 200, confirmed.raw.toString());
    const token = confirmed.body.data.jwt as string;
    assert.equal(typeof token, 'string', 'confirming in the tab that registered logs in');
    assert.match(confirmed.body.url, /\/register\/finish$/);
    const home = await service.call('GET', '/api/home', { token });
    assert.equal(home.status, 200);
    assert.equal(home.body.data.Mail, mail);
    const username = uniqueName('Tab');
    assert.equal((await service.call('POST', '/api/home/registerfinish', { token, body: { username } })).status, 200);
    // The code is used up: the continuation cannot log in a second time.
    const again = await post('/api/auth/confirm', { code, continuation });
    assert.equal(again.status, 400);
    assert.equal(again.body.data.jwt, undefined);
    // The password of step 1 is the account's.
    assert.equal((await post('/api/auth/login', { username, password: PASSWORD })).status, 200);
  });

  it('a code confirmed elsewhere (no continuation, or the continuation of another code) logs nobody in', async () => {
    // Another tab or browser: confirmed, then the password at login.
    const mail = newMail();
    const { code } = await register(mail);
    const confirmed = await post('/api/auth/confirm', { code });
    assert.equal(confirmed.status, 200);
    assert.deepEqual(confirmed.body.data, {});
    assert.equal((await post('/api/auth/login', { username: mail, password: 'not the password' })).status, 401);
    assert.equal((await post('/api/auth/login', { username: mail, password: PASSWORD })).status, 200);

    // Someone registers the same mail in another browser with their own password: the second registration's code
    // carries no password (pending-passwords.test.ts), so with the first browser's continuation it confirms only
    // with a password chosen then, and the second browser's continuation opens no session with the first code.
    const shared = newMail();
    const first = await register(shared, PASSWORD);
    clock.advance(MINUTE + 1000);
    const second = await register(shared, OTHER_PASSWORD);
    const crossed = await post('/api/auth/confirm', { code: second.code, continuation: first.continuation });
    assert.equal(crossed.status, 400);
    assert.equal(crossed.headers['x-error-key'], 'accounts.confirmPasswordNeeded');
    const other = await post('/api/auth/confirm', { code: first.code, continuation: second.continuation });
    assert.equal(other.status, 400, "the second browser proved another password than the first code's");
    const chosen = await post('/api/auth/confirm', {
      code: second.code,
      continuation: first.continuation,
      password: 'a password chosen now',
    });
    assert.equal(chosen.status, 200);
    assert.equal(typeof chosen.body.data.jwt, 'string', 'whoever chose the password with the code is logged in');
    assert.equal((await post('/api/auth/login', { username: shared, password: OTHER_PASSWORD })).status, 401);
    assert.equal((await post('/api/auth/login', { username: shared, password: 'a password chosen now' })).status, 200);

    // A forged or ended continuation does nothing either.
    const third = newMail();
    const { continuation, code: thirdCode } = await register(third);
    const forged = `${continuation.slice(0, -1)}${continuation.endsWith('A') ? 'B' : 'A'}`;
    assert.deepEqual((await post('/api/auth/confirm', { code: thirdCode, continuation: forged })).body.data, {});
    assert.equal((await post('/api/auth/confirm/resend', { continuation: forged })).status, 400);
    const fourth = newMail();
    const late = await register(fourth);
    clock.advance(61 * MINUTE);
    assert.equal((await post('/api/auth/confirm/resend', { continuation: late.continuation })).status, 400);
    assert.deepEqual((await post('/api/auth/confirm', { code: late.code, continuation: late.continuation })).body.data, {});
  });

  it('"send the mail again" from the tab that registered mails a new code, and stops at the limit with a message', async () => {
    const mail = newMail();
    const { continuation, code: firstCode } = await register(mail);
    const ip = randomAddress();
    const tooSoon = await post('/api/auth/confirm/resend', { continuation }, ip);
    assert.equal(tooSoon.status, 429);
    assert.match(tooSoon.body.msg, /less than a minute ago; wait a minute/);
    assert.ok(Number(tooSoon.headers['retry-after']) <= 60);
    assert.equal(mailsTo(mail).length, 1, 'no mail beyond the limit');
    clock.advance(MINUTE + 1000);
    const sent = await post('/api/auth/confirm/resend', { continuation }, ip);
    assert.equal(sent.status, 200, sent.raw.toString());
    assert.equal(sent.body.msg, `We sent a new code to ${mail}`);
    assert.equal(sent.body.data.mail, mail);
    const code = codeIn(await nextMail(mail, 1));
    assert.notEqual(code, firstCode, 'a new code');
    // The new code carries the password of the registration; its continuation logs the tab in.
    const confirmed = await post('/api/auth/confirm', { code, continuation: sent.body.data.continuation });
    assert.equal(typeof confirmed.body.data.jwt, 'string');
    assert.equal((await post('/api/auth/login', { username: mail, password: PASSWORD })).status, 200);
    // Confirmed: nothing more to send.
    clock.advance(MINUTE + 1000);
    assert.equal((await post('/api/auth/confirm/resend', { continuation: sent.body.data.continuation })).status, 409);
  });

  it("the login's refusal of an unconfirmed account offers the mail again, with that login, within the limits", async () => {
    const mail = newMail();
    await register(mail);
    const ip = randomAddress();
    const refused = await post('/api/auth/login', { username: mail, password: PASSWORD }, ip);
    assert.equal(refused.status, 403);
    assert.equal(refused.headers['x-error-key'], 'standing.unverified');
    // The login's proof is needed: a wrong password sends nothing (and counts as a failed login).
    clock.advance(MINUTE + 1000);
    const wrong = await post('/api/auth/confirm/resend', { username: mail, password: 'not the password' }, ip);
    assert.equal(wrong.status, 401);
    assert.equal(mailsTo(mail).length, 1);
    const sent = await post('/api/auth/confirm/resend', { username: mail, password: PASSWORD }, ip);
    assert.equal(sent.status, 200, sent.raw.toString());
    const code = codeIn(await nextMail(mail, 1));
    const limited = await post('/api/auth/confirm/resend', { username: mail, password: PASSWORD }, ip);
    assert.equal(limited.status, 429);
    assert.match(limited.body.msg, /wait a minute/);
    assert.equal(mailsTo(mail).length, 2, 'no mail beyond the limit');
    // The tab that asked is logged in by confirming; the password stays the one proven.
    const confirmed = await post('/api/auth/confirm', { code, continuation: sent.body.data.continuation });
    assert.equal(typeof confirmed.body.data.jwt, 'string');
    assert.equal((await post('/api/auth/login', { username: mail, password: PASSWORD })).status, 200);
    clock.advance(MINUTE + 1000);
    assert.equal((await post('/api/auth/confirm/resend', { username: mail, password: PASSWORD })).status, 409);
  });

  it('the login lock says when to come back: Retry-After and the minutes, in three languages and the game login', async () => {
    const player = await service.registerPlayer();
    const ip = randomAddress();
    for (let attempt = 0; attempt < 10; attempt += 1) {
      assert.equal((await post('/api/auth/login', { username: player.username, password: `wrong ${attempt}` }, ip)).status, 401);
    }
    const locked = await post('/api/auth/login', { username: player.username, password: player.password }, ip);
    assert.equal(locked.status, 429);
    assert.equal(locked.headers['retry-after'], '900');
    assert.equal(locked.body.msg, 'Too many failed logins for this account from your address; try again in 15 minutes');
    clock.advance(5 * MINUTE + 30_000);
    const later = await post('/api/auth/login', { username: player.username, password: player.password }, ip, { 'accept-language': 'ru' });
    assert.equal(later.headers['retry-after'], '570');
    assert.match(later.body.msg, /попробуйте через 10 минут$/);
    const zh = await post('/api/auth/login', { username: player.username, password: player.password }, ip, { 'accept-language': 'zh-CN' });
    assert.match(zh.body.msg, /请在 10 分钟后再试$/);
    const game = await post(
      '/api/yggdrasil/authserver/authenticate',
      { username: player.username, password: player.password, agent: { name: 'Minecraft', version: 1 } },
      ip,
    );
    assert.equal(game.status, 429);
    assert.equal(game.headers['retry-after'], '570');
    assert.match(game.body.errorMessage, /try again in 10 minutes$/);
    clock.advance(10 * MINUTE);
    assert.equal((await post('/api/auth/login', { username: player.username, password: player.password }, ip)).status, 200);
  });

  it('a two-factor code used already says to wait for the next one; a wrong one stays a wrong one', async () => {
    const STEP = 30_000;
    const codeOf = (secret: string, steps = 0) =>
      TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: clock.now() + steps * STEP });
    const player = await service.registerPlayer();
    const setup = await service.call('POST', '/api/home/2fa', { token: player.token, body: { password: player.password } });
    const secret = setup.body.data.secret as string;
    assert.equal(
      (await service.call('POST', '/api/home/2fa/confirm', { token: player.token, body: { code: codeOf(secret) } })).status,
      200,
    );
    clock.advance(STEP);
    const code = codeOf(secret);
    const login = (totp: string, headers: Record<string, string> = {}) =>
      post('/api/auth/login', { username: player.username, password: player.password, totp }, randomAddress(), headers);
    assert.equal((await login(code)).status, 200);
    const replayed = await login(code);
    assert.equal(replayed.status, 401);
    assert.equal(replayed.headers['x-error-key'], 'accounts.totpUsed');
    assert.match(replayed.body.msg, /already used: wait for the next code/);
    assert.match((await login(code, { 'accept-language': 'ru' })).body.msg, /дождитесь следующего кода/);
    const near = new Set([-1, 0, 1].map((steps) => codeOf(secret, steps)));
    const wrong = ['000000', '111111', '222222'].find((candidate) => !near.has(candidate))!;
    assert.equal((await login(wrong)).headers['x-error-key'], 'accounts.totpWrong');
    const game = await post('/api/yggdrasil/authserver/authenticate', {
      username: player.username,
      password: `${player.password}:${code}`,
      agent: { name: 'Minecraft', version: 1 },
    });
    assert.equal(game.status, 403);
    assert.match(game.body.errorMessage, /already used: wait for the next code/);
    clock.advance(STEP);
    assert.equal((await login(codeOf(secret))).status, 200, 'the next code logs in');
  });

  /** The notice at a former address: what it says, and that nothing in it acts. */
  const assertNotice = (notice: ParsedMail, newAddress: string) => {
    assert.equal(notice.subject, 'The mail address of your account was changed');
    const text = notice.text ?? '';
    const [local, domain] = newAddress.split('@') as [string, string];
    assert.ok(text.includes(`${local[0]}***${local.at(-1)}@${domain}`), text);
    assert.ok(!text.includes(newAddress), 'the new address is masked');
    assert.match(text, /If it was not you/);
    assert.doesNotMatch(text, MAIL_CODE, 'no code');
    assert.doesNotMatch(`${text}${notice.html || ''}`, /https?:\/\/|<a /, 'no link');
  };

  it('a mail change, by the player or by an admin, is told to the former address, with no code or link', async () => {
    const player = await service.registerPlayer();
    const changedTo = `moved_${uniqueName()}@example.net`;
    const seen = mailsTo(player.mail).length;
    const changed = await service.call('PATCH', '/api/home', {
      token: player.token,
      body: { mail: changedTo, current_password: player.password },
    });
    assert.equal(changed.status, 200, changed.raw.toString());
    assertNotice(await nextMail(player.mail, seen), changedTo);
    assert.match(typedCodeIn(await service.mailbox.waitFor(mailTo(changedTo))), /^[2-9A-HJ-NP-Z]{10}$/, 'the new address gets its code');

    const other = await service.registerPlayer();
    const byAdmin = `admin_${uniqueName()}@example.net`;
    const otherSeen = mailsTo(other.mail).length;
    const edited = await service.call('PATCH', `/api/admin/user/${other.username}`, {
      token: await service.ownerToken(),
      body: { mail: byAdmin },
    });
    assert.equal(edited.status, 200, edited.raw.toString());
    const notice = await nextMail(other.mail, otherSeen);
    assertNotice(notice, byAdmin);
    assert.match(notice.text ?? '', new RegExp(`An administrator \\(${OWNER.username}\\) made the change`));
  });
});
