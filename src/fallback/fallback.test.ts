// Contract section 20, MOJANG_FALLBACK=auth: hasJoined, profile and name look-ups of players unknown here fall
// through to a stand-in speaking Mojang's session and API shapes (with its own signing key) and then to a second
// instance of this service, an authlib-injector server; on SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { createPublicKey, randomUUID, verify, type KeyObject } from 'node:crypto';
import { once } from 'node:events';
import { after, before, it, mock } from 'node:test';
import { createClient, createServer, type ClientOptions, type Server, type ServerClient } from 'minecraft-protocol';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { redirectGameServerSessions } from '../../test/support/game-server.ts';
import { ManualClock } from '../../test/support/clock.ts';
import { startMojangStandIn, type MojangStandIn } from '../../test/support/mojang-session.ts';
import { startService, uniqueName, type TestService } from '../../test/support/service.ts';
import { until } from '../../test/support/wait.ts';
import { ANSWER_DEADLINE_MS, SOURCE_TIMEOUT_MS } from './service.ts';

const API = '/api/yggdrasil';
const SESSION = `${API}/sessionserver/session/minecraft`;
const CACHE_TTL_SECONDS = 600;
const bare = () => randomUUID().replace(/-/g, '');

/** Whether a property's signature verifies with `key` (SHA1withRSA over the exact value, as the game checks it). */
const signedBy = (property: { value: string; signature?: string }, key: KeyObject) =>
  property.signature !== undefined && verify('sha1', Buffer.from(property.value), key, Buffer.from(property.signature, 'base64'));

