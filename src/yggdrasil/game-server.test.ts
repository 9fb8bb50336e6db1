// A real online-mode login: minecraft-protocol's client logs in at our authserver and joins through our
// sessionserver; minecraft-protocol's game server, in this process, checks the player with hasJoined at ours. On
// SQLite and PostgreSQL. minecraft-protocol checks no texture signature itself, so the test verifies the one the game
// server received with the key the service publishes.
import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { once } from 'node:events';
import { after, before, it, mock } from 'node:test';
import { createClient, createServer, type Client, type ClientOptions, type Server, type ServerClient } from 'minecraft-protocol';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { redirectGameServerSessions } from '../../test/support/game-server.ts';
import { skinFile } from '../../test/support/fixtures.ts';
import { OWNER, PUBLIC_URL, startService, uniqueName, type TestService } from '../../test/support/service.ts';
import { DEFAULT_PROFILE_SETTINGS } from '../settings.ts';

const API = '/api/yggdrasil';
const GAME_VERSION = '1.21.1';
/** A login on this machine takes well under a second; a loaded machine gets far more, but never forever. */
const LOGIN_TIMEOUT_MS = 20_000;

describeEachDatabase('online-mode login with minecraft-protocol', (kind) => {
  let service: TestService;
  let root: string;
  let gameServer: Server;
  let gamePort: number;
  let restoreSessions: () => void;
  /** Everyone the game server let in, in order. */
  const joined: ServerClient[] = [];

  before(async () => {
    // Two profiles per account: an account's second profile plays on its own (contract section 16).
    service = await startService(kind, { settings: { owner: OWNER, profiles: { ...DEFAULT_PROFILE_SETTINGS, maxProfiles: 2 } } });
    await service.app.listen({ port: 0, host: '127.0.0.1' });
    root = `http://127.0.0.1:${(service.app.server.address() as { port: number }).port}${API}`;
    restoreSessions = redirectGameServerSessions(`${root}/sessionserver`);
    gameServer = createServer({ 'online-mode': true, host: '127.0.0.1', port: 0, version: GAME_VERSION });
    gameServer.on('playerJoin', (client) => joined.push(client));
    await once(gameServer, 'listening');
    gamePort = (gameServer as Server & { socketServer: { address(): { port: number } } }).socketServer.address().port;
  });
  after(async () => {
    restoreSessions?.();
    if (gameServer) {
      const closed = once(gameServer, 'close');
      gameServer.close();
      await closed;
    }
    await service?.close();
  });

  /**
   * A game client with a launcher's credentials (or a session it already has). minecraft-protocol prints a
   * deprecation warning for `auth: 'mojang'` (meant for Mojang's retired accounts, not for an authserver of one's
   * own) and offers no option against it: that one warning is kept out of the output, any other still shows.
   */
  const gameClient = (credentials: Pick<ClientOptions, 'username' | 'password' | 'session' | 'skipValidation'>): Client => {
    const warn = mock.method(console, 'warn', () => {});
    let client: Client;
    try {
      client = createClient({
        host: '127.0.0.1',
        port: gamePort,
        version: GAME_VERSION,
        auth: 'mojang',
        authServer: `${root}/authserver`,
        sessionServer: `${root}/sessionserver`,
        profilesFolder: false,
        ...credentials,
      });
    } finally {
      warn.mock.restore();
    }
    for (const call of warn.mock.calls) {
      if (!String(call.arguments[0]).startsWith('[deprecated] mojang auth servers')) console.warn(...call.arguments);
    }
    return client;
  };

  /** Settles with the game server's side of the player once in the game, or with the error the client got. */
  const outcome = (client: Client): Promise<{ joined: ServerClient } | { error: Error }> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(() => reject(new Error('no login outcome in time'))), LOGIN_TIMEOUT_MS);
      const onJoin = (serverSide: ServerClient) => {
        if (serverSide.username === client.username) finish(() => resolve({ joined: serverSide }));
      };
      const onError = (error: Error) => finish(() => resolve({ error }));
      const onEnd = (reason: string) => finish(() => resolve({ error: new Error(`the connection ended: ${reason}`) }));
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        gameServer.off('playerJoin', onJoin);
        client.off('error', onError);
        client.off('end', onEnd);
        settle();
      };
      gameServer.on('playerJoin', onJoin);
      client.on('error', onError);
      client.on('end', onEnd);
    });

  /** Ends the client's connection, if it has one, and waits until it is closed. */
  const disconnect = async (client: Client) => {
    if (client.ended) return;
    const ended = once(client, 'end');
    // The client ends the connection itself after a refused join. Each Client.end arms a 30-second timer against a
    // stuck socket and the close clears only the last one: a second end would leave the first running.
    if (!client.serializer.writableEnded) client.end();
    await ended;
  };

  const player = async () => {
    const registered = await service.registerPlayer();
    const home = (await service.call('GET', '/api/home', { token: registered.token })).body.data;
    return { ...registered, uuid: home.Uuid as string };
  };

  it('lets a player in with a mail address and password, and hands the game server the signed profile', async () => {
    const steve = await player();
    const uploaded = await service.upload('/api/home/skins', steve.token, { slim: 'true' }, skinFile('slim'));
    assert.equal(uploaded.status, 200, uploaded.body?.msg);
    const skinDigest = (await service.call('GET', `/api/skin/launcher/${steve.uuid}`)).body.SKIN.digest;

    const client = gameClient({ username: steve.mail, password: steve.password });
    try {
      const result = await outcome(client);
      assert.ok('joined' in result, `the player got in (${'error' in result ? result.error.message : ''})`);
      const inGame = result.joined;
      assert.equal(inGame.uuid, steve.uuid, 'the game server knows the player by the account’s UUID, hyphenated');
      assert.equal(inGame.username, steve.username, 'and by the player name, not the mail address');

      const profile = inGame.profile as { id: string; name: string; properties: { name: string; value: string; signature?: string }[] };
      assert.equal(profile.id, steve.uuid.replace(/-/g, ''));
      const textures = profile.properties.find((property) => property.name === 'textures');
      assert.ok(textures?.signature, 'hasJoined answers with a signed textures property');
      const meta = (await service.call('GET', `${API}/`)).body;
      const serviceKey = createPublicKey(meta.signaturePublickey);
      assert.ok(
        verify('sha1', Buffer.from(textures.value, 'utf8'), serviceKey, Buffer.from(textures.signature, 'base64')),
        'the signature verifies with the published key',
      );
      const payload = JSON.parse(Buffer.from(textures.value, 'base64').toString('utf8'));
      assert.equal(payload.profileName, steve.username);
      assert.deepEqual(payload.textures.SKIN, { url: `${PUBLIC_URL}/textures/${skinDigest}`, metadata: { model: 'slim' } });
    } finally {
      await disconnect(client);
    }
  });

  it("lets an account's second profile in by its name, as that profile with its own skin", async () => {
    const steve = await player();
    const second = await service.call('POST', '/api/home/profiles', { token: steve.token, body: { name: uniqueName('Alt') } });
    assert.equal(second.status, 201);
    const { uuid, name } = second.body.data as { uuid: string; name: string };
    const uploaded = await service.upload('/api/home/skins', steve.token, {}, skinFile('classic'));
    const worn = await service.call('PATCH', `/api/home/profiles/${uuid}`, {
      token: steve.token,
      body: { selected_skin: uploaded.body.data.uuid },
    });
    assert.equal(worn.status, 200);
    // The account's first skin went to the primary profile too; this one takes it off, so only the second wears one.
    await service.call('PATCH', `/api/home/profiles/${steve.uuid}`, { token: steve.token, body: { selected_skin: null } });

    const client = gameClient({ username: name, password: steve.password });
    try {
      const result = await outcome(client);
      assert.ok('joined' in result, `the second profile got in (${'error' in result ? result.error.message : ''})`);
      assert.equal(result.joined.uuid, uuid);
      assert.equal(result.joined.username, name);
      const profile = result.joined.profile as { properties: { name: string; value: string }[] };
      const textures = JSON.parse(
        Buffer.from(profile.properties.find((property) => property.name === 'textures')!.value, 'base64').toString(),
      );
      assert.equal(textures.profileName, name);
      assert.equal(textures.textures.SKIN.url, `${PUBLIC_URL}/textures/${uploaded.body.data.digest}`);
    } finally {
      await disconnect(client);
    }
  });

  it('never lets in a client whose password is wrong', async () => {
    const alex = await player();
    const joinedBefore = joined.length;
    const client = gameClient({ username: alex.mail, password: 'not the password' });
    try {
      const result = await outcome(client);
      assert.ok('error' in result, 'refused');
      assert.match(result.error.message, /Invalid credentials\. Invalid username or password\./);
      assert.equal(joined.length, joinedBefore, 'nobody got in');
    } finally {
      await disconnect(client);
    }
  });

  it('refuses a player whose token was revoked, at the join', async () => {
    const alex = await player();
    const login = await service.call('POST', `${API}/authserver/authenticate`, { body: { username: alex.mail, password: alex.password } });
    assert.equal(login.status, 200);
    const invalidated = await service.call('POST', `${API}/authserver/invalidate`, { body: { accessToken: login.body.accessToken } });
    assert.equal(invalidated.status, 204);

    const joinedBefore = joined.length;
    // A launcher that still holds the revoked token and starts the game with it (no check beforehand).
    const client = gameClient({
      username: alex.mail,
      session: {
        accessToken: login.body.accessToken,
        clientToken: login.body.clientToken,
        selectedProfile: login.body.selectedProfile,
      },
      skipValidation: true,
    });
    try {
      const result = await outcome(client);
      assert.ok('error' in result, 'refused');
      assert.match(result.error.message, /Invalid token\./);
      assert.equal(joined.length, joinedBefore, 'nobody got in');
    } finally {
      await disconnect(client);
    }
  });

  it('refuses a player banned from multiplayer at the join, with the game’s own words, and lets them in once lifted', async () => {
    const griefer = await player();
    const owner = await service.ownerToken();
    const banned = await service.call('POST', `/api/admin/user/${griefer.username}/bans`, {
      token: owner,
      body: { scope: 'multiplayer', reason: 'HARASSMENT_OR_BULLYING' },
    });
    assert.equal(banned.status, 201);
    const joinedBefore = joined.length;
    // The launcher still logs in (a multiplayer ban leaves single player); the join is what refuses.
    const client = gameClient({ username: griefer.mail, password: griefer.password });
    try {
      const result = await outcome(client);
      assert.ok('error' in result, 'refused');
      assert.match(result.error.message, /You are banned from playing online/);
      assert.equal(joined.length, joinedBefore, 'nobody got in');
    } finally {
      await disconnect(client);
    }
    await service.call('DELETE', `/api/admin/user/${griefer.username}/bans/${banned.body.data.id}`, { token: owner });
    const again = gameClient({ username: griefer.mail, password: griefer.password });
    try {
      const result = await outcome(again);
      assert.ok('joined' in result, `the player got in once lifted (${'error' in result ? result.error.message : ''})`);
    } finally {
      await disconnect(again);
    }
  });

  it('refuses a player forced to rename at the join until they rename, then lets them in by the new name', async () => {
    const steve = await player();
    const owner = await service.ownerToken();
    const forced = await service.call('POST', `/api/admin/profiles/${steve.uuid}/forced-actions`, {
      token: owner,
      body: { action: 'FORCED_NAME_CHANGE' },
    });
    assert.equal(forced.status, 201, JSON.stringify(forced.body));
    const joinedBefore = joined.length;
    const client = gameClient({ username: steve.mail, password: steve.password });
    try {
      const result = await outcome(client);
      assert.ok('error' in result, 'refused');
      assert.match(result.error.message, /You must change your name before you can play online/);
      assert.equal(joined.length, joinedBefore, 'nobody got in');
    } finally {
      await disconnect(client);
    }

    // The player renames on the profile page; the launcher logs in again and the game server lets them in.
    const newName = uniqueName();
    const renamed = await service.call('PATCH', `/api/home/profiles/${steve.uuid}`, { token: steve.token, body: { name: newName } });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    const again = gameClient({ username: steve.mail, password: steve.password });
    try {
      const result = await outcome(again);
      assert.ok('joined' in result, `the player got in once renamed (${'error' in result ? result.error.message : ''})`);
      assert.equal(result.joined.username, newName);
      assert.equal(result.joined.uuid, steve.uuid);
    } finally {
      await disconnect(again);
    }
  });
});
