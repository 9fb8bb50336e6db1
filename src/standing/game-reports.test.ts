// Reports from the game (contract section 24), on SQLite and PostgreSQL: chat, name and skin reports as the game
// sends them (authlib's AbuseReportRequest through authlib-injector: Bearer token, JSON with 64-bit salts), chat
// messages signed with the private key player/certificates gave, exactly as the game signs them; attestation of
// altered, reordered and foreign-key messages; refusals that store nothing; the daily limit; forced renames and
// blocked skins as the game reads them; and the moderators' queue closing reports with actions.
import assert from 'node:assert/strict';
import { createSign, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import yggdrasil from 'yggdrasil';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { fixture } from '../../test/support/fixtures.ts';
import { GAME_API, GAME_REPORT, gameHeaders, gameReportClient, gsonJson, listeningReportService } from '../../test/support/game-reports.ts';
import type { TestService } from '../../test/support/service.ts';

const API = GAME_API;
const HOUR = 3600_000;
const dashless = (uuid: string) => uuid.replace(/-/g, '');

/** A chat message as the game keeps it before it reports it. */
interface Chat {
  index: number;
  profileId: string;
  sessionId: string;
  timestampMs: number;
  salt: bigint;
  lastSeen: Buffer[];
  message: string;
  signature: Buffer | null;
  messageReported: boolean;
}

/**
 * What the game signs (1.19.3+; wire-shapes-26 §4.2), written here independently of the service: version 1, the
 * sender and session UUIDs, the index, the salt, the time in seconds, the UTF-8 text with its length, the last-seen
 * signatures with their count; SHA256withRSA.
 */
function gameSign(key: KeyObject, chat: Omit<Chat, 'signature' | 'messageReported'>): Buffer {
  const int = (value: number) => {
    const bytes = Buffer.alloc(4);
    bytes.writeInt32BE(value);
    return bytes;
  };
  const long = (value: bigint) => {
    const bytes = Buffer.alloc(8);
    bytes.writeBigInt64BE(value);
    return bytes;
  };
  const text = Buffer.from(chat.message, 'utf8');
  const signer = createSign('SHA256');
  signer.update(
    Buffer.concat([
      int(1),
      Buffer.from(dashless(chat.profileId), 'hex'),
      Buffer.from(dashless(chat.sessionId), 'hex'),
      int(chat.index),
      long(chat.salt),
      long(BigInt(Math.floor(chat.timestampMs / 1000))),
      int(text.length),
      text,
      int(chat.lastSeen.length),
      ...chat.lastSeen,
    ]),
  );
  return signer.sign(key);
}

/** The report body as Gson writes it: the salt a bare 64-bit number (not representable as a double). */
function reportJson(input: { type: 'CHAT' | 'USERNAME' | 'SKIN'; subject: string; reason?: string; messages?: Chat[]; comment?: string }) {
  const messages = (input.messages ?? []).map((chat) => ({
    index: chat.index,
    profileId: dashless(chat.profileId),
    sessionId: dashless(chat.sessionId),
    timestamp: new Date(chat.timestampMs).toISOString(),
    salt: `@@${chat.salt}@@`,
    lastSeen: chat.lastSeen.map((seen) => seen.toString('base64')),
    message: chat.message,
    signature: chat.signature?.toString('base64') ?? null,
    messageReported: chat.messageReported,
  }));
  const body = {
    version: 1,
    id: dashless(randomUUID()),
    reportType: input.type,
    report: {
      opinionComments: input.comment ?? 'Please look at this',
      ...(input.reason !== undefined && { reason: input.reason }),
      ...(input.type === 'CHAT' && { evidence: { messages } }),
      ...(input.type === 'SKIN' && { skinUrl: null }),
      reportedEntity: { profileId: dashless(input.subject) },
      createdTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    },
    clientInfo: { clientVersion: '1.21.11', locale: 'en-US' },
    thirdPartyServerInfo: { address: 'play.example.org' },
  };
  return gsonJson(body);
}

describeEachDatabase('reports from the game', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  let owner: string;
  let root: string;

  before(async () => ({ service, root, owner } = await listeningReportService(kind, clock)));
  after(async () => service?.close());

  const { gameLogin, player, chatKey, send, queue, reportCount } = gameReportClient(() => ({ service, root, owner }));
  /** A chat session of `sender`: messages signed in order, each having seen the one before. */
  const chatSession = (sender: { uuid: string }, key: KeyObject, texts: string[], reported: boolean[]) => {
    const sessionId = randomUUID();
    const chats: Chat[] = [];
    texts.forEach((message, index) => {
      const unsigned = {
        index,
        profileId: sender.uuid,
        sessionId,
        timestampMs: clock.now() + index * 1500 + 123,
        // Salts past 2^53, negative and positive: a double would round them.
        salt: index % 2 === 0 ? -1234567890123456789n - BigInt(index) : 9007199254740993n + 2n * BigInt(index),
        lastSeen: index === 0 ? [] : [chats[index - 1]!.signature!],
        message,
      };
      chats.push({ ...unsigned, signature: gameSign(key, unsigned), messageReported: reported[index]! });
    });
    return chats;
  };

  describe('POST player/report', () => {
    it('stores a chat report whose messages verify against the certified key, in order, with full attestation', async () => {
      const [steve, alex] = [await player(), await player()];
      const key = await chatKey(alex.accessToken);
      const chats = chatSession(alex, key, ['hello', 'you are terrible', 'привет 你好'], [false, true, true]);
      const sent = await send(
        steve.accessToken,
        reportJson({ type: 'CHAT', subject: alex.uuid, reason: 'HARASSMENT_OR_BULLYING', messages: chats }),
      );
      assert.equal(sent.status, 204, JSON.stringify(sent.body));
      const [report] = (await queue()).filter((entry: { subject: { uuid: string } }) => entry.subject.uuid === alex.uuid);
      assert.equal(report.kind, 'chat');
      assert.equal(report.attestation, 'full');
      assert.deepEqual(report.failed, []);
      assert.deepEqual(
        report.evidence.messages.map((m: { message: string; verified: boolean; messageReported: boolean }) => [
          m.message,
          m.verified,
          m.messageReported,
        ]),
        [
          ['hello', true, false],
          ['you are terrible', true, true],
          ['привет 你好', true, true],
        ],
      );
      assert.equal(report.evidence.messages[0].salt, '-1234567890123456789');
      assert.deepEqual(report.reporter, { uuid: steve.uuid, name: steve.username });
      assert.equal(report.reason, 'HARASSMENT_OR_BULLYING');
      assert.equal(report.evidence.server, 'play.example.org');
    });

    it('fails attestation for a message altered, reordered or signed with another key', async () => {
      const [steve, alex] = [await player(), await player()];
      const key = await chatKey(alex.accessToken);
      const subject = (json: string) => send(steve.accessToken, json);
      const latest = async () => (await queue()).filter((entry: { subject: { uuid: string } }) => entry.subject.uuid === alex.uuid).at(-1);

      // Altered after signing: the reported message fails, the context message still verifies.
      const altered = chatSession(alex, key, ['hi', 'you are great'], [false, true]);
      altered[1]!.message = 'you are terrible';
      assert.equal((await subject(reportJson({ type: 'CHAT', subject: alex.uuid, reason: 'HATE_SPEECH', messages: altered }))).status, 204);
      let report = await latest();
      assert.equal(report.attestation, 'none');
      assert.deepEqual(report.failed, [1]);
      assert.equal(report.evidence.messages[1].problem, 'bad-signature');

      // Reordered: each signature is right, but the second listed came first in its session.
      const ordered = chatSession(alex, key, ['one', 'two', 'three'], [true, true, true]);
      const reordered = [ordered[0]!, ordered[2]!, ordered[1]!];
      assert.equal(
        (await subject(reportJson({ type: 'CHAT', subject: alex.uuid, reason: 'HATE_SPEECH', messages: reordered }))).status,
        204,
      );
      report = await latest();
      assert.equal(report.attestation, 'partial');
      // "three" is listed before "two", which it had seen: it is the one out of place.
      assert.deepEqual(report.failed, [1]);
      assert.equal(report.evidence.messages[1].problem, 'out-of-order');

      // Signed with a key this service never certified for the sender.
      const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      const forged = chatSession(alex, foreign, ['I said this'], [true]);
      assert.equal((await subject(reportJson({ type: 'CHAT', subject: alex.uuid, reason: 'HATE_SPEECH', messages: forged }))).status, 204);
      report = await latest();
      assert.equal(report.attestation, 'none');
      assert.equal(report.evidence.messages[0].problem, 'bad-signature');

      // A salt rounded as a double would (the body through a plain JSON.parse and back) no longer verifies.
      const rounded = chatSession(alex, key, ['x', 'y'], [true, true]);
      const json = reportJson({ type: 'CHAT', subject: alex.uuid, reason: 'HATE_SPEECH', messages: rounded });
      assert.equal((await subject(JSON.stringify(JSON.parse(json)))).status, 204);
      assert.equal((await latest()).attestation, 'none');
    });

    it('verifies messages signed with a key from before a certificate refresh', async () => {
      const [steve, alex] = [await player(), await player()];
      const oldKey = await chatKey(alex.accessToken);
      const chats = chatSession(alex, oldKey, ['before the refresh'], [true]);
      clock.advance(37 * HOUR);
      const newToken = await gameLogin(alex.mail, alex.password);
      const newKey = await chatKey(newToken);
      assert.notDeepEqual(newKey.export({ type: 'pkcs8', format: 'der' }), oldKey.export({ type: 'pkcs8', format: 'der' }));
      const steveToken = await gameLogin(steve.mail, steve.password);
      assert.equal(
        (await send(steveToken, reportJson({ type: 'CHAT', subject: alex.uuid, reason: 'HATE_SPEECH', messages: chats }))).status,
        204,
      );
      const [report] = (await queue()).filter((entry: { subject: { uuid: string } }) => entry.subject.uuid === alex.uuid);
      assert.equal(report.attestation, 'full');
    });

    it('stores name and skin reports with the skin worn when reported', async () => {
      const [steve, alex] = [await player(), await player()];
      const upload = await service.upload(`${API}/minecraftservices/minecraft/profile/skins`, alex.accessToken, { variant: 'slim' }, [
        { field: 'file', filename: 'skin.png', bytes: fixture('skins/slim.png') },
      ]);
      assert.equal(upload.status, 200);
      assert.equal((await send(steve.accessToken, reportJson({ type: 'USERNAME', subject: alex.uuid }))).status, 204);
      assert.equal(
        (await send(steve.accessToken, reportJson({ type: 'SKIN', subject: alex.uuid, reason: 'SEXUALLY_INAPPROPRIATE' }))).status,
        204,
      );
      const reports = (await queue()).filter((entry: { subject: { uuid: string } }) => entry.subject.uuid === alex.uuid);
      assert.deepEqual(
        reports.map((entry: { kind: string; attestation: string | null }) => [entry.kind, entry.attestation]),
        [
          ['name', null],
          ['skin', null],
        ],
      );
      assert.equal(reports[0].subject.name, alex.username);
      assert.match(reports[1].evidence.skin.digest, /^[0-9a-f]{64}$/);
      assert.equal(reports[1].evidence.skin.slim, true);
    });

    it('refuses malformed reports, reports about oneself and unknown profiles in the services’ error shape, storing nothing', async () => {
      const [steve, alex] = [await player(), await player()];
      const before = await reportCount();
      const refusals: [string, number][] = [
        [JSON.stringify({ version: 1, id: dashless(randomUUID()), report: {} }), 400],
        [reportJson({ type: 'CHAT', subject: alex.uuid, reason: 'HATE_SPEECH', messages: [] }), 400],
        [reportJson({ type: 'SKIN', subject: alex.uuid, reason: 'NOT_A_REASON' }), 400],
        [reportJson({ type: 'USERNAME', subject: steve.uuid }), 400],
        [reportJson({ type: 'USERNAME', subject: randomUUID() }), 404],
        ['{"reportType": "USERNAME", ', 400],
      ];
      for (const [json, status] of refusals) {
        const answer = await send(steve.accessToken, json);
        assert.equal(answer.status, status, json);
        assert.equal(typeof answer.body.errorMessage, 'string');
        if (answer.body.path !== undefined) assert.equal(answer.body.path, '/player/report');
      }
      const self = await send(steve.accessToken, reportJson({ type: 'USERNAME', subject: steve.uuid }));
      assert.match(self.body.errorMessage, /themselves/);
      assert.equal((await service.call('POST', GAME_REPORT, { body: reportJson({ type: 'USERNAME', subject: alex.uuid }) })).status, 401);
      assert.equal(await reportCount(), before);
    });

    it('takes at most 20 reports per reporter in 24 hours', async () => {
      const [steve, alex] = [await player(), await player()];
      for (let sent = 0; sent < 20; sent++)
        assert.equal((await send(steve.accessToken, reportJson({ type: 'USERNAME', subject: alex.uuid }))).status, 204);
      const refused = await send(steve.accessToken, reportJson({ type: 'USERNAME', subject: alex.uuid }));
      assert.equal(refused.status, 429);
      assert.match(refused.body.errorMessage, /20 reports/);
      clock.advance(24 * HOUR + 1000);
      const token = await gameLogin(steve.mail, steve.password);
      assert.equal((await send(token, reportJson({ type: 'USERNAME', subject: alex.uuid }))).status, 204);
    });
  });

  const moderator = async () => {
    const registered = await service.registerPlayer();
    await service.db.updateTable('users').set({ perms: 1 }).where('username', '=', registered.username).execute();
    return registered.token;
  };
  const sessionProfile = async (uuid: string) =>
    (await service.call('GET', `${API}/sessionserver/session/minecraft/profile/${dashless(uuid)}?unsigned=false`)).body;
  const texturesOf = (profile: { properties: { name: string; value: string }[] }) =>
    JSON.parse(Buffer.from(profile.properties.find((property) => property.name === 'textures')!.value, 'base64').toString('utf8')).textures;
  const rawJoin = (accessToken: string, uuid: string) =>
    service.call('POST', `${API}/sessionserver/session/minecraft/join`, {
      body: { accessToken, selectedProfile: dashless(uuid), serverId: `server-${randomUUID().slice(0, 8)}` },
    });
  const uploadSkin = (accessToken: string, name: string) =>
    service.upload(`${API}/minecraftservices/minecraft/profile/skins`, accessToken, { variant: 'classic' }, [
      { field: 'file', filename: 'skin.png', bytes: fixture(`skins/${name}.png`) },
    ]);

  describe('forced actions', () => {
    it('a forced rename shows as an object in profileActions, refuses join, and ends when the player renames', async () => {
      const alex = await player();
      const mod = await moderator();
      const plain = await player();
      const refused = await service.call('POST', `/api/admin/profiles/${alex.uuid}/forced-actions`, {
        token: plain.token,
        body: { action: 'FORCED_NAME_CHANGE' },
      });
      assert.equal(refused.status, 403);
      const forced = await service.call('POST', `/api/admin/profiles/${alex.uuid}/forced-actions`, {
        token: mod,
        body: { action: 'FORCED_NAME_CHANGE' },
      });
      assert.equal(forced.status, 201);
      assert.deepEqual((await sessionProfile(alex.uuid)).profileActions, [
        { action: 'FORCED_NAME_CHANGE', updateType: 'FORCED_NAME_CHANGE' },
      ]);
      const join = await rawJoin(alex.accessToken, alex.uuid);
      assert.equal(join.status, 403);
      assert.equal(join.body.error, 'FORCED_USERNAME_CHANGE');
      assert.equal(join.body.path, '/session/minecraft/join');
      // The yggdrasil client (minecraft-protocol's) gets the game's message.
      const client = yggdrasil.server({ host: `${root}/sessionserver` });
      await assert.rejects(
        client.join(alex.accessToken, dashless(alex.uuid), 'srv', Buffer.alloc(16, 3), Buffer.from('key')),
        /change your name/,
      );
      const listed = (await service.call('GET', `/api/admin/profiles/${alex.uuid}/forced-actions`, { token: mod })).body.data;
      assert.deepEqual(
        listed.map((entry: { action: string; value: string }) => [entry.action, entry.value]),
        [['FORCED_NAME_CHANGE', alex.username.toLowerCase()]],
      );

      // The player renames (as a launcher does, Mojang's way): the action is gone, and online play is back.
      const newName = `r${randomUUID().slice(0, 8)}`;
      const renamed = await service.call('PUT', `${API}/minecraftservices/minecraft/profile/name/${newName}`, { token: alex.accessToken });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      assert.deepEqual((await sessionProfile(alex.uuid)).profileActions, []);
      const token = await gameLogin(alex.mail, alex.password);
      assert.equal((await rawJoin(token, alex.uuid)).status, 204);
      const audit = await service.call('GET', '/api/admin/audit?action=profile.force_rename', { token: owner });
      assert.ok(audit.body.data.some((entry: { details: { profile: string } }) => entry.details.profile === alex.uuid));
    });

    it('a blocked skin is left out of the textures until the player wears another, and can be lifted', async () => {
      const alex = await player();
      const mod = await moderator();
      assert.equal((await uploadSkin(alex.accessToken, 'slim')).status, 200);
      const worn = texturesOf(await sessionProfile(alex.uuid)).SKIN.url;
      const blocked = await service.call('POST', `/api/admin/profiles/${alex.uuid}/forced-actions`, {
        token: mod,
        body: { action: 'USING_BANNED_SKIN' },
      });
      assert.equal(blocked.status, 201);
      let profile = await sessionProfile(alex.uuid);
      assert.deepEqual(profile.profileActions, [{ action: 'USING_BANNED_SKIN', updateType: 'USING_BANNED_SKIN' }]);
      assert.equal(texturesOf(profile).SKIN, undefined);
      // Multiplayer stays allowed.
      assert.equal((await rawJoin(alex.accessToken, alex.uuid)).status, 204);
      assert.equal((await uploadSkin(alex.accessToken, 'classic')).status, 200);
      profile = await sessionProfile(alex.uuid);
      assert.deepEqual(profile.profileActions, []);
      assert.notEqual(texturesOf(profile).SKIN.url, worn);

      // Blocked again and lifted by the moderator.
      await service.call('POST', `/api/admin/profiles/${alex.uuid}/forced-actions`, { token: mod, body: { action: 'USING_BANNED_SKIN' } });
      const lifted = await service.call('DELETE', `/api/admin/profiles/${alex.uuid}/forced-actions/USING_BANNED_SKIN`, { token: mod });
      assert.equal(lifted.status, 200);
      assert.ok(texturesOf(await sessionProfile(alex.uuid)).SKIN);
      const again = await service.call('DELETE', `/api/admin/profiles/${alex.uuid}/forced-actions/USING_BANNED_SKIN`, { token: mod });
      assert.equal(again.status, 404);
      // A player with no skin of their own has none to block; an unknown profile is a 404.
      const bare = await player();
      const none = await service.call('POST', `/api/admin/profiles/${bare.uuid}/forced-actions`, {
        token: mod,
        body: { action: 'USING_BANNED_SKIN' },
      });
      assert.equal(none.status, 400);
      const unknown = await service.call('POST', `/api/admin/profiles/${randomUUID()}/forced-actions`, {
        token: mod,
        body: { action: 'USING_BANNED_SKIN' },
      });
      assert.equal(unknown.status, 404);
    });
    it('a blocked skin is left out of the web images and every drop-in route too, by name and by UUID', async () => {
      const alex = await player();
      const mod = await moderator();
      assert.equal((await uploadSkin(alex.accessToken, 'slim')).status, 200);
      const digest = texturesOf(await sessionProfile(alex.uuid))
        .SKIN.url.split('/')
        .at(-1);
      // What each route answers: the bytes of an image, the documents' JSON.
      const routes = [
        `/api/skin/head/${alex.uuid}`,
        `/api/skin/body/${alex.username}?type=player`,
        `/api/skin/launcher/${alex.uuid}`,
        `/avatars/${alex.uuid}`,
        `/renders/body/${alex.uuid}`,
        `/skins/${alex.uuid}`,
        `/avatar/${alex.username}`,
        `/skin/${alex.username}`,
        `/csl/${alex.username}.json`,
      ];
      const answers = async () => {
        const replies = await Promise.all(routes.map((url) => service.call('GET', url)));
        for (const [i, reply] of replies.entries()) assert.equal(reply.status, 200, routes[i]);
        return replies.map((reply) => reply.raw.toString('base64'));
      };
      const wearing = await answers();
      const documents = () =>
        Promise.all([`/api/skin/launcher/${alex.uuid}`, `/csl/${alex.username}.json`].map((url) => service.call('GET', url)));
      assert.ok(
        (await documents()).every((reply) => reply.raw.toString().includes(digest)),
        'the documents name the skin',
      );

      await service.call('POST', `/api/admin/profiles/${alex.uuid}/forced-actions`, { token: mod, body: { action: 'USING_BANNED_SKIN' } });
      const blocked = await answers();
      for (const [i, url] of routes.entries()) assert.notEqual(blocked[i], wearing[i], `${url} shows the blocked skin`);
      assert.ok(
        (await documents()).every((reply) => !reply.raw.toString().includes(digest)),
        'no document names the skin',
      );
      // The texture file itself stays (a banned player's textures are still served; another profile may wear it).
      assert.equal((await service.call('GET', `/textures/${digest}`)).status, 200);

      await service.call('DELETE', `/api/admin/profiles/${alex.uuid}/forced-actions/USING_BANNED_SKIN`, { token: mod });
      assert.deepEqual(await answers(), wearing, 'lifted: the skin shows again');
    });
  });

  describe('the moderation queue', () => {
    const reportOf = async (reporter: { accessToken: string }, subject: { uuid: string }) => {
      assert.equal((await send(reporter.accessToken, reportJson({ type: 'USERNAME', subject: subject.uuid }))).status, 204);
      return (await queue()).filter((entry: { subject: { uuid: string } }) => entry.subject.uuid === subject.uuid).at(-1);
    };
    const act = (id: number, body: unknown, token = owner) =>
      service.call('POST', `/api/admin/game-reports/${id}/actions`, { token, body });

    it('moderators dismiss, warn (in the player’s language) and force a rename; admins ban; a closed report stays closed', async () => {
      const [steve, alex] = [await player(), await player()];
      const mod = await moderator();
      assert.equal((await service.call('GET', '/api/admin/game-reports', { token: steve.token })).status, 403);

      const dismissed = await reportOf(steve, alex);
      const answer = await act(dismissed.id, { action: 'dismiss' }, mod);
      assert.equal(answer.status, 200);
      assert.equal(answer.body.data.state, 'dismissed');
      assert.equal((await act(dismissed.id, { action: 'warn' }, mod)).status, 409);
      assert.ok((await queue('closed', mod)).some((entry: { id: number }) => entry.id === dismissed.id));
      assert.ok(!(await queue('open', mod)).some((entry: { id: number }) => entry.id === dismissed.id));

      await service.call('PATCH', '/api/home', { token: alex.token, body: { language: 'ru' } });
      const warned = await reportOf(steve, alex);
      assert.equal((await act(warned.id, { action: 'warn', message: 'Смените имя, пожалуйста' }, mod)).body.data.action, 'warn');
      const mail = await service.mailbox.waitFor(
        (m) => m.subject === 'Предупреждение о вашем поведении в игре' && String(m.text).includes(alex.username),
      );
      assert.match(String(mail.text), /Смените имя, пожалуйста/);

      const renamed = await reportOf(steve, alex);
      assert.equal((await act(renamed.id, { action: 'force_rename' }, mod)).status, 200);
      assert.deepEqual((await sessionProfile(alex.uuid)).profileActions, [
        { action: 'FORCED_NAME_CHANGE', updateType: 'FORCED_NAME_CHANGE' },
      ]);

      const banned = await reportOf(steve, alex);
      // A moderator does not ban; a ban from multiplayer needs its end and a reason.
      assert.equal(
        (await act(banned.id, { action: 'ban_multiplayer', reason: 'HATE_SPEECH', expires: Math.floor(clock.now() / 1000) + 3600 }, mod))
          .status,
        403,
      );
      assert.equal((await act(banned.id, { action: 'ban_multiplayer', reason: 'HATE_SPEECH' })).status, 400);
      assert.equal((await act(banned.id, { action: 'ban_multiplayer', expires: Math.floor(clock.now() / 1000) + 3600 })).status, 400);
      const ban = await act(banned.id, {
        action: 'ban_multiplayer',
        reason: 'HATE_SPEECH',
        expires: Math.floor(clock.now() / 1000) + 3600,
      });
      assert.equal(ban.status, 200);
      assert.equal(ban.body.data.state, 'actioned');
      const bans = (await service.call('GET', `/api/admin/user/${alex.username}/bans`, { token: owner })).body.data;
      assert.equal(bans[0].scope, 'multiplayer');
      assert.equal(bans[0].active, true);
      const attributes = await service.call('GET', `${API}/minecraftservices/player/attributes`, {
        headers: gameHeaders(alex.accessToken),
      });
      assert.equal(attributes.body.banStatus.bannedScopes.MULTIPLAYER.reason, '5');
      const audit = await service.call('GET', '/api/admin/audit?action=game_report.close', { token: owner });
      assert.ok(
        audit.body.data.some(
          (entry: { details: { report: number; action: string } }) =>
            entry.details.report === banned.id && entry.details.action === 'ban_multiplayer',
        ),
      );
    });
  });
});
