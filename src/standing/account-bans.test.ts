// Account bans as the player and the console see them (contract section 24), on SQLite and PostgreSQL: every way in
// refuses a banned account with the ban's reason in words and its end, in that API's own error shape and the user's
// language; and a timed ban's end is seen by everything that reads the stored perms (the admin list and detail, the
// dashboard, mail to all) at that moment, while perms -1 set by hand stays a permanent ban.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import yggdrasil from 'yggdrasil';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { OWNER, randomAddress, startService, type TestService } from '../../test/support/service.ts';

const API = '/api/yggdrasil';
const HOUR = 3600_000;

describeEachDatabase('account bans', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  let root: string;
  let owner: string;

  before(async () => {
    // Mail to all stays at its first count: its worker's next pass is an hour away.
    const settings = { owner: OWNER, jwtTtlSeconds: 30 * 86400 };
    service = await startService(kind, { clock, settings, app: { broadcast: { intervalMs: 3_600_000 } } });
    await service.app.listen({ port: 0, host: '127.0.0.1' });
    root = `http://127.0.0.1:${(service.app.server.address() as { port: number }).port}${API}`;
    owner = await service.ownerToken();
  });
  after(async () => service?.close());

  const ban = async (who: string, body: unknown) => {
    const reply = await service.call('POST', `/api/admin/user/${who}/bans`, { token: owner, body, ip: randomAddress() });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const webLogin = (who: { username: string; password: string }, language: string) =>
    service.call('POST', '/api/auth/login', {
      body: { username: who.username, password: who.password },
      headers: { 'accept-language': language },
      ip: randomAddress(),
    });
  /** The game's login as authlib-injector sends it (the yggdrasil client): resolves with its error. */
  const gameLogin = async (who: { mail: string; password: string }) => {
    try {
      await yggdrasil({ host: `${root}/authserver` }).auth({ user: who.mail, pass: who.password });
      return null;
    } catch (error) {
      return error as Error;
    }
  };

  describe('the refusal', () => {
    it('says the reason in words and the end, in the web API’s language and the game login’s errorMessage', async () => {
      const steve = await service.registerPlayer();
      const expires = Math.floor((clock.now() + 2 * HOUR) / 1000);
      await ban(steve.username, { scope: 'account', reason: 'FRAUD', message: 'Sold accounts', expires });

      const english = await webLogin(steve, 'en');
      assert.equal(english.status, 403);
      assert.equal(english.body.error, true);
      assert.equal(
        english.body.msg,
        'This account is banned. Reason: Fraudulent acquisition or use of content (Sold accounts). ' +
          'The ban ends on November 22, 2026 at 2:00 PM (UTC).',
      );
      const russian = await webLogin(steve, 'ru');
      assert.match(russian.body.msg, /^Этот аккаунт заблокирован\. Причина: .+ \(Sold accounts\)\. Блокировка закончится 22 ноября 2026/);
      const chinese = await webLogin(steve, 'zh-CN');
      assert.match(chinese.body.msg, /^此账号已被封禁。原因：.+（Sold accounts）。封禁将于 2026年11月22日/);

      // The game login (authlib-injector's authenticate) shows errorMessage of a ForbiddenOperationException.
      const raw = await service.call('POST', `${API}/authserver/authenticate`, {
        body: { agent: { name: 'Minecraft', version: 1 }, username: steve.mail, password: steve.password, requestUser: true },
        ip: randomAddress(),
      });
      assert.equal(raw.status, 403);
      assert.deepEqual(raw.body, { error: 'ForbiddenOperationException', errorMessage: english.body.msg });
      assert.equal((await gameLogin(steve))?.message, english.body.msg);
    });

    it('calls perms -1 set by hand a permanent ban for another reason', async () => {
      const alex = await service.registerPlayer();
      const patched = await service.call('PATCH', `/api/admin/user/${alex.username}`, { token: owner, body: { perms: -1 } });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      const refused = await webLogin(alex, 'en');
      assert.equal(refused.status, 403);
      assert.equal(refused.body.msg, 'This account is banned. Reason: Another reason, given by the administrators. The ban is permanent.');
      assert.equal((await gameLogin(alex))?.message, refused.body.msg);
    });
  });

  describe('the end of a timed ban', () => {
    it('is seen by the admin list, the detail, the dashboard and mail to all at once; perms -1 by hand is not', async () => {
      const users = async () => (await service.call('GET', '/api/admin/users?limit=100', { token: owner })).body.data;
      const permsOf = async (username: string) => (await users()).find((user: { username: string }) => user.username === username);
      const bannedCount = async () => (await service.call('GET', '/api/admin/dashboard', { token: owner })).body.data.accounts.banned;
      const recipients = async () => {
        const sent = await service.call('POST', '/api/admin/mail', { token: owner, body: { subject: 'News', message: 'Hello' } });
        assert.equal(sent.status, 200, JSON.stringify(sent.body));
        return Number(/(\d+)/.exec(sent.body.msg)![1]);
      };

      const dana = await service.registerPlayer();
      const erin = await service.registerPlayer();
      await service.call('PATCH', `/api/admin/user/${erin.username}`, { token: owner, body: { perms: -1 } });
      const before = { banned: await bannedCount(), recipients: await recipients() };
      await ban(dana.username, { scope: 'account', reason: 'SPAM_OR_ADVERTISING', expires: Math.floor((clock.now() + HOUR) / 1000) });
      assert.equal((await permsOf(dana.username)).perms, -1);
      assert.equal((await permsOf(dana.username)).level, -1);
      assert.equal(await bannedCount(), before.banned + 1);
      assert.equal(await recipients(), before.recipients - 1);

      clock.advance(HOUR);
      const listed = await permsOf(dana.username);
      assert.deepEqual([listed.perms, listed.level], [0, 0], 'a player again in the list');
      assert.equal((await service.call('GET', `/api/admin/user/${dana.username}`, { token: owner })).body.data.Perms, 0);
      assert.equal(await bannedCount(), before.banned);
      assert.equal(await recipients(), before.recipients);
      assert.equal((await webLogin(dana, 'en')).status, 200);

      // perms -1 set by hand has no end.
      assert.equal((await permsOf(erin.username)).perms, -1);
      assert.equal((await webLogin(erin, 'en')).status, 403);
    });
  });
});
