// The game login through the clients people use: the `yggdrasil` package (minecraft-protocol's own client) and
// @xmcl/user's YggdrasilThirdPartyClient (a launcher library), against a running service on SQLite and PostgreSQL.
// Signatures are checked with node:crypto against the key the service publishes.
import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { after, before, it } from 'node:test';
import { YggdrasilThirdPartyClient } from '@xmcl/user';
import yggdrasil from 'yggdrasil';
import { offlinePlayerUuid } from '../minecraft/offline-uuid.ts';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { fixture, skinFile } from '../../test/support/fixtures.ts';
import { codeIn, mailTo } from '../../test/support/smtp.ts';
import { OWNER, PUBLIC_URL, randomAddress, startService, uniqueName, type TestService } from '../../test/support/service.ts';
import { digestOf } from '../textures/canonical.ts';
import { GAME_TOKEN_LIFETIME_MS, MAX_LIVE_GAME_TOKENS } from './tokens.ts';

const API = '/api/yggdrasil';
const dashless = (uuid: string) => uuid.replace(/-/g, '');

describeEachDatabase('game login (Yggdrasil API)', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  /** The API root as the Node clients take it: without the trailing slash (they append "/authserver"). */
  let root: string;
  let publicKey: ReturnType<typeof createPublicKey>;

  before(async () => {
    service = await startService(kind, { clock, settings: { owner: OWNER } });
    await service.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = service.app.server.address() as { port: number };
    root = `http://127.0.0.1:${port}${API}`;
    publicKey = createPublicKey((await service.call('GET', `${API}/`)).body.signaturePublickey);
  });
  after(async () => service?.close());

  const player = async () => {
    const registered = await service.registerPlayer();
    const home = (await service.call('GET', '/api/home', { token: registered.token })).body.data;
    return { ...registered, uuid: home.Uuid as string };
  };
  const yggPost = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    service.call('POST', `${API}/${path}`, { body, headers, ip: randomAddress() });
  const gameLogin = async (account: { mail: string; password: string }) =>
    (await yggPost('authserver/authenticate', { username: account.mail, password: account.password })).body;
  const validates = async (accessToken: string) => (await yggPost('authserver/validate', { accessToken })).status === 204;
  const decodeTextures = (value: string) => JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
  const verifies = (value: string, signature: string) =>
    verify('sha1', Buffer.from(value, 'utf8'), publicKey, Buffer.from(signature, 'base64'));

  it('publishes its metadata and key, and names the API root on every response', async () => {
    const meta = await service.call('GET', `${API}/`);
    assert.equal(meta.status, 200);
    assert.equal(meta.body.meta.serverName, 'Test skins');
    for (const flag of ['non_email_login', 'enable_profile_key', 'legacy_skin_api', 'no_mojang_namespace']) {
      assert.equal(meta.body.meta[`feature.${flag}`], true, flag);
    }
    assert.deepEqual(meta.body.meta.links, { homepage: `${PUBLIC_URL}/`, register: `${PUBLIC_URL}/register` });
    assert.deepEqual(meta.body.skinDomains, ['skins.test']);
    assert.match(meta.body.signaturePublickey, /^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
    assert.equal(publicKey.asymmetricKeyDetails?.modulusLength, 4096);
    for (const url of [`${API}/`, '/api/nothing', '/login', '/no/such/page', `${API}/nothing`, '/healthz']) {
      const reply = await service.call('GET', url);
      assert.equal(reply.headers['x-authlib-injector-api-location'], `${PUBLIC_URL}/api/yggdrasil/`, url);
    }
  });

  it('logs in, refreshes, validates, invalidates and signs out through the yggdrasil package', async () => {
    const steve = await player();
    const auth = yggdrasil({ host: `${root}/authserver` });
    const byMail = await auth.auth({ user: steve.mail, pass: steve.password, requestUser: true });
    assert.deepEqual(byMail.selectedProfile, { id: dashless(steve.uuid), name: steve.username });
    assert.deepEqual(byMail.availableProfiles, [byMail.selectedProfile]);
    assert.match(byMail.accessToken, /^[0-9a-f]{32}$/);
    assert.equal(byMail.user.properties[0].name, 'preferredLanguage');
    const byName = await auth.auth({ user: steve.username.toUpperCase(), pass: steve.password });
    assert.equal(byName.selectedProfile.name, steve.username, 'a player name in any letter case logs in');

    // The client checks that the client token comes back exactly as it sent it (with dashes).
    const body = await auth.refresh(byMail.accessToken, byMail.clientToken);
    const refreshed = body.accessToken;
    assert.notEqual(refreshed, byMail.accessToken);
    assert.equal(body.selectedProfile.name, steve.username);
    await assert.rejects(auth.validate(byMail.accessToken), /Invalid token\./, 'the refreshed token stopped working');
    await auth.validate(refreshed);
    await auth.invalidate(refreshed, byMail.clientToken);
    await assert.rejects(auth.validate(refreshed), /Invalid token\./);

    await auth.validate(byName.accessToken);
    await assert.rejects(auth.signout(steve.username, 'wrong password'), /Invalid credentials\. Invalid username or password\./);
    await auth.signout(steve.mail, steve.password);
    await assert.rejects(auth.validate(byName.accessToken), /Invalid token\./, 'signout revoked every game token');
    await assert.rejects(auth.auth({ user: steve.mail, pass: 'wrong password' }), /Invalid credentials\. Invalid username or password\./);
  });

  it('joins a server and answers hasJoined with the signed profile, through the yggdrasil package', async () => {
    const alex = await player();
    await service.upload('/api/home/skins', alex.token, { slim: 'true' }, skinFile('slim'));
    const auth = yggdrasil({ host: `${root}/authserver` });
    const session = yggdrasil.server({ host: `${root}/sessionserver` });
    const login = await auth.auth({ user: alex.mail, pass: alex.password });
    const secret = Buffer.alloc(16, 7);
    const serverKey = Buffer.from('a game server public key');
    await session.join(login.accessToken, login.selectedProfile.id, 'server-one', secret, serverKey);
    const profile = await session.hasJoined(alex.username, 'server-one', secret, serverKey);
    assert.equal(profile.id, dashless(alex.uuid));
    assert.equal(profile.name, alex.username);
    const textures = profile.properties.find((property: { name: string }) => property.name === 'textures');
    assert.ok(verifies(textures.value, textures.signature), 'the textures signature verifies with the published key');
    const payload = decodeTextures(textures.value);
    assert.equal(payload.profileId, dashless(alex.uuid));
    assert.equal(payload.signatureRequired, true);
    assert.deepEqual(payload.textures.SKIN.metadata, { model: 'slim' });
    assert.match(payload.textures.SKIN.url, /^http:\/\/skins\.test\/textures\/[0-9a-f]{64}$/);
    assert.equal(payload.textures.CAPE, undefined, 'no cape: no CAPE key');
    const served = await service.call('GET', new URL(payload.textures.SKIN.url).pathname);
    assert.equal(served.status, 200);
    assert.equal(served.headers['content-type'], 'image/png');
    assert.equal(served.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(digestOf(served.raw), payload.textures.SKIN.url.split('/').at(-1), 'the URL names the digest of the bytes served');

    await assert.rejects(session.hasJoined(alex.username, 'another-server', secret, serverKey), 'another server id: 204');
    const other = await player();
    await assert.rejects(session.hasJoined(other.username, 'server-one', secret, serverKey), 'another player did not join');
    const otherLogin = await auth.auth({ user: other.mail, pass: other.password });
    await assert.rejects(
      session.join(otherLogin.accessToken, login.selectedProfile.id, 'server-two', secret, serverKey),
      /Invalid token\./,
      'a token joins only as its own profile',
    );
  });

  it('answers hasJoined only within 30 seconds and from the address that joined, when the server names one', async () => {
    const steve = await player();
    const login = (await yggPost('authserver/authenticate', { username: steve.mail, password: steve.password })).body;
    const joined = await service.call('POST', `${API}/sessionserver/session/minecraft/join`, {
      body: { accessToken: login.accessToken, selectedProfile: login.selectedProfile.id, serverId: '-51b1471f2f756c9a' },
      ip: '192.0.2.10',
    });
    assert.equal(joined.status, 204);
    const hasJoined = (query: string) => service.call('GET', `${API}/sessionserver/session/minecraft/hasJoined?${query}`);
    const base = `username=${steve.username}&serverId=-51b1471f2f756c9a`;
    assert.equal((await hasJoined(`${base}&ip=192.0.2.99`)).status, 204);
    assert.equal((await hasJoined(`${base}&ip=192.0.2.10`)).status, 200);
    assert.equal((await hasJoined(base)).status, 200);
    clock.advance(31_000);
    assert.equal((await hasJoined(base)).status, 204, 'a join is remembered for 30 seconds');
  });

  it('looks up profiles, uploads and removes skins through @xmcl/user', async () => {
    const steve = await player();
    const client = new YggdrasilThirdPartyClient(root);
    const auth = await client.login({ username: steve.username, password: steve.password, clientToken: 'launcher-client-token' });
    assert.equal(auth.clientToken, 'launcher-client-token');
    assert.equal(auth.selectedProfile?.name, steve.username);
    assert.equal(await client.validate(auth.accessToken, auth.clientToken), true);
    assert.equal(await client.validate(auth.accessToken, 'another client'), false, 'a token is its client token’s');

    await client.setTexture({
      accessToken: auth.accessToken,
      uuid: dashless(steve.uuid),
      type: 'skin',
      texture: { data: fixture('skins/slim.png'), metadata: { model: 'slim' } },
    });
    let launcher = (await service.call('GET', `/api/skin/launcher/${steve.uuid}`)).body;
    assert.deepEqual(launcher.SKIN.metadata, { model: 'slim' }, 'uploaded as slim, worn at once');
    const slimDigest = launcher.SKIN.digest;

    // @xmcl/user sends model "steve" when none is given: anything but "slim" is classic.
    await client.setTexture({
      accessToken: auth.accessToken,
      uuid: dashless(steve.uuid),
      type: 'skin',
      texture: { data: fixture('skins/classic.png') },
    });
    launcher = (await service.call('GET', `/api/skin/launcher/${steve.uuid}`)).body;
    assert.equal(launcher.SKIN.metadata, undefined);
    assert.notEqual(launcher.SKIN.digest, slimDigest);
    const wardrobe = (await service.call('GET', '/api/home/skins', { token: steve.token })).body.data;
    assert.equal(wardrobe.length, 2, 'both uploads entered the wardrobe');

    const unsigned = await client.lookup(dashless(steve.uuid));
    assert.equal(unsigned.name, steve.username);
    const textures = decodeTextures(unsigned.properties.textures);
    assert.equal(textures.signatureRequired, undefined, 'unsigned by default');
    assert.equal(textures.textures.SKIN.url.split('/').at(-1), launcher.SKIN.digest);
    assert.equal(unsigned.properties.uploadableTextures, 'skin');

    await client.setTexture({ accessToken: auth.accessToken, uuid: dashless(steve.uuid), type: 'skin' });
    assert.deepEqual((await service.call('GET', `/api/skin/launcher/${steve.uuid}`)).body, {}, 'removed: wears none');
    assert.equal((await service.call('GET', '/api/home/skins', { token: steve.token })).body.data.length, 2, 'the wardrobe keeps it');

    const refreshed = await client.refresh({ accessToken: auth.accessToken, clientToken: auth.clientToken });
    assert.equal(await client.validate(refreshed.accessToken, auth.clientToken), true);
    await client.invalidate(refreshed.accessToken, auth.clientToken);
    assert.equal(await client.validate(refreshed.accessToken, auth.clientToken), false);
  });

  it('signs profile lookups only with unsigned=false, and answers 204 for nobody', async () => {
    const steve = await player();
    const lookup = (query: string) => service.call('GET', `${API}/sessionserver/session/minecraft/profile/${query}`);
    const signed = await lookup(`${dashless(steve.uuid)}?unsigned=false`);
    assert.equal(signed.status, 200);
    for (const property of signed.body.properties) assert.ok(verifies(property.value, property.signature), property.name);
    const withDashes = await lookup(steve.uuid);
    assert.equal(withDashes.body.name, steve.username);
    assert.ok(withDashes.body.properties.every((property: { signature?: string }) => property.signature === undefined));
    assert.deepEqual(decodeTextures(withDashes.body.properties[0].value).textures, {}, 'no skin: the game draws its default');
    assert.equal((await lookup('00000000000040008000000000000000')).status, 204);
    assert.equal((await lookup('not-a-uuid')).status, 204);
  });

  it('reuses a signed textures property while the textures stay the same, and signs again after a change', async () => {
    const steve = await player();
    const signedLookup = async () =>
      (await service.call('GET', `${API}/sessionserver/session/minecraft/profile/${dashless(steve.uuid)}?unsigned=false`)).body
        .properties[0];
    const first = await signedLookup();
    clock.advance(1_000);
    assert.deepEqual(await signedLookup(), first, 'the same signed value is served again');
    await service.upload('/api/home/skins', steve.token, {}, skinFile('classic'));
    const changed = await signedLookup();
    assert.notEqual(changed.value, first.value);
    assert.ok(verifies(changed.value, changed.signature));
    assert.ok(decodeTextures(changed.value).textures.SKIN);
  });

  it('answers offline-mode servers by the offline UUID of a registered name', async () => {
    const steve = await player();
    await service.upload('/api/home/skins', steve.token, {}, skinFile('classic'));
    const offline = offlinePlayerUuid(steve.username);
    const reply = await service.call('GET', `${API}/sessionserver/session/minecraft/profile/${dashless(offline)}`);
    assert.equal(reply.status, 200);
    assert.equal(reply.body.id, dashless(offline), 'under the id the server asked for');
    assert.equal(reply.body.name, steve.username);
    assert.ok(decodeTextures(reply.body.properties[0].value).textures.SKIN);
    const wrongCase = offlinePlayerUuid(steve.username.toUpperCase());
    assert.equal((await service.call('GET', `${API}/sessionserver/session/minecraft/profile/${wrongCase}`)).status, 204);
  });

  it('serves the legacy skin address', async () => {
    const steve = await player();
    assert.equal((await service.call('GET', `${API}/skins/MinecraftSkins/${steve.username}.png`)).status, 404);
    await service.upload('/api/home/skins', steve.token, {}, skinFile('classic'));
    const skin = await service.call('GET', `${API}/skins/MinecraftSkins/${steve.username}.png`);
    assert.equal(skin.status, 200);
    assert.equal(skin.headers['content-type'], 'image/png');
    const launcher = (await service.call('GET', `/api/skin/launcher/${steve.uuid}`)).body;
    assert.equal(digestOf(skin.raw), launcher.SKIN.digest);
  });

  it('never lets a token change another player’s textures', async () => {
    const steve = await player();
    const mallory = await player();
    await service.upload('/api/home/skins', steve.token, {}, skinFile('classic'));
    const before = (await service.call('GET', `/api/skin/launcher/${steve.uuid}`)).body;
    const malloryToken = (await yggPost('authserver/authenticate', { username: mallory.mail, password: mallory.password })).body
      .accessToken;
    const put = (uuid: string, texture: string, token?: string, bytes = fixture('skins/slim.png')) =>
      service.upload(
        `${API}/api/user/profile/${dashless(uuid)}/${texture}`,
        token,
        { model: 'slim' },
        [{ field: 'file', filename: 'x.png', contentType: 'image/png', bytes }],
        'PUT',
      );
    const attack = await put(steve.uuid, 'skin', malloryToken);
    assert.equal(attack.status, 403);
    assert.equal(attack.body.error, 'ForbiddenOperationException');
    const removal = await service.call('DELETE', `${API}/api/user/profile/${dashless(steve.uuid)}/skin`, {
      headers: { authorization: `Bearer ${malloryToken}` },
    });
    assert.equal(removal.status, 403);
    assert.deepEqual((await service.call('GET', `/api/skin/launcher/${steve.uuid}`)).body, before, 'nothing changed');

    const anonymous = await put(steve.uuid, 'skin');
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.error, 'Unauthorized');
    const forged = await put(steve.uuid, 'skin', '0123456789abcdef0123456789abcdef');
    assert.equal(forged.status, 401);
    const cape = await put(mallory.uuid, 'cape', malloryToken);
    assert.equal(cape.status, 403, 'capes come from admins');
    const notPng = await put(mallory.uuid, 'skin', malloryToken, Buffer.from('not a png at all'));
    assert.equal(notPng.status, 400);
    assert.equal(notPng.body.error, 'IllegalArgumentException');
    assert.equal((await service.call('GET', '/api/home/skins', { token: mallory.token })).body.data.length, 0, 'nothing stored');
  });

  it('refuses a stranger’s texture upload before reading its body', async () => {
    const steve = await player();
    const mallory = await player();
    const malloryToken = (await gameLogin(mallory)).accessToken as string;
    const { hostname, port } = new URL(root);
    const boundary = 'upload-boundary';
    const partStart = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.png"\r\ncontent-type: image/png\r\n\r\n`;
    /** Sends the headers of a 900 KB upload and its first 16 KB, then waits for the answer without sending the rest. */
    const answerToStartedUpload = (texture: string, authorization?: string) =>
      new Promise<{ status: number; body: { error: string } }>((resolve, reject) => {
        const request = httpRequest({
          hostname,
          port,
          method: 'PUT',
          path: `${API}/api/user/profile/${dashless(steve.uuid)}/${texture}`,
          headers: {
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': String(900 * 1024),
            ...(authorization ? { authorization } : {}),
          },
        });
        const unanswered = setTimeout(() => {
          request.destroy();
          reject(new Error('no answer while the body was unfinished: the service waited to read it'));
        }, 5000);
        request.on('error', () => {}); // the service may close the connection on the unsent rest
        request.on('response', (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            clearTimeout(unanswered);
            request.destroy();
            resolve({ status: response.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
          });
        });
        request.write(Buffer.concat([Buffer.from(partStart), Buffer.alloc(16 * 1024)]));
      });
    for (const [texture, authorization, status, error] of [
      ['skin', undefined, 401, 'Unauthorized'],
      ['skin', 'Bearer 0123456789abcdef0123456789abcdef', 401, 'Unauthorized'],
      ['skin', `Bearer ${malloryToken}`, 403, 'ForbiddenOperationException'],
      ['cape', undefined, 401, 'Unauthorized'],
    ] as const) {
      const answer = await answerToStartedUpload(texture, authorization);
      assert.deepEqual([answer.status, answer.body.error], [status, error], `${texture} with ${authorization ?? 'no token'}`);
    }
  });

  it('keeps the token rules: expiry, at most 10 live, revoked by a password change and a ban, a rename only refreshes', async () => {
    const steve = await player();
    const authenticate = () => gameLogin(steve);

    const tokens: string[] = [];
    for (let index = 0; index <= MAX_LIVE_GAME_TOKENS; index += 1) tokens.push((await authenticate()).accessToken);
    assert.equal(await validates(tokens[0]), false, 'the oldest is revoked by the eleventh');
    assert.equal(await validates(tokens[1]), true);
    const stored = await service.db.selectFrom('game_tokens').select('token_hash').execute();
    assert.ok(
      stored.every((row) => !tokens.includes(row.token_hash)),
      'tokens are stored hashed',
    );

    clock.advance(GAME_TOKEN_LIFETIME_MS + 1);
    assert.equal(await validates(tokens[10]), false, 'expired after 15 days');

    const renamed = await authenticate();
    const newName = uniqueName('Renamed');
    // The web login of registration has expired with the clock: the player logs in again to rename their profile.
    const web = await service.call('POST', '/api/auth/login', {
      body: { username: steve.mail, password: steve.password },
      ip: randomAddress(),
    });
    const rename = await service.call('PATCH', `/api/home/profiles/${steve.uuid}`, { token: web.body.data.jwt, body: { name: newName } });
    assert.equal(rename.status, 200);
    assert.equal(await validates(renamed.accessToken), false, 'temporarily invalid after a rename');
    const refreshed = await yggPost('authserver/refresh', { accessToken: renamed.accessToken, clientToken: renamed.clientToken });
    assert.equal(refreshed.status, 200);
    assert.equal(refreshed.body.selectedProfile.name, newName);
    assert.equal(await validates(refreshed.body.accessToken), true);

    const patched = await service.call('PATCH', '/api/home', {
      token: (await service.call('POST', '/api/auth/login', { body: { username: steve.mail, password: steve.password } })).body.data.jwt,
      body: { password: 'a new password', current_password: steve.password },
    });
    assert.equal(patched.status, 200);
    assert.equal(await validates(refreshed.body.accessToken), false, 'a password change revokes game tokens');
  });

  it('refuses banned, unverified and unfinished accounts with a reason, and counts failures with the login limits', async () => {
    const steve = await player();
    await service.db.updateTable('users').set({ perms: -1 }).where('mail', '=', steve.mail).execute();
    const banned = await yggPost('authserver/authenticate', { username: steve.mail, password: steve.password });
    assert.equal(banned.status, 403);
    assert.deepEqual(banned.body, {
      error: 'ForbiddenOperationException',
      errorMessage: 'This account is banned. Reason: Another reason, given by the administrators. The ban is permanent.',
    });

    const mail = `${uniqueName()}@example.org`;
    await service.call('POST', '/api/auth/register', { body: { mail, password: 'a good password' } });
    const unverified = await yggPost('authserver/authenticate', { username: mail, password: 'a good password' });
    assert.equal(unverified.status, 403);
    assert.match(unverified.body.errorMessage, /Confirm your mail/);

    const victim = await player();
    const address = randomAddress();
    let last;
    for (let attempt = 0; attempt < 11; attempt += 1) {
      last = await service.call('POST', `${API}/authserver/authenticate`, {
        body: { username: victim.username, password: `wrong ${attempt}` },
        ip: address,
      });
    }
    assert.equal(last!.status, 429);
    assert.equal(last!.body.error, 'ForbiddenOperationException');
    assert.ok(Number(last!.headers['retry-after']) > 0);
    const web = await service.call('POST', '/api/auth/login', {
      body: { username: victim.mail, password: victim.password },
      ip: address,
    });
    assert.equal(web.status, 429, 'the account’s failures from that address count on the web login too, by its mail address');
  });

  it('answers bad input in the specification’s error shape and changes nothing', async () => {
    const malformed = await service.call('POST', `${API}/authserver/authenticate`, {
      body: '{"username": ',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error, 'IllegalArgumentException');
    assert.equal(typeof malformed.body.errorMessage, 'string');
    // Numbers and one-element arrays are coerced to text, as on every route (Fastify's Ajv); an object is not.
    const wrongType = await yggPost('authserver/authenticate', { username: { name: 'x' }, password: 'x' });
    assert.equal(wrongType.status, 400);
    assert.equal(wrongType.body.error, 'IllegalArgumentException');
    const missing = await yggPost('authserver/refresh', {});
    assert.equal(missing.status, 400);
    const badToken = await yggPost('authserver/refresh', { accessToken: 'nothing' });
    assert.deepEqual(badToken.body, { error: 'ForbiddenOperationException', errorMessage: 'Invalid token.' });
    assert.equal((await yggPost('authserver/invalidate', { accessToken: 'nothing' })).status, 204);
    const unknownPath = await service.call('GET', `${API}/no/such/thing`);
    assert.equal(unknownPath.status, 404);
    assert.equal(unknownPath.body.error, 'Not Found');
    const certificates = await yggPost('minecraftservices/player/certificates', {});
    assert.equal(certificates.status, 401);
    assert.equal(certificates.body.error, 'Unauthorized');
  });

  it('revokes game tokens on a ban, which lifting it does not bring back, and on a password reset', async () => {
    const assertRevoked = async (accessToken: string, why: string) => {
      const validated = await yggPost('authserver/validate', { accessToken });
      assert.equal(validated.status, 403, why);
      assert.deepEqual(validated.body, { error: 'ForbiddenOperationException', errorMessage: 'Invalid token.' }, why);
    };
    const ownerToken = await service.ownerToken();
    const steve = await player();
    const steveId = (await service.call('GET', `/api/admin/users?search=${steve.username}`, { token: ownerToken })).body.data[0].id;
    const setPerms = async (perms: number) => {
      const patched = await service.call('PATCH', `/api/admin/user/${steveId}`, { token: ownerToken, body: { perms } });
      assert.equal(patched.status, 200, patched.body?.msg);
    };
    const beforeBan = await gameLogin(steve);
    assert.ok(await validates(beforeBan.accessToken));
    await setPerms(-1);
    await assertRevoked(beforeBan.accessToken, 'banned');
    await setPerms(0);
    await assertRevoked(beforeBan.accessToken, 'the ban is lifted, the token stays revoked');
    const afterBan = await gameLogin(steve);
    assert.ok(await validates(afterBan.accessToken), 'a new login plays again');

    const ip = randomAddress();
    assert.equal((await service.call('POST', '/api/auth/forgetpass', { body: { mail: steve.mail }, ip })).status, 200);
    const code = codeIn(await service.mailbox.waitFor((mail) => mailTo(steve.mail)(mail) && mail.subject === 'Reset your password'));
    const reset = await service.call('POST', '/api/auth/forgetpass/update', { body: { code, password: 'a reset password' }, ip });
    assert.equal(reset.status, 200, reset.body?.msg);
    await assertRevoked(afterBan.accessToken, 'the password was reset');
    const joined = await yggPost('sessionserver/session/minecraft/join', {
      accessToken: afterBan.accessToken,
      selectedProfile: afterBan.selectedProfile.id,
      serverId: 'after-reset',
    });
    assert.equal(joined.status, 403, 'nor does it join a server');
    assert.equal((await gameLogin({ mail: steve.mail, password: 'a reset password' })).selectedProfile.name, steve.username);
  });

  it('refreshes a token once, also when asked several times at the same moment', async () => {
    const steve = await player();
    const login = await gameLogin(steve);
    const refreshes = await Promise.all(
      Array.from({ length: 3 }, () => yggPost('authserver/refresh', { accessToken: login.accessToken, clientToken: login.clientToken })),
    );
    const granted = refreshes.filter((reply) => reply.status === 200);
    assert.equal(granted.length, 1, `one new token for one old (statuses ${refreshes.map((reply) => reply.status)})`);
    for (const refused of refreshes.filter((reply) => reply.status !== 200)) {
      assert.deepEqual([refused.status, refused.body], [403, { error: 'ForbiddenOperationException', errorMessage: 'Invalid token.' }]);
    }
    assert.ok(await validates(granted[0]!.body.accessToken));
    assert.equal(await validates(login.accessToken), false);
  });
});
