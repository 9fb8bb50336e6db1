// The languages through the API (contract section 14): msg follows Accept-Language, mails follow the account's stored
// language (from the registering request, changed through PATCH /api/home), the Yggdrasil and GravitLauncher answers
// stay in English. On SQLite and PostgreSQL, with a real SMTP server.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ParsedMail } from 'mailparser';
import { Secret, TOTP } from 'otpauth';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { skinFile } from '../../test/support/fixtures.ts';
import { OWNER, randomAddress, startService, uniqueName, type TestService } from '../../test/support/service.ts';
import { mailTo } from '../../test/support/smtp.ts';

const RU = { 'accept-language': 'ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7' };
const ZH = { 'accept-language': 'zh-TW,zh;q=0.9' };
const CYRILLIC = /[\u0400-\u04FF]/;
const HAN = /[\u4E00-\u9FFF]/;

/** The code of a code mail in any language: the two groups of five letters and digits after a colon. */
function codeOf(mail: ParsedMail): string {
  const match = /[:：]\s*([A-Z0-9]{5}-[A-Z0-9]{5})\b/.exec(mail.text ?? '');
  assert.ok(match, `a code in ${mail.text}`);
  return match[1]!;
}

describeEachDatabase('languages of the API and the mails', (kind) => {
  let service: TestService;
  before(async () => {
    service = await startService(kind, { settings: { owner: OWNER } });
  });
  after(() => service.close());

  /** Registers through the API with these headers on every step; returns the logged-in player. */
  async function registerIn(headers: Record<string, string>) {
    const username = uniqueName('lang');
    const mail = `${username.toLowerCase()}@example.org`;
    const password = 'correct horse battery';
    const ip = randomAddress();
    const registered = await service.call('POST', '/api/auth/register', { body: { mail, password }, ip, headers });
    assert.equal(registered.status, 200, registered.body.msg);
    const verify = await service.mailbox.waitFor(mailTo(mail));
    // Typed as the mail shows it, with the address it was sent to (contract section 15b).
    const confirmed = await service.call('POST', '/api/auth/confirm', { body: { code: codeOf(verify), mail }, ip, headers });
    assert.equal(confirmed.status, 200, confirmed.body.msg);
    const login = await service.call('POST', '/api/auth/login', { body: { username: mail, password }, ip, headers });
    assert.equal(login.status, 200, login.body.msg);
    const token = login.body.data.jwt as string;
    const finished = await service.call('POST', '/api/home/registerfinish', { body: { username, password }, token, ip, headers });
    assert.equal(finished.status, 200, finished.body.msg);
    return { token, mail, username, password, verify, registered, login };
  }

  it('answers msg in the language of Accept-Language, errors and successes alike, English without one', async () => {
    const body = { username: 'nobody_here', password: 'wrong password' };
    const english = await service.call('POST', '/api/auth/login', { body, ip: randomAddress() });
    assert.equal(english.status, 401);
    assert.equal(english.body.msg, 'Wrong username or password');
    const russian = await service.call('POST', '/api/auth/login', { body, ip: randomAddress(), headers: RU });
    assert.deepEqual(
      [russian.status, russian.body],
      [401, { error: true, msg: 'Неверное имя пользователя или пароль', url: null, data: {} }],
    );
    const chinese = await service.call('POST', '/api/auth/login', { body, ip: randomAddress(), headers: ZH });
    assert.equal(chinese.body.msg, '用户名或密码错误');
    const german = await service.call('POST', '/api/auth/login', {
      body,
      ip: randomAddress(),
      headers: { 'accept-language': 'de-DE, fr;q=0.5' },
    });
    assert.equal(german.body.msg, 'Wrong username or password');

    // Validation names the field inside a translated sentence.
    const missing = await service.call('POST', '/api/auth/register', { body: { password: 'a good password' }, headers: RU });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.msg, 'Неверный запрос: нужно указать поле «mail»');
    const missingZh = await service.call('POST', '/api/auth/register', { body: { password: 'a good password' }, headers: ZH });
    assert.equal(missingZh.body.msg, '请求无效：缺少字段“mail”');
    const missingEn = await service.call('POST', '/api/auth/register', { body: { password: 'a good password' } });
    assert.equal(missingEn.body.msg, 'Invalid request: field "mail" is required');

    // The router's answers and a check in a service, with values.
    const noRoute = await service.call('GET', '/api/no/such/thing', { headers: ZH });
    assert.deepEqual([noRoute.status, noRoute.body.msg], [404, '没有路由 GET /api/no/such/thing']);
    const noUser = await service.call('GET', '/api/admin/user/nobody_at_all', { token: await service.ownerToken(), headers: RU });
    assert.deepEqual([noUser.status, noUser.body.msg], [404, 'Пользователь nobody_at_all не найден']);

    const method = await service.call('PUT', '/api/home/skins', { headers: RU });
    assert.deepEqual([method.status, method.body.msg], [405, 'Метод PUT недоступен для /api/home/skins; используйте POST или GET']);
    const methodEn = await service.call('PUT', '/api/home/skins');
    assert.equal(methodEn.body.msg, 'Method PUT is not allowed on /api/home/skins; use POST or GET');

    // Success messages too.
    const login = await service.call('POST', '/api/auth/login', {
      body: { username: OWNER.username, password: OWNER.password },
      headers: ZH,
    });
    assert.deepEqual([login.status, login.body.msg], [200, '登录成功']);
    const home = await service.call('GET', '/api/home', { token: login.body.data.jwt, headers: RU });
    assert.deepEqual([home.status, home.body.msg], [200, 'Готово'], 'the plain answer too');
    assert.equal((await service.call('GET', '/api/home', { token: login.body.data.jwt })).body.msg, 'OK');
  });

  it('mails a player in the language they registered in, shows and changes it through /api/home', async () => {
    const player = await registerIn(RU);
    assert.equal(player.registered.body.msg, 'Аккаунт создан; мы отправили код на вашу почту');
    assert.equal(player.verify.subject, 'Подтвердите адрес почты');
    assert.match(player.verify.text ?? '', /Ваш код: [A-Z0-9]{5}-[A-Z0-9]{5}/);
    assert.match(player.verify.text ?? '', /Код действует 24 часа/);
    assert.doesNotMatch(player.verify.text ?? '', /Your code|valid for|ignore this mail/);
    assert.match(String(player.verify.html), /Ваш код: <strong[^>]*>[A-Z0-9]{5}-[A-Z0-9]{5}<\/strong>/);

    const home = await service.call('GET', '/api/home', { token: player.token });
    assert.equal(home.body.data.Language, 'ru');

    // Exactly en, ru or zh-CN: a tag of the header's kind is refused and nothing changes.
    for (const language of ['ru-RU', 'zh', 'RU', '', 'de']) {
      const refused = await service.call('PATCH', '/api/home', { token: player.token, body: { language } });
      assert.equal(refused.status, 400, language);
      assert.match(refused.body.msg, /field "language"/);
    }
    assert.equal((await service.call('GET', '/api/home', { token: player.token })).body.data.Language, 'ru');

    // The change, asked in English, applies to the next mail: a password reset in Chinese.
    const changed = await service.call('PATCH', '/api/home', { token: player.token, body: { language: 'zh-CN' } });
    assert.deepEqual([changed.status, changed.body.msg, changed.body.data.Language], [200, 'Saved', 'zh-CN']);
    const reset = await service.call('POST', '/api/auth/forgetpass', { body: { mail: player.mail }, ip: randomAddress(), headers: RU });
    assert.equal(reset.status, 200, reset.body.msg);
    assert.equal(reset.body.msg, 'Если есть аккаунт с этой почтой, мы отправили на неё код', 'the answer follows the request');
    const resetMail = await service.mailbox.waitFor((m) => mailTo(player.mail)(m) && m.subject === '重置密码');
    assert.match(resetMail.text ?? '', /你的验证码：[A-Z0-9]{5}-[A-Z0-9]{5}/);
    assert.match(resetMail.text ?? '', /30 分钟内有效/);

    // The owner made from OWNER_* is English.
    const owner = await service.call('GET', '/api/home', { token: await service.ownerToken(), headers: RU });
    assert.equal(owner.body.data.Language, 'en');
  });

  it("writes a moderator's skin removal in the owner's language, not the moderator's", async () => {
    const player = await registerIn(RU);
    const uploaded = await service.upload('/api/home/skins', player.token, { name: 'Грубый' }, skinFile('classic'));
    assert.equal(uploaded.status, 200, uploaded.body.msg);
    assert.equal(uploaded.body.msg, 'Skin uploaded', 'an upload without Accept-Language answers in English');
    const removed = await service.call('DELETE', `/api/admin/skin/${uploaded.body.data.uuid}`, {
      token: await service.ownerToken(),
      body: { reason: 'Оскорбительная картинка' },
      headers: { 'accept-language': 'en-US' },
    });
    assert.equal(removed.status, 200, removed.body.msg);
    assert.equal(removed.body.msg, 'Skin deleted');
    const mail = await service.mailbox.waitFor((m) => mailTo(player.mail)(m) && /удалён/.test(m.subject ?? ''));
    assert.equal(mail.subject, 'Ваш скин «Грубый» удалён');
    assert.match(mail.text ?? '', new RegExp(`Здравствуйте, ${player.username}!`));
    assert.match(mail.text ?? '', /\d{4} г\. \(UTC\) модератор удалил ваш скин «Грубый»/);
    assert.match(mail.text ?? '', /Причина: Оскорбительная картинка/);
  });

  it("writes an administrator's two-factor switch-off in the player's language, and its answer in the administrator's", async () => {
    const player = await registerIn(ZH);
    const setup = await service.call('POST', '/api/home/2fa', { token: player.token, body: { password: player.password }, headers: ZH });
    assert.equal(setup.status, 200, setup.body.msg);
    assert.match(setup.body.msg, /身份验证器/);
    const code = TOTP.generate({ secret: Secret.fromBase32(setup.body.data.secret), algorithm: 'SHA1', digits: 6, period: 30 });
    const confirmed = await service.call('POST', '/api/home/2fa/confirm', { token: player.token, body: { code } });
    assert.equal(confirmed.status, 200, confirmed.body.msg);

    const off = await service.call('DELETE', `/api/admin/user/${player.username}/2fa`, { token: await service.ownerToken(), headers: RU });
    assert.deepEqual([off.status, off.body.msg], [200, 'Двухфакторная аутентификация этого игрока выключена; ему отправлено письмо']);
    const mail = await service.mailbox.waitFor((m) => mailTo(player.mail)(m) && m.subject === '两步验证已关闭');
    assert.match(mail.text ?? '', new RegExp(`管理员（${OWNER.username}）关闭了你账号的两步验证`));
    assert.match(mail.text ?? '', /http:\/\/skins\.test\/home/);
    assert.match(String(mail.html), /<a href="http:\/\/skins\.test\/home">/);
  });

  it('keeps the Yggdrasil and GravitLauncher answers in their fixed English whatever Accept-Language says', async () => {
    const probes: [string, string, unknown][] = [
      [
        'POST',
        '/api/yggdrasil/authserver/authenticate',
        { username: 'nobody_here', password: 'wrong password', agent: { name: 'Minecraft', version: 1 } },
      ],
      ['POST', '/api/yggdrasil/authserver/authenticate', {}],
      ['POST', '/api/yggdrasil/authserver/validate', { accessToken: 'not-a-token' }],
      ['GET', '/api/yggdrasil/no/such/thing', undefined],
      ['POST', '/api/gravit/no/such/call', {}],
      ['POST', '/api/gravit/authorize', { login: 'nobody', password: 'x' }],
    ];
    for (const [method, url, body] of probes) {
      const ip = randomAddress();
      const english = await service.call(method, url, { body, ip });
      for (const headers of [RU, ZH]) {
        const other = await service.call(method, url, { body, ip: randomAddress(), headers });
        assert.equal(other.status, english.status, url);
        assert.deepEqual(other.body, english.body, `${method} ${url} in ${headers['accept-language']}`);
        assert.doesNotMatch(other.raw.toString(), CYRILLIC);
        assert.doesNotMatch(other.raw.toString(), HAN);
      }
    }
    const wrong = await service.call('POST', '/api/yggdrasil/authserver/authenticate', { body: probes[0]![2], headers: RU });
    assert.equal(wrong.body.errorMessage, 'Invalid credentials. Invalid username or password.');
  });
});
