// Several instances on one PostgreSQL and one Redis behave as one service (issue 6, item 1).
// Every check runs twice: with two apps built in this process (fast; the mail workers poll every 50 ms, so they
// compete hard for every row) and with two processes started as `npm start` starts them (nothing shared but the
// database and Redis).
import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { queueMail } from '../src/mail/outbox.ts';
import { DEFAULT_PROFILE_SETTINGS } from '../src/settings.ts';
import { createTestDatabase } from './support/databases.ts';
import { skinFile } from './support/fixtures.ts';
import { INSTANCE_WAYS, redisUrl, skipWithoutInstances, startTwoInstances } from './support/instances.ts';
import { OWNER, randomAddress, startService, uniqueName, type ServiceClient, type TestService } from './support/service.ts';
import { startSmtpServer, type Mailbox } from './support/smtp.ts';
import { until } from './support/wait.ts';

const MIGRATIONS = readdirSync(new URL('../src/database/migrations/', import.meta.url)).map((file) => file.replace(/\.ts$/, ''));
const API = '/api/yggdrasil';

/** Whether a profile property carries a SHA1withRSA signature of its value by the key of this PEM. */
const signedWith = (publicKeyPem: string, property: { value: string; signature: string }) =>
  verify('sha1', Buffer.from(property.value, 'utf8'), createPublicKey(publicKeyPem), Buffer.from(property.signature, 'base64'));