describeEachDatabase('falling through to Mojang and other authlib-injector servers', (kind) => {
  let mojang: MojangStandIn;
  let other: TestService;
  let otherKey: KeyObject;
  let otherRoot: string;
  let service: TestService;
  let ourKey: KeyObject;
  const clock = new ManualClock();

  /** A player of the second instance, logged in at its authserver, who joins `serverId` there from `ip`. */
  const otherPlayerJoins = async (serverId: string, ip: string) => {
    const { username, password } = await other.registerPlayer();
    const login = await other.call('POST', `${API}/authserver/authenticate`, { body: { username, password } });
    assert.equal(login.status, 200);
    const joined = await other.call('POST', `${SESSION}/join`, {
      body: { accessToken: login.body.accessToken, selectedProfile: login.body.selectedProfile.id, serverId },
      ip,
    });
    assert.equal(joined.status, 204);
    return login.body.selectedProfile as { id: string; name: string };
  };

  before(async () => {
    mojang = await startMojangStandIn();
    other = await startService(kind, { settings: { publicUrl: 'http://other.test', serverName: 'Other skins' } });
    await other.app.listen({ port: 0, host: '127.0.0.1' });
    otherRoot = `http://127.0.0.1:${(other.app.server.address() as { port: number }).port}${API}/`;
    otherKey = createPublicKey((await other.call('GET', `${API}/`)).body.signaturePublickey);
    service = await startService(kind, {
      clock,
      settings: {
        fallback: {
          mode: 'auth',
          cacheTtlSeconds: CACHE_TTL_SECONDS,
          premiumReclaim: false,
          premiumImport: false,
          sources: [
            { kind: 'mojang', name: 'Mojang', sessionUrl: mojang.url, apiUrl: mojang.url, texturesHost: 'textures.minecraft.test' },
            { kind: 'authlib-injector', name: null, root: otherRoot },
          ],
        },
      },
    });
    ourKey = createPublicKey((await service.call('GET', `${API}/`)).body.signaturePublickey);
  });
  after(async () => {
    await service?.close();
    await other?.close();
    await mojang?.close();
  });

  it('lets an official player in: hasJoined asks Mojang with the ip, and answers its profile with its signature', async () => {
    const player = { id: bare(), name: uniqueName('m') };
    mojang.players.push(player);
    mojang.joins.set(`${player.name}\u0000server-1`, '203.0.113.7');
    const joined = await service.call('GET', `${SESSION}/hasJoined?username=${player.name}&serverId=server-1&ip=203.0.113.7`);
    assert.equal(joined.status, 200);
    assert.deepEqual({ id: joined.body.id, name: joined.body.name }, player);
    assert.ok(mojang.requests.includes(`/session/minecraft/hasJoined?username=${player.name}&serverId=server-1&ip=203.0.113.7`));
    const [textures] = joined.body.properties;
    assert.ok(signedBy(textures, mojang.publicKey), "Mojang's signature is kept");
    assert.ok(!signedBy(textures, ourKey));
    // Another address than the join's, or a server id never joined: Mojang says no, and so do we.
    const elsewhere = await service.call('GET', `${SESSION}/hasJoined?username=${player.name}&serverId=server-1&ip=198.51.100.1`);
    assert.equal(elsewhere.status, 204);
    assert.equal((await service.call('GET', `${SESSION}/hasJoined?username=${player.name}&serverId=other`)).status, 204);
  });

  it('lets in a player of the next server in order, whose own server signed the profile', async () => {
    const player = await otherPlayerJoins('server-2', '203.0.113.8');
    const joined = await service.call('GET', `${SESSION}/hasJoined?username=${player.name}&serverId=server-2&ip=203.0.113.8`);
    assert.equal(joined.status, 200);
    assert.equal(joined.body.id, player.id);
    const [textures] = joined.body.properties;
    assert.ok(signedBy(textures, otherKey), "the other server's signature is kept");
    assert.ok(!signedBy(textures, ourKey) && !signedBy(textures, mojang.publicKey));
    // The ip is passed on: the other server refuses a join from another address.
    assert.equal((await service.call('GET', `${SESSION}/hasJoined?username=${player.name}&serverId=server-2&ip=198.51.100.2`)).status, 204);
  });

  it('answers a name that a profile here has from here only, even when a source says it joined', async () => {
    const local = await service.registerPlayer();
    mojang.players.push({ id: bare(), name: local.username });
    mojang.joins.set(`${local.username}\u0000server-3`, '203.0.113.9');
    const before = mojang.requests.length;
    assert.equal(
      (await service.call('GET', `${SESSION}/hasJoined?username=${local.username}&serverId=server-3&ip=203.0.113.9`)).status,
      204,
    );
    assert.equal(mojang.requests.length, before, 'Mojang is not even asked');
    // Nor can a source pass a local player's UUID off under a name of its own.
    const localId = (await service.call('POST', `${API}/api/profiles/minecraft`, { body: [local.username] })).body[0].id as string;
    const impostor = { id: localId, name: uniqueName('i') };
    mojang.players.push(impostor);
    mojang.joins.set(`${impostor.name}\u0000server-3`, '203.0.113.9');
    assert.equal(
      (await service.call('GET', `${SESSION}/hasJoined?username=${impostor.name}&serverId=server-3&ip=203.0.113.9`)).status,
      204,
    );
    const looked = await service.call('POST', `${API}/api/profiles/minecraft`, { body: [local.username, impostor.name] });
    assert.deepEqual(looked.body, [{ id: localId, name: local.username }]);
  });

  it('looks up profiles and names in order, the first source that knows them winning, and caches the answers', async () => {
    const otherPlayer = await otherPlayerJoins('server-4', '203.0.113.10');
    const both = { id: bare(), name: otherPlayer.name.toUpperCase() };
    const official = { id: bare(), name: uniqueName('m') };
    mojang.players.push(official);
    const nobody = uniqueName('n');
    const asked = await service.call('POST', `${API}/api/profiles/minecraft`, { body: [official.name, otherPlayer.name, nobody] });
    assert.equal(asked.status, 200);
    assert.deepEqual(new Set(asked.body.map((ref: { id: string }) => ref.id)), new Set([official.id, otherPlayer.id]));
    // The same name at Mojang, added later: the cached answers stand until MOJANG_CACHE_TTL has passed, then Mojang,
    // first in order, wins.
    mojang.players.push(both);
    const lookups = () => mojang.requests.filter((request) => request === '/profiles/minecraft').length;
    const lookupsBefore = lookups();
    const again = await service.call('GET', `${API}/api/minecraft/profile/lookup/name/${otherPlayer.name}`);
    assert.deepEqual(again.body, { id: otherPlayer.id, name: otherPlayer.name });
    assert.equal((await service.call('GET', `${API}/api/minecraft/profile/lookup/name/${nobody}`)).status, 404);
    assert.equal(lookups(), lookupsBefore, 'found and unknown names both come from the cache');
    clock.advance(CACHE_TTL_SECONDS * 1000 + 1);
    assert.deepEqual((await service.call('GET', `${API}/api/minecraft/profile/lookup/name/${otherPlayer.name}`)).body, both);

    // Profiles by UUID: Mojang's (signed with its key when asked), the other server's (with its key), cached.
    const profile = await service.call('GET', `${SESSION}/profile/${official.id}?unsigned=false`);
    assert.equal(profile.body.name, official.name);
    assert.ok(signedBy(profile.body.properties[0], mojang.publicKey));
    const unsigned = await service.call('GET', `${SESSION}/profile/${official.id}`);
    assert.equal(unsigned.body.properties[0].signature, undefined);
    const fromOther = await service.call('GET', `${SESSION}/profile/${otherPlayer.id}?unsigned=false`);
    assert.equal(fromOther.body.name, otherPlayer.name);
    assert.ok(signedBy(fromOther.body.properties[0], otherKey));
    const unknown = bare();
    assert.equal((await service.call('GET', `${SESSION}/profile/${unknown}`)).status, 204);
    const profileRequests = () => mojang.requests.filter((request) => request.startsWith('/session/minecraft/profile/')).length;
    const profilesBefore = profileRequests();
    await service.call('GET', `${SESSION}/profile/${official.id}?unsigned=false`);
    assert.equal((await service.call('GET', `${SESSION}/profile/${unknown}`)).status, 204);
    assert.equal(profileRequests(), profilesBefore, 'found and unknown profiles both come from the cache');
  });

  it('counts a source that never answers as unknown within 2 s, and never waits past 3 s in all', async () => {
    const player = await otherPlayerJoins('server-5', '203.0.113.11');
    mojang.hang = true;
    try {
      let started = performance.now();
      const joined = await service.call('GET', `${SESSION}/hasJoined?username=${player.name}&serverId=server-5&ip=203.0.113.11`);
      let took = performance.now() - started;
      assert.equal(joined.status, 200, 'the next source answers');
      assert.ok(took >= SOURCE_TIMEOUT_MS - 50 && took < ANSWER_DEADLINE_MS, `took ${took} ms`);
      started = performance.now();
      assert.equal((await service.call('GET', `${SESSION}/profile/${bare()}`)).status, 204);
      took = performance.now() - started;
      assert.ok(took < ANSWER_DEADLINE_MS, `took ${took} ms`);
    } finally {
      mojang.hang = false;
    }
    // Not knowing is not remembered: once Mojang answers again, it is asked again.
    const late = { id: bare(), name: uniqueName('m') };
    mojang.players.push(late);
    assert.equal((await service.call('GET', `${SESSION}/profile/${late.id}`)).body.name, late.name);
  });

  it("lists the other server's texture hosts in the metadata, so the game accepts their skins", async () => {
    await until(async () => (await service.call('GET', `${API}/`)).body.skinDomains.includes('other.test'), 'the metadata read');
    const { skinDomains } = (await service.call('GET', `${API}/`)).body;
    assert.deepEqual(skinDomains, ['skins.test', 'textures.minecraft.test', 'other.test']);
  });

  /**
   * An online-mode game server (minecraft-protocol) whose session server is ours, and a client that logs in with
   * `client` options (how it authenticates and where it joins): answers the player as the game server let them in.
   */
  const loginToGameServer = async (client: Partial<ClientOptions>): Promise<ServerClient> => {
    if (!service.app.server.listening) await service.app.listen({ port: 0, host: '127.0.0.1' });
    const ourRoot = `http://127.0.0.1:${(service.app.server.address() as { port: number }).port}${API}`;
    const restore = redirectGameServerSessions(`${ourRoot}/sessionserver`);
    const gameServer: Server = createServer({ 'online-mode': true, host: '127.0.0.1', port: 0, version: '1.21.1' });
    try {
      await once(gameServer, 'listening');
      const port = (gameServer as Server & { socketServer: { address(): { port: number } } }).socketServer.address().port;
      const inGame = new Promise<ServerClient>((resolve) => gameServer.on('playerJoin', resolve));
      // minecraft-protocol warns about `auth: 'mojang'` (Mojang's own accounts are gone; this login server is ours).
      const warn = mock.method(console, 'warn', () => {});
      const player = createClient({ host: '127.0.0.1', port, version: '1.21.1', profilesFolder: false, username: '', ...client });
      warn.mock.restore();
      // Refused: the game server kicks the client (its 'end'), or the client fails on its side (its 'error').
      const ended = once(player, 'end');
      const failed = new Promise<never>((_, reject) => {
        player.on('error', reject);
        void ended.then(([reason]) => reject(new Error(`the game server ended the login: ${String(reason)}`)));
      });
      try {
        return await Promise.race([inGame, failed]);
      } finally {
        player.end();
        await ended;
      }
    } finally {
      restore();
      const closed = once(gameServer, 'close');
      gameServer.close();
      await closed;
    }
  };
  const texturesOf = (joined: ServerClient) =>
    (joined.profile as { properties: { name: string; value: string; signature?: string }[] }).properties[0]!;

  it('lets a player of the other server into an online-mode game server that uses this service (minecraft-protocol)', async () => {
    const { username, password } = await other.registerPlayer();
    const otherId = (await other.call('POST', `${API}/api/profiles/minecraft`, { body: [username] })).body[0].id as string;
    // The player's launcher logs in and joins at their own server.
    const joined = await loginToGameServer({
      auth: 'mojang',
      authServer: `${otherRoot}authserver`,
      sessionServer: `${otherRoot}sessionserver`,
      username,
      password,
    });
    assert.equal(joined.username, username);
    assert.equal(joined.uuid.replace(/-/g, ''), otherId, "the game server knows them by their own server's UUID");
    assert.ok(signedBy(texturesOf(joined), otherKey));
  });

  it('lets an official player into an online-mode game server that uses this service (minecraft-protocol)', async () => {
    const player = { id: bare(), name: uniqueName('m').slice(0, 16), accessToken: bare() };
    mojang.players.push(player);
    const requestsBefore = mojang.requests.length;
    // The official launcher's session (as a Microsoft login leaves it): the client joins at Mojang's session server.
    const joined = await loginToGameServer({
      username: player.name,
      sessionServer: mojang.url,
      auth: (client, options) => {
        client.username = player.name;
        client.session = { accessToken: player.accessToken, selectedProfile: { id: player.id, name: player.name } };
        Object.assign(options, { haveCredentials: true, accessToken: player.accessToken });
        options.connect!(client);
      },
    });
    assert.equal(joined.username, player.name);
    assert.equal(joined.uuid.replace(/-/g, ''), player.id, 'the game server knows them by their official UUID');
    assert.ok(signedBy(texturesOf(joined), mojang.publicKey), "Mojang's signature is kept");
    const asked = mojang.requests.slice(requestsBefore);
    assert.ok(asked.includes('/session/minecraft/join'), 'the client joined at the stand-in');
    assert.ok(
      asked.some((path) => path.startsWith(`/session/minecraft/hasJoined?username=${player.name}&`)),
      'we asked the stand-in',
    );
  });
});
