// Mails on security events (issue 38, contract 15b), read from the in-process SMTP server: turning two-factor login on
// and off from the profile, and a completed password reset, each mail the account in its own language, as adding a
// passkey, linking Discord, making an app password (app-passwords.test.ts) and letting a launcher in (oauth.test.ts) do.
// A request that changes nothing mails nothing.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { randomAddress, startService, type TestService } from '../../test/support/service.ts';
import { mailTo } from '../../test/support/smtp.ts';

const STEP = 30_000;

describeEachDatabase('mails on security events', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  before(async () => {
    service = await startService(kind, { clock });
  });
  after(async () => service?.close());

  const codeOf = (secret: string) =>
    TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: clock.now() });
  /** A player whose account speaks `language`. */
  const playerSpeaking = async (language: string) => {
    const player = await service.registerPlayer();
    assert.equal((await service.call('PATCH', '/api/home', { token: player.token, body: { language } })).status, 200);
    return player;
  };
  const mailsTo = (address: string, subject: string) =>
    service.mailbox.messages.filter((mail) => mailTo(address)(mail) && mail.subject === subject);
  /** Lets the mail worker send whatever was queued (it is woken at once; nothing more is expected after this). */
  const settled = () => new Promise((resolve) => setTimeout(resolve, 300));

  it('mails the player who turns two-factor login on, and off, from the profile (in Russian)', async () => {
    const player = await playerSpeaking('ru');
    const setup = await service.call('POST', '/api/home/2fa', { token: player.token, body: { password: player.password } });
    assert.equal(setup.status, 200, setup.raw.toString());
    const secret = setup.body.data.secret as string;
    const wrong = await service.call('POST', '/api/home/2fa/confirm', { token: player.token, body: { code: '000000' } });
    assert.equal(wrong.status, 400);
    await settled();
    assert.deepEqual(mailsTo(player.mail, 'Двухфакторная аутентификация включена'), [], 'a setup not confirmed mails nothing');

    const confirmed = await service.call('POST', '/api/home/2fa/confirm', { token: player.token, body: { code: codeOf(secret) } });
    assert.equal(confirmed.status, 200, confirmed.raw.toString());
    const on = await service.mailbox.waitFor(
      (mail) => mailTo(player.mail)(mail) && mail.subject === 'Двухфакторная аутентификация включена',
    );
    assert.match(on.text ?? '', /нужен ещё и код из приложения-аутентификатора/);
    assert.match(on.text ?? '', /http:\/\/skins\.test\/home/);

    clock.advance(STEP);
    const off = await service.call('DELETE', '/api/home/2fa', {
      token: player.token,
      body: { password: player.password, code: codeOf(secret) },
      ip: randomAddress(),
    });
    assert.equal(off.status, 200, off.raw.toString());
    const offMail = await service.mailbox.waitFor(
      (mail) => mailTo(player.mail)(mail) && mail.subject === 'Двухфакторная аутентификация выключена',
    );
    assert.match(offMail.text ?? '', /выключена на странице профиля/);
  });

  it('mails the account whose password was reset, once the reset is done (in Chinese)', async () => {
    const player = await playerSpeaking('zh-CN');
    const post = (path: string, body: object) => service.call('POST', path, { body, ip: randomAddress() });
    assert.equal((await post('/api/auth/forgetpass', { mail: player.mail })).status, 200);
    const codeMail = await service.mailbox.waitFor((mail) => mailTo(player.mail)(mail) && /重置/.test(mail.subject ?? ''));
    // The code the mail's link carries (its text is in Chinese, so codeIn's English words are not there).
    const code = new URL(/http:\/\/skins\.test\/reset\/confirm\?\S+/.exec(codeMail.text ?? '')![0]).searchParams.get('code')!;
    const subject = '你的账号密码已重置';
    assert.equal((await post('/api/auth/forgetpass/update', { code, password: 'x' })).status, 400, 'too short');
    await settled();
    assert.deepEqual(mailsTo(player.mail, subject), [], 'a refused reset mails nothing');

    const reset = await post('/api/auth/forgetpass/update', { code, password: 'a brand new passphrase' });
    assert.equal(reset.status, 200, reset.raw.toString());
    const done = await service.mailbox.waitFor((mail) => mailTo(player.mail)(mail) && mail.subject === subject);
    assert.match(done.text ?? '', /所有会话和应用密码均已失效/);
    assert.ok(!(done.text ?? '').includes('a brand new passphrase'), 'the mail does not carry the password');
  });
});
