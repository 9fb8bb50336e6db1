// Standing in the game (contract section 24), on SQLite and PostgreSQL: the game's attributes as authlib asks for
// them (through authlib-injector, which forwards them once the metadata enables the anti-features), bans with a
// reason and an end from the admin API, a multiplayer ban refusing the `yggdrasil` client's join, ending by itself at
// its end, and holding on a second instance over the same database.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import yggdrasil from 'yggdrasil';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { OWNER, randomAddress, startService, type TestService } from '../../test/support/service.ts';

const API = '/api/yggdrasil';
const HOUR = 3600_000;
const dashless = (uuid: string) => uuid.replace(/-/g, '');
/** The headers authlib sends on the game services (MinecraftClient): a Bearer token, JSON on POST. */
const gameHeaders = (accessToken: string, post = false) => ({
  authorization: `Bearer ${accessToken}`,
  accept: 'application/json',
  ...(post && { 'content-type': 'application/json; charset=utf-8' }),
});

describeEachDatabase('standing in the game', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  let second: TestService;
  let root: string;
  let secondRoot: string;
  let owner: string;

  before(async () => {
    // Web logins that outlive the hours the clock is moved on by.
    const settings = { owner: OWNER, jwtTtlSeconds: 30 * 86400 };
    service = await startService(kind, { clock, settings });
    // A second instance on the same database (and its own mailbox): what one bans, the other refuses.
    second = await startService(kind, { clock, database: service.database, mailbox: service.mailbox, settings });
    for (const instance of [service, second]) await instance.app.listen({ port: 0, host: '127.0.0.1' });
    root = `http://127.0.0.1:${(service.app.server.address() as { port: number }).port}${API}`;
    secondRoot = `http://127.0.0.1:${(second.app.server.address() as { port: number }).port}${API}`;
    owner = await service.ownerToken();
  });
  after(async () => {
    await second?.close();
    await service?.close();
  });

  const player = async () => {
    const registered = await service.registerPlayer();
    const home = (await service.call('GET', '/api/home', { token: registered.token })).body.data;
    const login = await yggdrasil({ host: `${root}/authserver` }).auth({ user: registered.mail, pass: registered.password });
    return { ...registered, uuid: home.Uuid as string, accessToken: login.accessToken as string };
  };
  const attributes = async (accessToken: string, instance = service) =>
    instance.call('GET', `${API}/minecraftservices/player/attributes`, { headers: gameHeaders(accessToken) });
  const ban = (who: string, body: unknown, token = owner) =>
    service.call('POST', `/api/admin/user/${who}/bans`, { token, body, ip: randomAddress() });
  const bansOf = async (who: string) => (await service.call('GET', `/api/admin/user/${who}/bans`, { token: owner })).body.data;
  /** The game's join, as the yggdrasil client (minecraft-protocol's) sends it; resolves with the error it raised. */
  const join = async (who: { accessToken: string; uuid: string }, at = root) => {
    const session = yggdrasil.server({ host: `${at}/sessionserver` });
    try {
      await session.join(who.accessToken, dashless(who.uuid), 'server-one', Buffer.alloc(16, 1), Buffer.from('server key'));
      return null;
    } catch (error) {
      return error as Error;
    }
  };

  describe('the game attributes', () => {
    it('are advertised to authlib-injector and answered as authlib reads them', async () => {
      const meta = (await service.call('GET', `${API}/`)).body.meta;
      assert.equal(meta['feature.enable_mojang_anti_features'], true);
      const steve = await player();
      const read = await attributes(steve.accessToken);
      assert.equal(read.status, 200);
      assert.deepEqual(read.body, {
        privileges: {
          onlineChat: { enabled: true },
          multiplayerServer: { enabled: true },
          multiplayerRealms: { enabled: false },
          telemetry: { enabled: false },
          optionalTelemetry: { enabled: false },
        },
        profanityFilterPreferences: { profanityFilterOn: false },
        banStatus: { bannedScopes: {} },
        chatPreferences: { textCommunication: 'ENABLED' },
      });
      // 26.2's POST carries only what changed (and preferences this service does not keep, which it ignores).
      const saved = await service.call('POST', `${API}/minecraftservices/player/attributes`, {
        headers: gameHeaders(steve.accessToken, true),
        body: { profanityFilterPreferences: { profanityFilterOn: true }, friendsPreferences: { friends: 'ENABLED' } },
      });
      assert.equal(saved.status, 200);
      assert.equal(saved.body.profanityFilterPreferences.profanityFilterOn, true);
      assert.equal((await attributes(steve.accessToken, second)).body.profanityFilterPreferences.profanityFilterOn, true);
      const privileges = await service.call('GET', `${API}/minecraftservices/privileges`, { headers: gameHeaders(steve.accessToken) });
      assert.deepEqual(privileges.body, { privileges: read.body.privileges });
    });

    it('follow the admin’s chat switch on every instance, in both the old and the 26.x form, audited', async () => {
      const mallory = await player();
      const off = await service.call('PATCH', `/api/admin/user/${mallory.username}`, { token: owner, body: { chat: false } });
      assert.equal(off.status, 200, JSON.stringify(off.body));
      assert.equal(off.body.data.Chat, false);
      const read = (await attributes(mallory.accessToken, second)).body;
      assert.deepEqual(read.privileges.onlineChat, { enabled: false });
      assert.deepEqual(read.chatPreferences, { textCommunication: 'DISABLED' });
      const older = await second.call('GET', `${API}/minecraftservices/privileges`, { headers: gameHeaders(mallory.accessToken) });
      assert.deepEqual(older.body.privileges.onlineChat, { enabled: false });
      // Other players keep theirs; a player may not switch it back; an admin does.
      assert.deepEqual((await attributes((await player()).accessToken)).body.privileges.onlineChat, { enabled: true });
      assert.equal(
        (await service.call('PATCH', `/api/admin/user/${mallory.username}`, { token: mallory.token, body: { chat: true } })).status,
        403,
      );
      const audit = await service.call('GET', '/api/admin/audit?action=user.chat', { token: owner });
      assert.ok(audit.body.data.some((entry: { details: { chat: boolean } }) => entry.details.chat === false));
      assert.equal(
        (await service.call('PATCH', `/api/admin/user/${mallory.username}`, { token: owner, body: { chat: true } })).body.data.Chat,
        true,
      );
      assert.deepEqual((await attributes(mallory.accessToken)).body.privileges.onlineChat, { enabled: true });
    });

    it('refuse a request without a live game token in the API’s own error shape', async () => {
      const missing = await service.call('GET', `${API}/minecraftservices/player/attributes`);
      assert.equal(missing.status, 401);
      assert.equal(typeof missing.body.errorMessage, 'string');
      const wrong = await attributes('0123456789abcdef0123456789abcdef');
      assert.equal(wrong.status, 401);
      const malformed = await service.call('POST', `${API}/minecraftservices/player/attributes`, {
        headers: gameHeaders((await player()).accessToken, true),
        body: { profanityFilterPreferences: { profanityFilterOn: 'yes' } },
      });
      assert.equal(malformed.status, 400);
      assert.equal(malformed.body.error, 'IllegalArgumentException');
    });

    it('profileActions is always there, empty, on the session profile and hasJoined', async () => {
      const alex = await player();
      const session = yggdrasil.server({ host: `${root}/sessionserver` });
      await session.join(alex.accessToken, dashless(alex.uuid), 'server-two', Buffer.alloc(16, 2), Buffer.from('server key'));
      const joined = await session.hasJoined(alex.username, 'server-two', Buffer.alloc(16, 2), Buffer.from('server key'));
      assert.deepEqual(joined.profileActions, []);
      const profile = await service.call('GET', `${API}/sessionserver/session/minecraft/profile/${dashless(alex.uuid)}?unsigned=false`);
      assert.deepEqual(profile.body.profileActions, []);
    });
  });

  describe('bans', () => {
    it('a multiplayer ban refuses the join on every instance, shows in banStatus, and ends by itself at its end', async () => {
      const steve = await player();
      await service.call('PATCH', '/api/home', { token: steve.token, body: { language: 'ru' } });
      const expires = Math.floor((clock.now() + 2 * HOUR) / 1000);
      const created = await ban(steve.username, { scope: 'multiplayer', reason: 'HATE_SPEECH', message: 'Insults in chat', expires });
      assert.equal(created.status, 201);
      const record = created.body.data;
      assert.deepEqual(
        { scope: record.scope, reason: record.reason, message: record.message, expires: record.expires, by: record.by },
        { scope: 'multiplayer', reason: 'HATE_SPEECH', message: 'Insults in chat', expires, by: OWNER.username },
      );

      // The game server's join is refused with the game's own error, here and on the other instance.
      for (const at of [root, secondRoot]) {
        const refused = await join(steve, at);
        assert.match(String(refused?.message), /You are banned from playing online/, at);
      }
      const raw = await second.call('POST', `${API}/sessionserver/session/minecraft/join`, {
        body: { accessToken: steve.accessToken, selectedProfile: dashless(steve.uuid), serverId: 'x' },
      });
      assert.equal(raw.status, 403);
      assert.equal(raw.body.error, 'multiplayer.access.banned');
      assert.equal(raw.body.path, '/session/minecraft/join');
      // The player still logs in and reads their attributes: the ban screen's reason and end.
      const read = await attributes(steve.accessToken, second);
      assert.deepEqual(read.body.banStatus.bannedScopes.MULTIPLAYER, {
        banId: dashless(record.id),
        expires: new Date(expires * 1000).toISOString().replace('.000Z', 'Z'),
        reason: '5',
        reasonMessage: 'Insults in chat',
      });
      await yggdrasil({ host: `${root}/authserver` }).validate(steve.accessToken);

      // Mailed in the player's language; audited.
      const mail = await service.mailbox.waitFor(
        (m) => m.subject === 'Вам запрещена сетевая игра' && String(m.text).includes(steve.username),
      );
      assert.match(String(mail.text), /Разжигание ненависти или дискриминация/);
      assert.match(String(mail.text), /Insults in chat/);
      const audit = await service.call('GET', '/api/admin/audit?action=ban.create', { token: owner });
      assert.ok(audit.body.data.some((entry: { details: { ban: string } }) => entry.details.ban === record.id));

      // Two hours later it is over, on both instances, with nobody doing anything.
      clock.advance(2 * HOUR + 1000);
      assert.equal(await join(steve, secondRoot), null);
      assert.deepEqual((await attributes(steve.accessToken)).body.banStatus, { bannedScopes: {} });
      assert.equal((await bansOf(steve.username))[0].active, false);
    });

    it('a permanent ban with reason other is lifted by an admin, and the list keeps it', async () => {
      const alex = await player();
      const created = (await ban(alex.uuid, { scope: 'multiplayer', reason: 'other', message: 'Griefing spawn' })).body.data;
      assert.equal(created.expires, null);
      const read = (await attributes(alex.accessToken)).body.banStatus.bannedScopes.MULTIPLAYER;
      assert.equal(read.reason, '1000');
      assert.equal(read.expires, undefined, 'permanent: no end');
      assert.ok(await join(alex));
      const lifted = await service.call('DELETE', `/api/admin/user/${alex.username}/bans/${created.id}`, { token: owner });
      assert.equal(lifted.status, 200);
      assert.equal(lifted.body.data.active, false);
      assert.equal(await join(alex), null, 'joins again');
      await service.mailbox.waitFor((m) => m.subject === 'Your ban was lifted' && String(m.text).includes(alex.username));
      const again = await service.call('DELETE', `/api/admin/user/${alex.username}/bans/${created.id}`, { token: owner });
      assert.equal(again.status, 409);
      assert.equal(again.body.error, true);
      const list = await bansOf(alex.username);
      assert.equal(list.length, 1);
      assert.equal(typeof list[0].lifted, 'number');
    });

    it('an account ban is perms -1: every way in is refused until it is lifted', async () => {
      const bob = await player();
      const created = (await ban(bob.username, { scope: 'account', reason: 'FRAUD' })).body.data;
      const detail = (await service.call('GET', `/api/admin/user/${bob.username}`, { token: owner })).body.data;
      assert.equal(detail.Perms, -1);
      await assert.rejects(yggdrasil({ host: `${root}/authserver` }).auth({ user: bob.mail, pass: bob.password }));
      await service.call('DELETE', `/api/admin/user/${bob.username}/bans/${created.id}`, { token: owner });
      await yggdrasil({ host: `${root}/authserver` }).auth({ user: bob.mail, pass: bob.password });
    });

    it('an account ban with an end, made on one instance, holds on both while it lasts and ends by itself', async () => {
      const dana = await player();
      const secondOwner = await second.ownerToken();
      const expires = Math.floor((clock.now() + 3 * HOUR) / 1000);
      // Made on the second instance, while Dana is logged in on the web and in the game.
      const created = await second.call('POST', `/api/admin/user/${dana.username}/bans`, {
        token: secondOwner,
        body: { scope: 'account', reason: 'FRAUD', message: 'Sold accounts', expires },
        ip: randomAddress(),
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.data.expires, expires);
      // The first instance refuses her game token's join, her web session and every new login.
      const refused = await join(dana);
      assert.ok(refused, 'join refused on the other instance');
      assert.equal((await service.call('GET', '/api/home', { token: dana.token })).status, 401);
      for (const at of [root, secondRoot])
        await assert.rejects(yggdrasil({ host: `${at}/authserver` }).auth({ user: dana.mail, pass: dana.password }));
      const web = await service.call('POST', '/api/auth/login', { body: { username: dana.username, password: dana.password } });
      assert.equal(web.status, 403);
      const detail = (await service.call('GET', `/api/admin/user/${dana.username}`, { token: owner })).body.data;
      assert.equal(detail.Perms, -1);
      await service.mailbox.waitFor((m) => m.subject === 'Your account is banned' && String(m.text).includes(dana.username));

      // A second of it left: still refused. At its end, with nobody doing anything, she logs in again on both instances;
      // the game token of before the ban stays revoked.
      clock.advance(3 * HOUR - 1000);
      await assert.rejects(yggdrasil({ host: `${secondRoot}/authserver` }).auth({ user: dana.mail, pass: dana.password }));
      clock.advance(1000);
      assert.ok(await join(dana), 'the token revoked at the ban stays revoked');
      for (const at of [root, secondRoot]) {
        const login = await yggdrasil({ host: `${at}/authserver` }).auth({ user: dana.mail, pass: dana.password });
        assert.equal(await join({ ...dana, accessToken: login.accessToken }, at === root ? secondRoot : root), null, at);
      }
      const again = await second.call('POST', '/api/auth/login', { body: { username: dana.username, password: dana.password } });
      assert.equal(again.status, 200);
      assert.equal((await service.call('GET', `/api/admin/user/${dana.username}`, { token: owner })).body.data.Perms, 0);
      const [record] = await bansOf(dana.username);
      assert.equal(record.active, false);
      assert.equal(record.lifted, null);
    });

    it('a timed account ban never shortens a permanent one; lifting one leaves the other', async () => {
      const erin = await player();
      const permanent = (await ban(erin.username, { scope: 'account', reason: 'DRUGS' })).body.data;
      const timed = (
        await ban(erin.username, { scope: 'account', reason: 'SPAM_OR_ADVERTISING', expires: Math.floor((clock.now() + HOUR) / 1000) })
      ).body.data;
      clock.advance(HOUR + 1000);
      await assert.rejects(yggdrasil({ host: `${root}/authserver` }).auth({ user: erin.mail, pass: erin.password }));
      assert.equal((await service.call('DELETE', `/api/admin/user/${erin.username}/bans/${timed.id}`, { token: owner })).status, 409);
      assert.equal((await service.call('DELETE', `/api/admin/user/${erin.username}/bans/${permanent.id}`, { token: owner })).status, 200);
      await yggdrasil({ host: `${root}/authserver` }).auth({ user: erin.mail, pass: erin.password });
    });

    it('refuses bad input in the envelope, changing nothing', async () => {
      const carol = await player();
      const cases: [unknown, number][] = [
        [{ scope: 'multiplayer', reason: 'RUDENESS' }, 400],
        [{ scope: 'chat', reason: 'SPAM_OR_ADVERTISING' }, 400],
        [{ scope: 'multiplayer', reason: 'SPAM_OR_ADVERTISING', expires: Math.floor(clock.now() / 1000) - 60 }, 400],
        [{ scope: 'multiplayer', reason: 'other' }, 400],
        [{ scope: 'account', reason: 'FRAUD', expires: Math.floor(clock.now() / 1000) }, 400],
      ];
      for (const [body, status] of cases) {
        const reply = await ban(carol.username, body);
        assert.equal(reply.status, status, JSON.stringify(body));
        assert.equal(reply.body.error, true);
        assert.ok(reply.body.msg.length > 10, reply.body.msg);
      }
      const unknown = await ban('nobody_by_this_name', { scope: 'multiplayer', reason: 'DRUGS' });
      assert.equal(unknown.status, 404);
      assert.deepEqual(await bansOf(carol.username), []);
      assert.equal(await join(carol), null);
    });

    it('keeps section 15’s level rules: moderators read, admins ban below their own perms', async () => {
      const admin = await player();
      const target = await player();
      await service.call('PATCH', `/api/admin/user/${admin.username}`, { token: owner, body: { perms: 2 } });
      const adminToken = (await service.call('POST', '/api/auth/login', { body: { username: admin.username, password: admin.password } }))
        .body.data.jwt as string;
      assert.ok(adminToken);
      assert.equal((await ban(OWNER.username, { scope: 'multiplayer', reason: 'DRUGS' }, adminToken)).status, 403);
      const self = await ban(admin.username, { scope: 'multiplayer', reason: 'DRUGS' }, adminToken);
      assert.equal(self.status, 403, JSON.stringify(self.body));
      assert.equal((await ban(target.username, { scope: 'multiplayer', reason: 'DRUGS' }, target.token)).status, 403);
      assert.equal((await ban(target.username, { scope: 'multiplayer', reason: 'DRUGS' }, adminToken)).status, 201);
    });
  });

  describe('blocked servers', () => {
    /** How the game checks a host (Mojang's blocked-servers page): SHA-1 of the lowercased text, ISO-8859-1. */
    const gameHash = (host: string) => createHash('sha1').update(host.toLowerCase(), 'latin1').digest('hex');
    /** sessionserver/blockedservers over HTTP, as the launcher's network code fetches it. */
    const hashes = async (at = root) => {
      const response = await fetch(`${at}/sessionserver/blockedservers`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
      const text = await response.text();
      return text === '' ? [] : text.split('\n');
    };
    const block = (address: string, token = owner) =>
      service.call('POST', '/api/admin/blocked-servers', { token, body: { address }, ip: randomAddress() });

    it('an admin blocks hosts, wildcards and IP prefixes; the game reads their SHA-1s one a line on every instance', async () => {
      const before = await hashes();
      const added = await block(' *.Griefers.example ');
      assert.equal(added.status, 201, JSON.stringify(added.body));
      assert.equal(added.body.data.address, '*.griefers.example');
      assert.equal(added.body.data.sha1, gameHash('*.griefers.example'));
      assert.equal((await block('mc.scam.example')).status, 201);
      assert.equal((await block('10.66.*')).status, 201);
      const expected = ['*.griefers.example', 'mc.scam.example', '10.66.*'].map(gameHash);
      assert.deepEqual((await hashes()).slice(before.length), expected);
      assert.deepEqual((await hashes(secondRoot)).slice(before.length), expected);
      // The console's list, the newest first, with who blocked each.
      const list = (await service.call('GET', '/api/admin/blocked-servers', { token: owner })).body.data;
      assert.deepEqual(
        list.slice(0, 3).map((entry: { address: string; by: string }) => [entry.address, entry.by]),
        [
          ['10.66.*', OWNER.username],
          ['mc.scam.example', OWNER.username],
          ['*.griefers.example', OWNER.username],
        ],
      );
      const audit = await service.call('GET', '/api/admin/audit?action=blocked_server.add', { token: owner });
      assert.ok(audit.body.data.some((entry: { details: { address: string } }) => entry.details.address === 'mc.scam.example'));
      // Unblocked: gone from what the game reads, audited; a second time it is not there.
      const removed = await service.call('DELETE', `/api/admin/blocked-servers/${added.body.data.id}`, { token: owner });
      assert.equal(removed.status, 200);
      assert.equal((await hashes()).includes(gameHash('*.griefers.example')), false);
      assert.equal((await service.call('DELETE', `/api/admin/blocked-servers/${added.body.data.id}`, { token: owner })).status, 404);
      const unblocked = await service.call('GET', '/api/admin/audit?action=blocked_server.remove', { token: owner });
      assert.ok(unblocked.body.data.some((entry: { details: { address: string } }) => entry.details.address === '*.griefers.example'));
    });

    it('refuses bad addresses, a second block of one address and players, changing nothing', async () => {
      const before = await hashes();
      for (const address of ['mc.example.com:25565', 'https://mc.example.com', '', 'a b.example', '*', 'x'.repeat(254)]) {
        const reply = await block(address);
        assert.equal(reply.status, 400, address);
        assert.equal(reply.body.error, true);
        assert.equal(typeof reply.body.msg, 'string');
      }
      assert.equal((await block('twice.example')).status, 201);
      const again = await block('TWICE.example');
      assert.equal(again.status, 409);
      const steve = await player();
      assert.equal((await block('mine.example', steve.token)).status, 403);
      assert.equal((await service.call('GET', '/api/admin/blocked-servers', { token: steve.token })).status, 403);
      assert.deepEqual(await hashes(), [...before, gameHash('twice.example')]);
    });
  });

  describe('blocked players', () => {
    const blocklist = async (accessToken: string, instance = service) => {
      const reply = await instance.call('GET', `${API}/minecraftservices/privacy/blocklist`, { headers: gameHeaders(accessToken) });
      assert.equal(reply.status, 200);
      return reply.body.blockedProfiles as string[];
    };
    const blockByName = (token: string, name: string) => service.call('POST', '/api/home/blocks', { token, body: { name } });

    it('a player blocks others by name; the game reads them from privacy/blocklist on every instance; unblocking clears it', async () => {
      const alice = await player();
      const bob = await player();
      const carol = await player();
      assert.deepEqual(await blocklist(alice.accessToken), []);
      const blocked = await blockByName(alice.token, bob.username.toUpperCase());
      assert.equal(blocked.status, 201, JSON.stringify(blocked.body));
      assert.deepEqual(blocked.body.data, { uuid: bob.uuid, name: bob.username });
      assert.equal((await blockByName(alice.token, carol.username)).status, 201);
      assert.deepEqual(await blocklist(alice.accessToken), [dashless(bob.uuid), dashless(carol.uuid)]);
      assert.deepEqual(await blocklist(alice.accessToken, second), [dashless(bob.uuid), dashless(carol.uuid)]);
      const page = await service.call('GET', '/api/home/blocks', { token: alice.token });
      assert.deepEqual(
        page.body.data.map((entry: { name: string }) => entry.name),
        [bob.username, carol.username],
      );
      // Bob's list is his own: he sees nothing of Alice's, and cannot unblock himself from it.
      assert.deepEqual(await blocklist(bob.accessToken), []);
      assert.equal((await service.call('DELETE', `/api/home/blocks/${bob.uuid}`, { token: bob.token })).status, 404);
      assert.deepEqual(await blocklist(alice.accessToken), [dashless(bob.uuid), dashless(carol.uuid)]);
      const unblocked = await service.call('DELETE', `/api/home/blocks/${dashless(bob.uuid)}`, { token: alice.token });
      assert.equal(unblocked.status, 200);
      assert.deepEqual(await blocklist(alice.accessToken), [dashless(carol.uuid)]);
      assert.equal((await service.call('DELETE', `/api/home/blocks/${bob.uuid}`, { token: alice.token })).status, 404);
    });

    it('refuses an unknown name, oneself and a second block in the envelope, changing nothing', async () => {
      const dave = await player();
      const erin = await player();
      assert.equal((await blockByName(dave.token, erin.username)).status, 201);
      for (const [name, status] of [
        ['nobody_by_this_name', 404],
        [dave.username, 400],
        [erin.username, 409],
      ] as const) {
        const reply = await blockByName(dave.token, name);
        assert.equal(reply.status, status, name);
        assert.equal(reply.body.error, true);
        assert.ok(reply.body.msg.length > 10, reply.body.msg);
      }
      assert.deepEqual(await blocklist(dave.accessToken), [dashless(erin.uuid)]);
      assert.equal((await service.call('GET', `${API}/minecraftservices/privacy/blocklist`)).status, 401);
    });
  });
});

describeEachDatabase('standing in the game with GAME_SERVICES=false', (kind) => {
  let service: TestService;
  before(async () => {
    service = await startService(kind, { settings: { gameServices: false } });
  });
  after(async () => service?.close());

  it('advertises none of it, and each route answers 404', async () => {
    const meta = (await service.call('GET', `${API}/`)).body.meta;
    assert.equal('feature.enable_mojang_anti_features' in meta, false);
    const { mail, password } = await service.registerPlayer();
    const login = await service.call('POST', `${API}/authserver/authenticate`, { body: { username: mail, password } });
    for (const [method, path] of [
      ['GET', 'minecraftservices/player/attributes'],
      ['POST', 'minecraftservices/player/attributes'],
      ['GET', 'minecraftservices/privileges'],
      ['GET', 'sessionserver/blockedservers'],
      ['GET', 'minecraftservices/privacy/blocklist'],
    ] as const) {
      const reply = await service.call(method, `${API}/${path}`, {
        headers: gameHeaders(login.body.accessToken, method === 'POST'),
        body: method === 'POST' ? {} : undefined,
      });
      assert.equal(reply.status, 404, path);
      assert.equal(typeof reply.body.errorMessage, 'string');
    }
  });
});
