// Mojang's minecraft/profile routes as launchers call them: @xmcl/user's MojangClient (what its launchers use) over
// HTTP, and the raw shapes Prism, HMCL and SJMCL send (research wire-shapes-26 §6.1-6.3). Each change goes through the
// web's services: the same wardrobe, limits, audit and NAME_CHANGE_DAYS; another profile's token changes nothing.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { MojangClient, NameAvailability } from '@xmcl/user';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { capeFile, fixture, skinFile } from '../../test/support/fixtures.ts';
import { OWNER, PUBLIC_URL, randomAddress, startService, uniqueName, type TestService } from '../../test/support/service.ts';
import { DEFAULT_PROFILE_SETTINGS } from '../settings.ts';

const API = '/api/yggdrasil';
const SERVICES = `${API}/minecraftservices/minecraft/profile`;
const DAY_MS = 24 * 3600 * 1000;
const dashless = (uuid: string) => uuid.replace(/-/g, '');

describeEachDatabase("Mojang's minecraft/profile routes", (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  let mojang: MojangClient;
  let ownerToken: string;

  before(async () => {
    service = await startService(kind, {
      clock,
      settings: { owner: OWNER, profiles: { ...DEFAULT_PROFILE_SETTINGS, nameChangeDays: 30 } },
    });
    await service.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = service.app.server.address() as { port: number };
    const root = `http://127.0.0.1:${port}${API}/minecraftservices/`;
    // authlib-injector and Loki send api.minecraftservices.com's requests to {root}/minecraftservices/.
    mojang = new MojangClient({
      fetch: ((url: string, init: RequestInit) => fetch(url.replace('https://api.minecraftservices.com/', root), init)) as never,
      FormData: FormData as never,
      File,
    });
    ownerToken = await service.ownerToken();
  });
  after(async () => service?.close());

  /** A registered player and a game token bound to their profile (a login by player name). */
  const player = async () => {
    const registered = await service.registerPlayer();
    const home = (await service.call('GET', '/api/home', { token: registered.token })).body.data;
    const gameToken = await loginGame(registered.username, registered.password);
    const { id } = await service.db.selectFrom('users').select('id').where('uuid', '=', home.Uuid).executeTakeFirstOrThrow();
    return { ...registered, uuid: home.Uuid as string, id, gameToken };
  };
  const loginGame = async (username: string, password: string) =>
    (await service.call('POST', `${API}/authserver/authenticate`, { body: { username, password }, ip: randomAddress() })).body
      .accessToken as string;
  const getProfile = (token: string) => service.call('GET', SERVICES, { token });
  const audits = async (userId: number, action: string) =>
    (await service.db.selectFrom('audit_log').select('action').where('target_id', '=', userId).where('action', '=', action).execute())
      .length;
  const launcherDocument = async (uuid: string) => (await service.call('GET', `/api/skin/launcher/${uuid}`)).body;
  const giveCape = async (userId: number, name = 'Founders') => {
    const reply = await service.upload('/api/admin/user/cape/upload', ownerToken, { name, owners: String(userId) }, capeFile('cape'));
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.data;
  };

  it('answers the profile with an empty wardrobe, in the shape and content type @xmcl/user parses', async () => {
    const steve = await player();
    const profile = await mojang.getProfile(steve.gameToken);
    assert.deepEqual(profile, { id: dashless(steve.uuid), name: steve.username, skins: [], capes: [], profileActions: {} });
  });

  it('uploads a skin (multipart) as @xmcl/user and SJMCL send it: worn, in the wardrobe, audited as the web upload', async () => {
    const steve = await player();
    const uploaded = await mojang.setSkin('skin.png', fixture('skins/slim.png'), 'slim', steve.gameToken);
    assert.equal(uploaded.skins.length, 1);
    const [skin] = uploaded.skins;
    assert.equal(skin!.state, 'ACTIVE');
    assert.equal(skin!.variant, 'SLIM');
    assert.match(skin!.id, /^[0-9a-f-]{36}$/);
    const launcher = await launcherDocument(steve.uuid);
    assert.equal((skin as unknown as { textureKey: string }).textureKey, launcher.SKIN.digest);
    assert.equal(await audits(steve.id, 'skin.upload'), 1);
    // SJMCL's form: variant first, then file named skin.png; CLASSIC in capitals as some launchers send it.
    const second = await service.upload(`${SERVICES}/skins`, steve.gameToken, { variant: 'CLASSIC' }, [
      { field: 'file', filename: 'skin.png', bytes: fixture('skins/classic.png') },
    ]);
    assert.equal(second.status, 200);
    assert.deepEqual(
      second.body.skins.map((entry: { state: string; variant: string }) => [entry.state, entry.variant]),
      [
        ['INACTIVE', 'SLIM'],
        ['ACTIVE', 'CLASSIC'],
      ],
    );
    assert.equal((await service.call('GET', '/api/home/skins', { token: steve.token })).body.data.length, 2, 'the web sees both');
    const badVariant = await service.upload(`${SERVICES}/skins`, steve.gameToken, { variant: 'wide' }, [
      { field: 'file', filename: 'skin.png', bytes: fixture('skins/classic.png') },
    ]);
    assert.equal(badVariant.status, 400);
    assert.equal(badVariant.body.errorType, 'CONSTRAINT_VIOLATION');
    assert.equal(badVariant.body.path, '/minecraft/profile/skins');
    const notPng = await service.upload(`${SERVICES}/skins`, steve.gameToken, { variant: 'slim' }, [
      { field: 'file', filename: 'skin.png', bytes: Buffer.from('not a png') },
    ]);
    assert.equal(notPng.status, 400, 'the web upload’s picture rules');
    assert.equal(notPng.body.errorType, 'BAD_REQUEST');
    assert.equal((await service.call('GET', '/api/home/skins', { token: steve.token })).body.data.length, 2, 'nothing added');
  });

  it('wears one of our texture URLs (JSON form) and refuses a URL from elsewhere, changing nothing', async () => {
    const steve = await player();
    const alex = await player();
    const alexSkin = (await service.upload('/api/home/skins', alex.token, {}, skinFile('slim'))).body.data;
    const url = `${PUBLIC_URL}/textures/${alexSkin.digest}`;
    const worn = await mojang.setSkin('skin.png', url, 'slim', steve.gameToken);
    assert.equal(worn.skins.length, 1);
    assert.equal(worn.skins[0]!.state, 'ACTIVE');
    assert.equal(worn.skins[0]!.url, url);
    // Again with the same texture and model: the wardrobe's skin is worn again, not copied.
    await service.call('DELETE', `${SERVICES}/skins/active`, { token: steve.gameToken });
    const again = await service.call('POST', `${SERVICES}/skins`, { token: steve.gameToken, body: { variant: 'slim', url } });
    assert.equal(again.body.skins.length, 1);
    assert.equal(again.body.skins[0].state, 'ACTIVE');
    const before = await launcherDocument(steve.uuid);
    for (const foreign of [
      'http://textures.minecraft.net/texture/3b60a1f6d562f52aaebbf1434f1de147933a3affe0e764fa49ea057536623cd3',
      `${PUBLIC_URL}/textures/${'0'.repeat(64)}`,
      `${PUBLIC_URL}/api/skin/launcher/${alex.uuid}`,
      'not a url',
    ]) {
      const refused = await service.call('POST', `${SERVICES}/skins`, {
        token: steve.gameToken,
        body: { variant: 'classic', url: foreign },
      });
      assert.equal(refused.status, 400, foreign);
      assert.equal(refused.body.errorType, 'CONSTRAINT_VIOLATION', foreign);
      assert.equal(refused.body.path, '/minecraft/profile/skins');
    }
    assert.deepEqual(await launcherDocument(steve.uuid), before, 'nothing changed');
  });

  it('resets the skin and answers the profile, as SJMCL parses it', async () => {
    const steve = await player();
    await mojang.setSkin('skin.png', fixture('skins/classic.png'), 'classic', steve.gameToken);
    const reset = await service.call('DELETE', `${SERVICES}/skins/active`, { token: steve.gameToken });
    assert.equal(reset.status, 200);
    assert.equal(reset.body.skins.length, 1, 'the wardrobe keeps it');
    assert.equal(reset.body.skins[0].state, 'INACTIVE');
    assert.equal((await launcherDocument(steve.uuid)).SKIN, undefined);
    await mojang.resetSkin(steve.gameToken);
  });

  it('wears and takes off a cape the account owns; an unknown or other player’s cape is a 400 and changes nothing', async () => {
    const steve = await player();
    const alex = await player();
    const cape = await giveCape(steve.id);
    const alexCape = await giveCape(alex.id, 'Alex only');
    const listed = await mojang.getProfile(steve.gameToken);
    assert.deepEqual(
      listed.capes.map((entry) => [entry.id, entry.state, entry.alias]),
      [[cape.uuid, 'INACTIVE', 'Founders']],
    );
    const worn = await mojang.showCape(cape.uuid, steve.gameToken);
    assert.equal(worn.capes[0]!.state, 'ACTIVE');
    assert.ok((await launcherDocument(steve.uuid)).CAPE);
    for (const capeId of [alexCape.uuid, '402d2b1a-48a5-4177-8173-85b0d1d04889', 'nonsense']) {
      const refused = await service.call('PUT', `${SERVICES}/capes/active`, { token: steve.gameToken, body: { capeId } });
      assert.equal(refused.status, 400, capeId);
      assert.equal(refused.body.errorType, 'BAD_REQUEST');
      assert.equal(refused.body.path, '/minecraft/profile/capes/active');
    }
    assert.equal((await mojang.getProfile(steve.gameToken)).capes[0]!.state, 'ACTIVE', 'still the owned one');
    const hidden = await service.call('DELETE', `${SERVICES}/capes/active`, { token: steve.gameToken });
    assert.equal(hidden.status, 200);
    assert.equal(hidden.body.capes[0].state, 'INACTIVE');
    assert.equal((await launcherDocument(steve.uuid)).CAPE, undefined);
    assert.equal(await audits(steve.id, 'user.take_off'), 1);
  });

  it('renames under the web’s rules and NAME_CHANGE_DAYS, with availability and namechange as Mojang answers them', async () => {
    const steve = await player();
    const alex = await player();
    assert.equal(await mojang.checkNameAvailability(alex.username.toUpperCase(), steve.gameToken), NameAvailability.DUPLICATE);
    assert.equal(await mojang.checkNameAvailability('no spaces here', steve.gameToken), NameAvailability.NOT_ALLOWED);
    assert.equal(await mojang.checkNameAvailability('system', steve.gameToken), NameAvailability.NOT_ALLOWED);
    const newName = uniqueName('n');
    assert.equal(await mojang.checkNameAvailability(newName, steve.gameToken), NameAvailability.AVAILABLE);
    const before = await mojang.getNameChangeInformation(steve.gameToken);
    assert.equal(before.nameChangeAllowed, true);
    assert.equal(before.changedAt, before.createdAt);
    assert.match(before.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const taken = await service.call('PUT', `${SERVICES}/name/${alex.username}`, { token: steve.gameToken });
    assert.equal(taken.status, 403);
    assert.equal(taken.body.errorType, 'FORBIDDEN');
    assert.deepEqual(taken.body.details, { status: 'DUPLICATE' });
    const invalid = await service.call('PUT', `${SERVICES}/name/ab`, { token: steve.gameToken });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.errorType, 'CONSTRAINT_VIOLATION');
    assert.equal(invalid.body.path, '/minecraft/profile/name/ab');

    clock.advance(60_000);
    const renamed = await mojang.setName(newName, steve.gameToken);
    assert.equal(renamed.name, newName);
    assert.equal(renamed.id, dashless(steve.uuid));
    assert.equal(await audits(steve.id, 'profile.rename'), 1);
    assert.equal((await service.call('GET', '/api/home', { token: steve.token })).body.data.Username, newName, 'the web sees it');

    // The token was issued for the old name: launchers refresh it, or log in again.
    const token = await loginGame(newName, steve.password);
    const after = await mojang.getNameChangeInformation(token);
    assert.equal(after.nameChangeAllowed, false);
    assert.notEqual(after.changedAt, after.createdAt);
    const tooSoon = await service.call('PUT', `${SERVICES}/name/${uniqueName('n')}`, { token });
    assert.equal(tooSoon.status, 403);
    assert.match(tooSoon.body.errorMessage, /once every 30 days/);
    const webTooSoon = await service.call('PATCH', `/api/home/profiles/${steve.uuid}`, {
      token: steve.token,
      body: { name: uniqueName('n') },
    });
    assert.equal(webTooSoon.status, 403, 'the web waits too');
    clock.advance(30 * DAY_MS);
    const later = await loginGame(newName, steve.password);
    assert.equal((await mojang.getNameChangeInformation(later)).nameChangeAllowed, true);
    assert.equal((await service.call('PUT', `${SERVICES}/name/${uniqueName('n')}`, { token: later })).status, 200);
  });

  it('refuses a request without a live token in Mojang’s shape, and a token changes only its own profile', async () => {
    const missing = await service.call('GET', SERVICES);
    assert.equal(missing.status, 401);
    assert.equal(missing.headers['content-type'], 'application/json');
    assert.equal(missing.body.path, '/minecraft/profile');
    assert.equal(missing.body.errorType, 'UnauthorizedOperationException');
    assert.equal((await getProfile('0'.repeat(32))).status, 401);
    const steve = await player();
    const mallory = await player();
    await mojang.setSkin('skin.png', fixture('skins/classic.png'), 'classic', steve.gameToken);
    const before = await launcherDocument(steve.uuid);
    await mojang.setSkin('skin.png', fixture('skins/slim.png'), 'slim', mallory.gameToken);
    await service.call('DELETE', `${SERVICES}/skins/active`, { token: mallory.gameToken });
    await service.call('PUT', `${SERVICES}/name/${uniqueName('m')}`, { token: mallory.gameToken });
    assert.deepEqual(await launcherDocument(steve.uuid), before);
    assert.equal((await getProfile(steve.gameToken)).body.name, steve.username);
    // A web session's token is no game token.
    assert.equal((await getProfile(steve.token)).status, 401);
  });
});