for (const [way, startInstance] of INSTANCE_WAYS) {
  describe(`several instances on one PostgreSQL and Redis: ${way}`, { skip: skipWithoutInstances }, () => {
    it('start together on a fresh database: migrations run once, the owner is created once, one signing key for all', async () => {
      const database = await createTestDatabase('postgres');
      const mailbox = await startSmtpServer();
      const settings = { redisUrl: redisUrl!, owner: OWNER };
      try {
        const starts = await Promise.allSettled(Array.from({ length: 4 }, () => startInstance({ database, mailbox, settings })));
        const instances = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
        try {
          assert.deepEqual(
            starts.filter((start) => start.status === 'rejected'),
            [],
            'every instance starts',
          );
          const [first] = instances;
          await first!.ownerToken();
          const migrations = await first!.db
            .selectFrom('kysely_migration' as never)
            .select('name' as never)
            .execute();
          assert.deepEqual(migrations.map((row) => (row as { name: string }).name).sort(), MIGRATIONS.sort());
          const owners = await first!.db.selectFrom('users').select('id').where('perms', '=', 3).execute();
          assert.equal(owners.length, 1);

          // Yggdrasil Connect's ID-token key is made at start, the game login's signing key on first use: made by
          // instances at the same moment, each may make one, and one of each is kept.
          const keyNames = async () => (await first!.db.selectFrom('signing_keys').select('name').execute()).map((key) => key.name).sort();
          assert.deepEqual(await keyNames(), ['oauth-id-token'], 'no game login key before a game login needs one');
          const metas = await Promise.all(instances.map((instance) => instance.call('GET', `${API}/`)));
          const published = new Set(metas.map((meta) => meta.body.signaturePublickey));
          assert.equal(published.size, 1, 'every instance publishes the same key');
          assert.deepEqual(await keyNames(), ['oauth-id-token', 'yggdrasil']);
        } finally {
          await Promise.all(instances.map((instance) => instance.close()));
        }
      } finally {
        await mailbox.close();
        await database.drop();
      }
    });

    describe('two instances', () => {
      let a: ServiceClient;
      let b: ServiceClient;
      let mailbox: Mailbox;
      let close: (() => Promise<void>) | undefined;
      before(async () => {
        ({ a, b, mailbox, close } = await startTwoInstances(startInstance, {
          textureStore: 'database',
          owner: OWNER,
          profiles: { ...DEFAULT_PROFILE_SETTINGS, maxProfiles: 2 },
        }));
      });
      after(() => close?.());

      it('refuses a token on one instance as soon as it is logged out on the other', async () => {
        const player = await a.registerPlayer();
        assert.equal((await b.call('GET', '/api/home', { token: player.token })).status, 200);
        assert.equal((await a.call('POST', '/api/auth/logout', { token: player.token })).status, 200);
        assert.equal((await b.call('GET', '/api/home', { token: player.token })).status, 401);
      });

      it('refuses a banned player on one instance as soon as the ban is made on the other', async () => {
        const player = await b.registerPlayer();
        assert.equal((await a.call('GET', '/api/home', { token: player.token })).status, 200);
        const banned = await b.call('PATCH', `/api/admin/user/${player.username}`, { token: await b.ownerToken(), body: { perms: -1 } });
        assert.equal(banned.status, 200, banned.body?.msg);
        assert.ok([401, 403].includes((await a.call('GET', '/api/home', { token: player.token })).status));
      });

      it('shares the rate limits', async () => {
        const ip = randomAddress();
        // Ten wrong codes from one address are allowed, spread over both instances; the eleventh is refused by both.
        for (let attempt = 0; attempt < 10; attempt += 1) {
          const reply = await (attempt % 2 === 0 ? a : b).call('POST', '/api/auth/confirm', { body: { code: 'WRONGCOD' }, ip });
          assert.notEqual(reply.status, 429, `attempt ${attempt + 1}`);
        }
        assert.equal((await a.call('POST', '/api/auth/confirm', { body: { code: 'WRONGCOD' }, ip })).status, 429);
        assert.equal((await b.call('POST', '/api/auth/confirm', { body: { code: 'WRONGCOD' }, ip })).status, 429);
      });

      it('serves a texture stored in the database from either instance', async () => {
        const player = await a.registerPlayer();
        const uploaded = await a.upload('/api/home/skins', player.token, { name: 'Shared' }, skinFile('classic'));
        assert.equal(uploaded.status, 200, uploaded.body?.msg);
        const fromA = await a.call('GET', `/api/skin/cloak/${player.username}`);
        const fromB = await b.call('GET', `/api/skin/cloak/${player.username}`);
        assert.equal(fromB.status, 200);
        assert.deepEqual(fromB.raw, fromA.raw);
        assert.equal((await b.call('GET', `/api/skin/head/${player.username}?type=player`)).status, 200);
        const launcher = await b.call('GET', `/api/skin/launcher/${player.username}`);
        assert.equal(launcher.status, 200);
        assert.match(launcher.body.SKIN.digest, /^[0-9a-f]{64}$/);
      });

      it('act as one game login: a join on one is answered on the other, signed with the key both publish', async () => {
        const player = await a.registerPlayer();
        const uploaded = await a.upload('/api/home/skins', player.token, {}, skinFile('classic'));
        assert.equal(uploaded.status, 200, uploaded.body?.msg);
        const login = await a.call('POST', `${API}/authserver/authenticate`, {
          body: { username: player.mail, password: player.password },
          ip: randomAddress(),
        });
        assert.equal(login.status, 200);
        const { accessToken, selectedProfile } = login.body;
        const joined = await a.call('POST', `${API}/sessionserver/session/minecraft/join`, {
          body: { accessToken, selectedProfile: selectedProfile.id, serverId: 'one-server' },
          ip: randomAddress(),
        });
        assert.equal(joined.status, 204);
        const hasJoined = (serverId: string) =>
          b.call('GET', `${API}/sessionserver/session/minecraft/hasJoined?username=${player.username}&serverId=${serverId}`);
        const profile = await hasJoined('one-server');
        assert.equal(profile.status, 200, 'the other instance knows of the join');
        assert.deepEqual([profile.body.id, profile.body.name], [selectedProfile.id, player.username]);
        assert.equal((await hasJoined('another-server')).status, 204);

        const keyOfA = (await a.call('GET', `${API}/`)).body.signaturePublickey;
        const keyOfB = (await b.call('GET', `${API}/`)).body.signaturePublickey;
        assert.equal(keyOfA, keyOfB, 'both publish one key');
        const textures = profile.body.properties.find((property: { name: string }) => property.name === 'textures');
        assert.ok(signedWith(keyOfA, textures), 'signed by B, verified with the key A publishes');
        const lookup = await a.call('GET', `${API}/sessionserver/session/minecraft/profile/${selectedProfile.id}?unsigned=false`);
        assert.ok(signedWith(keyOfB, lookup.body.properties[0]), 'signed by A, verified with the key B publishes');
      });

      it('refuse a game token on one instance as soon as it is revoked on the other: by signout, by a ban', async () => {
        const player = await a.registerPlayer();
        const authenticate = async (instance: ServiceClient) => {
          const login = await instance.call('POST', `${API}/authserver/authenticate`, {
            body: { username: player.mail, password: player.password },
            ip: randomAddress(),
          });
          assert.equal(login.status, 200);
          return login.body.accessToken as string;
        };
        const validate = async (instance: ServiceClient, accessToken: string) =>
          (await instance.call('POST', `${API}/authserver/validate`, { body: { accessToken }, ip: randomAddress() })).status;

        const first = await authenticate(a);
        assert.equal(await validate(b, first), 204);
        const signedOut = await b.call('POST', `${API}/authserver/signout`, {
          body: { username: player.username, password: player.password },
          ip: randomAddress(),
        });
        assert.equal(signedOut.status, 204);
        assert.equal(await validate(a, first), 403, 'signed out on B, refused on A');

        const second = await authenticate(b);
        assert.equal(await validate(a, second), 204);
        const banned = await a.call('PATCH', `/api/admin/user/${player.username}`, { token: await a.ownerToken(), body: { perms: -1 } });
        assert.equal(banned.status, 200, banned.body?.msg);
        assert.equal(await validate(b, second), 403, 'banned on A, refused on B');
      });

      it('act as one on profiles: a profile added on one plays on the other, and deleting it ends its tokens on both', async () => {
        const player = await a.registerPlayer();
        const added = await a.call('POST', '/api/home/profiles', { token: player.token, body: { name: uniqueName('Alt') } });
        assert.equal(added.status, 201);
        const { uuid, name } = added.body.data as { uuid: string; name: string };
        const login = await b.call('POST', `${API}/authserver/authenticate`, {
          body: { username: name, password: player.password },
          ip: randomAddress(),
        });
        assert.equal(login.body.selectedProfile.id, uuid.replace(/-/g, ''), 'the other instance binds the new profile');
        const validate = async (instance: ServiceClient) =>
          (
            await instance.call('POST', `${API}/authserver/validate`, {
              body: { accessToken: login.body.accessToken },
              ip: randomAddress(),
            })
          ).status;
        assert.equal(await validate(a), 204);
        const removed = await a.call('DELETE', `/api/home/profiles/${uuid}`, { token: player.token, body: { password: player.password } });
        assert.equal(removed.status, 200);
        assert.equal(await validate(b), 403, 'deleted on A, its token refused on B');
        assert.equal((await b.call('GET', `${API}/sessionserver/session/minecraft/profile/${uuid.replace(/-/g, '')}`)).status, 204);
      });

      it('sends each queued mail exactly once', async () => {
        const recipients = Array.from({ length: 60 }, (_, index) => `once-${index}@example.org`);
        const content = { subject: 'Exactly once', text: 'text', html: '<p>html</p>' };
        // Inserted behind the instances' backs: both mail workers find the rows by polling and compete for each.
        await queueMail(a.db, Date.now(), recipients, content);
        // Separate processes poll the outbox every 5 s (nothing wakes them for rows this test inserts).
        await until(
          async () => mailbox.messages.filter((mail) => mail.subject === 'Exactly once').length >= recipients.length,
          'every mail to arrive',
          30_000,
        );
        await sleep(500); // a second worker sending the same row would be sending at the same time: it would have arrived
        const arrived = mailbox.messages
          .filter((mail) => mail.subject === 'Exactly once')
          .map((mail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)!.text);
        assert.equal(arrived.length, recipients.length);
        assert.deepEqual(new Set(arrived), new Set(recipients));
        const unsent = await a.db
          .selectFrom('mail_outbox')
          .select('id')
          .where('subject', '=', 'Exactly once')
          .where('sent_at', 'is', null)
          .execute();
        assert.equal(unsent.length, 0);
      });
    });
  });
}

describe('two services on one Redis', { skip: skipWithoutInstances }, () => {
  it("count their login failures apart: account ids repeat from one database to the next, the counters don't", async () => {
    // Each service has a database of its own, so each registers its first player with the same id.
    const [first, second] = [
      await startService('postgres', { settings: { redisUrl } }),
      await startService('postgres', { settings: { redisUrl } }),
    ];
    try {
      const [own, other] = [await first.registerPlayer(), await second.registerPlayer()];
      const idOf = async (service: TestService, username: string) =>
        (await service.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
      assert.equal(await idOf(first, own.username), await idOf(second, other.username), 'the same id in both databases');
      const login = (service: TestService, username: string, password: string) =>
        service.call('POST', '/api/auth/login', { body: { username, password }, ip: randomAddress() });
      for (let attempt = 0; attempt < 100; attempt++) assert.equal((await login(first, own.username, 'wrong password')).status, 401);
      assert.equal((await login(first, own.username, own.password)).status, 429, 'the first service locked its account');
      assert.equal((await login(second, other.username, other.password)).status, 200, 'the other service did not');
    } finally {
      await first.close();
      await second.close();
    }
  });
});
