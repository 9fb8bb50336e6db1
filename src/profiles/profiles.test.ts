// Several game profiles per account (contract section 16): the player's and the admins' routes, and the game login
// with the clients people use (`yggdrasil`, @xmcl/user) plus the exact bodies HMCL and PCL-CE send to bind a token.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { YggdrasilThirdPartyClient } from '@xmcl/user';
import yggdrasil from 'yggdrasil';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { fixture, skinFile } from '../../test/support/fixtures.ts';
import { OWNER, randomAddress, startService, uniqueName, type TestService } from '../../test/support/service.ts';
import { offlinePlayerUuid } from '../minecraft/offline-uuid.ts';
import { DEFAULT_PROFILE_SETTINGS } from '../settings.ts';

const API = '/api/yggdrasil';
const dashless = (uuid: string) => uuid.replace(/-/g, '');

describeEachDatabase('game profiles', (kind) => {
  let service: TestService;
  let root: string;
  before(async () => {
    service = await startService(kind, { settings: { owner: OWNER, profiles: { ...DEFAULT_PROFILE_SETTINGS, maxProfiles: 3 } } });
    await service.app.listen({ port: 0, host: '127.0.0.1' });
    root = `http://127.0.0.1:${(service.app.server.address() as { port: number }).port}${API}`;
  });
  after(async () => service?.close());

  const player = async () => {
    const registered = await service.registerPlayer();
    const home = (await service.call('GET', '/api/home', { token: registered.token })).body.data;
    return { ...registered, uuid: home.Uuid as string };
  };
  const addProfile = (token: string, name: string) => service.call('POST', '/api/home/profiles', { token, body: { name } });
  /** A player with a second profile. */
  const twoProfiles = async () => {
    const steve = await player();
    const second = await addProfile(steve.token, uniqueName('Alt'));
    assert.equal(second.status, 201, JSON.stringify(second.body));
    return { ...steve, second: second.body.data as { uuid: string; name: string } };
  };
  const yggPost = (path: string, body: unknown) => service.call('POST', `${API}/${path}`, { body, ip: randomAddress() });

  it('adds profiles within the limit, checking the name, the limit and the shared namespace in that order', async () => {
    const steve = await player();
    const other = await player();
    assert.equal((await addProfile(steve.token, 'a b')).status, 400, 'against the name rule');
    assert.equal((await addProfile(steve.token, 'System')).status, 400, 'the audit log names the service itself so');
    assert.equal((await addProfile(steve.token, other.username.toUpperCase())).status, 409, "another account's username, any case");
    const first = await addProfile(steve.token, uniqueName('One'));
    assert.equal(first.status, 201);
    assert.equal(first.body.data.primary, false);
    assert.equal((await addProfile(other.token, first.body.data.name.toLowerCase())).status, 409, "another account's profile name");
    assert.equal((await addProfile(steve.token, uniqueName('Two'))).status, 201);
    const fourth = uniqueName('Three');
    assert.equal((await addProfile(steve.token, fourth)).status, 403, 'at the limit of 3');
    assert.equal((await addProfile(steve.token, 'a b')).status, 400, 'the name is checked before the limit');
    const listed = (await service.call('GET', '/api/home/profiles', { token: steve.token })).body.data;
    assert.deepEqual(
      listed.map((profile: { primary: boolean }) => profile.primary),
      [true, false, false],
      'creation order, primary first',
    );
    const home = (await service.call('GET', '/api/home', { token: steve.token })).body.data;
    assert.equal(home.MaxProfiles, 3);
    assert.equal(home.Profiles.length, 3);
    // An admin raises this account's limit; the page shows the one in force.
    const owner = await service.ownerToken();
    assert.equal(
      (await service.call('PATCH', `/api/admin/user/${steve.username}`, { token: owner, body: { max_profiles: 4 } })).status,
      200,
    );
    assert.equal((await addProfile(steve.token, fourth)).status, 201);
    assert.equal((await service.call('GET', '/api/home', { token: steve.token })).body.data.MaxProfiles, 4);
    // Any profile's name or UUID names the account in admin paths.
    const byProfile = await service.call('GET', `/api/admin/user/${fourth.toUpperCase()}`, { token: owner });
    assert.equal(byProfile.body.data.Username, steve.username);
  });

  it('renames (the primary renames the account), deletes only with the password, and never touches another account', async () => {
    const steve = await twoProfiles();
    const other = await player();
    const renamedPrimary = uniqueName('Main');
    const rename = await service.call('PATCH', `/api/home/profiles/${steve.uuid}`, { token: steve.token, body: { name: renamedPrimary } });
    assert.equal(rename.status, 200);
    assert.equal((await service.call('GET', '/api/home', { token: steve.token })).body.data.Username, renamedPrimary);
    const login = await service.call('POST', '/api/auth/login', {
      body: { username: steve.second.name, password: steve.password },
      ip: randomAddress(),
    });
    assert.equal(login.status, 200, 'a profile name logs in on the web');

    const path = `/api/home/profiles/${steve.second.uuid}`;
    assert.equal((await service.call('PATCH', path, { token: steve.token, body: { name: 'CLI' } })).status, 400, 'a reserved name');
    assert.equal((await service.call('PATCH', path, { token: other.token, body: { name: uniqueName('X') } })).status, 404);
    assert.equal((await service.call('DELETE', path, { token: other.token, body: { password: other.password } })).status, 404);
    assert.equal((await service.call('DELETE', path, { token: steve.token, body: {} })).status, 401, 'no password');
    assert.equal((await service.call('DELETE', path, { token: steve.token, body: { password: 'wrong password' } })).status, 401);
    const primary = `/api/home/profiles/${steve.uuid}`;
    assert.equal((await service.call('DELETE', primary, { token: steve.token, body: { password: steve.password } })).status, 409);
    assert.equal((await service.call('DELETE', path, { token: steve.token, body: { password: steve.password } })).status, 200);
    assert.equal((await service.call('GET', `${API}/sessionserver/session/minecraft/profile/${dashless(steve.second.uuid)}`)).status, 204);
  });

  it('binds game tokens as HMCL and PCL-CE do: mail login unbound, refresh binds once, name login binds, join needs a bound token', async () => {
    const steve = await twoProfiles();
    const auth = yggdrasil({ host: `${root}/authserver` });
    const session = yggdrasil.server({ host: `${root}/sessionserver` });

    const byMail = await auth.auth({ user: steve.mail, pass: steve.password, requestUser: true });
    assert.equal('selectedProfile' in byMail, false, 'no selectedProfile key at all');
    assert.deepEqual(
      byMail.availableProfiles.map((profile: { id: string }) => profile.id),
      [dashless(steve.uuid), dashless(steve.second.uuid)],
    );
    await auth.validate(byMail.accessToken);
    const secret = Buffer.alloc(16, 3);
    const key = Buffer.from('server key');
    await assert.rejects(session.join(byMail.accessToken, dashless(steve.uuid), 'srv', secret, key), /Invalid token\./, 'unbound: no join');

    // HMCL's choice: refresh {accessToken, clientToken, requestUser, selectedProfile: {id, name}}.
    const choice = { id: dashless(steve.second.uuid), name: steve.second.name };
    const bound = await yggPost('authserver/refresh', {
      accessToken: byMail.accessToken,
      clientToken: byMail.clientToken,
      requestUser: true,
      selectedProfile: choice,
    });
    assert.equal(bound.status, 200, JSON.stringify(bound.body));
    assert.deepEqual(bound.body.selectedProfile, choice);
    // PCL-CE names the bound profile on every refresh (and sends no clientToken).
    const again = await yggPost('authserver/refresh', { accessToken: bound.body.accessToken, selectedProfile: choice });
    assert.equal(again.status, 200);
    const otherChoice = { id: dashless(steve.uuid), name: steve.username };
    const refused = await yggPost('authserver/refresh', { accessToken: again.body.accessToken, selectedProfile: otherChoice });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.errorMessage, 'Access token already has a profile assigned.');
    const stranger = await player();
    const strangerLogin = await yggPost('authserver/authenticate', { username: steve.mail, password: steve.password });
    const foreign = await yggPost('authserver/refresh', {
      accessToken: strangerLogin.body.accessToken,
      selectedProfile: { id: dashless(stranger.uuid), name: stranger.username },
    });
    assert.equal(foreign.status, 403, "another account's profile");

    const token = again.body.accessToken;
    await assert.rejects(
      session.join(token, dashless(steve.uuid), 'srv', secret, key),
      /Invalid token\./,
      'another profile of the account',
    );
    await session.join(token, dashless(steve.second.uuid), 'srv', secret, key);
    const joined = await session.hasJoined(steve.second.name, 'srv', secret, key);
    assert.equal(joined.id, dashless(steve.second.uuid));
    await assert.rejects(session.hasJoined(steve.username, 'srv', secret, key), 'the primary profile did not join');

    // A login by a profile name binds at once and offers that profile alone (no chooser in HMCL).
    const byName = await auth.auth({ user: steve.second.name.toUpperCase(), pass: steve.password });
    assert.deepEqual(byName.selectedProfile, choice);
    assert.deepEqual(byName.availableProfiles, [choice]);
  });

  it('uploads a launcher skin to the bound profile only, through @xmcl/user, and a rename makes its tokens refresh-only', async () => {
    const steve = await twoProfiles();
    const client = new YggdrasilThirdPartyClient(root);
    const login = await client.login({ username: steve.second.name, password: steve.password, clientToken: 'c'.repeat(32) });
    assert.equal(login.selectedProfile.id, dashless(steve.second.uuid));
    const upload = await service.upload(`${API}/api/user/profile/${dashless(steve.uuid)}/skin`, undefined, {}, skinFile('classic'), 'PUT');
    assert.equal(upload.status, 401);
    const own = await fetch(`${root}/api/user/profile/${dashless(steve.uuid)}/skin`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${login.accessToken}` },
    });
    assert.equal(own.status, 403, "the primary profile is not this token's");
    const form = new FormData();
    form.set('file', new Blob([fixture('skins/classic.png')]), 'skin.png');
    const put = await fetch(`${root}/api/user/profile/${dashless(steve.second.uuid)}/skin`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${login.accessToken}` },
      body: form,
    });
    assert.equal(put.status, 204);
    const profiles = (await service.call('GET', '/api/home/profiles', { token: steve.token })).body.data;
    assert.ok(profiles[1].selected_skin, 'the second profile wears the upload');
    assert.equal(profiles[0].selected_skin, null, 'the primary profile still wears none');

    const newName = uniqueName('New');
    await service.call('PATCH', `/api/home/profiles/${steve.second.uuid}`, { token: steve.token, body: { name: newName } });
    assert.equal(await client.validate(login.accessToken, login.clientToken), false, 'temporarily invalid after the rename');
    const refreshed = await client.refresh({ accessToken: login.accessToken, clientToken: login.clientToken });
    assert.equal(refreshed.selectedProfile.name, newName);
  });

  it('serves each profile its own skin by its offline UUID and its name, and a renamed profile by its new offline UUID', async () => {
    const steve = await twoProfiles();
    const skin = await service.upload('/api/home/skins', steve.token, {}, skinFile('classic'));
    const path = `/api/home/profiles/${steve.second.uuid}`;
    await service.call('PATCH', path, { token: steve.token, body: { selected_skin: skin.body.data.uuid } });
    await service.call('PATCH', `/api/home/profiles/${steve.uuid}`, { token: steve.token, body: { selected_skin: null } });
    const skinOf = async (uuid: string) => {
      const reply = await service.call('GET', `${API}/sessionserver/session/minecraft/profile/${dashless(uuid)}`);
      if (reply.status !== 200) return reply.status;
      const textures = reply.body.properties.find((property: { name: string }) => property.name === 'textures');
      return JSON.parse(Buffer.from(textures.value, 'base64').toString()).textures.SKIN?.url ?? 'none';
    };
    const url = `${service.settings.publicUrl}/textures/${skin.body.data.digest}`;
    assert.equal(await skinOf(offlinePlayerUuid(steve.second.name)), url, 'an offline-mode server finds the second profile');
    assert.equal(await skinOf(offlinePlayerUuid(steve.username)), 'none', 'the primary profile wears none');
    assert.equal((await service.call('GET', `${API}/skins/MinecraftSkins/${steve.second.name}.png`)).status, 200, 'the legacy skin API');
    assert.equal((await service.call('GET', `${API}/skins/MinecraftSkins/${steve.username}.png`)).status, 404);

    const newName = uniqueName('Re');
    await service.call('PATCH', path, { token: steve.token, body: { name: newName } });
    assert.equal(await skinOf(offlinePlayerUuid(newName)), url, 'the new offline UUID serves the skin');
    assert.equal(await skinOf(offlinePlayerUuid(steve.second.name)), 204, 'the old name is nobody');
    assert.equal(await skinOf(steve.second.uuid), url, 'the UUID never changes');
  });

  it('moves a profile to another account (admins), ending the game tokens bound to it', async () => {
    const steve = await twoProfiles();
    const alex = await player();
    const owner = await service.ownerToken();
    const login = await yggPost('authserver/authenticate', { username: steve.second.name, password: steve.password });
    const base = `/api/admin/user/${steve.username}/profiles`;
    assert.equal((await service.call('POST', `${base}/${steve.uuid}/transfer`, { token: owner, body: { to: alex.username } })).status, 409);
    assert.equal(
      (await service.call('POST', `${base}/${steve.second.uuid}/transfer`, { token: alex.token, body: { to: alex.username } })).status,
      403,
    );
    const moved = await service.call('POST', `${base}/${steve.second.uuid}/transfer`, { token: owner, body: { to: alex.username } });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal((await yggPost('authserver/validate', { accessToken: login.body.accessToken })).status, 403, 'its token ended');
    const alexProfiles = (await service.call('GET', '/api/home/profiles', { token: alex.token })).body.data;
    // Creation order: the moved profile may be older than the account's own.
    assert.deepEqual(alexProfiles.map((profile: { uuid: string }) => profile.uuid).sort(), [alex.uuid, steve.second.uuid].sort());
    const audit = await service.db.selectFrom('audit_log').select('action').where('action', 'like', 'profile.%').execute();
    assert.ok(audit.some((entry) => entry.action === 'profile.transfer'));
  });
});

describeEachDatabase('game profiles under other settings', (kind) => {
  let service: TestService;
  before(async () => {
    service = await startService(kind, {
      settings: { owner: OWNER, profiles: { nameRule: 'cjk', maxProfiles: 1, uuid: 'offline', rename: false, nameChangeDays: 0 } },
    });
  });
  after(async () => service?.close());

  it('takes CJK names, gives offline UUIDs kept through renames, keeps MAX_PROFILES=1 and PROFILE_RENAME=false', async () => {
    const name = `史蒂夫${uniqueName('').slice(1, 6)}`;
    const steve = await service.registerPlayer({ username: name });
    const home = (await service.call('GET', '/api/home', { token: steve.token })).body.data;
    assert.equal(home.Username, name);
    assert.equal(home.Uuid, offlinePlayerUuid(name), 'PROFILE_UUID=offline, at step 3 too');
    assert.equal(home.MaxProfiles, 1);
    const refused = await service.call('POST', '/api/home/profiles', { token: steve.token, body: { name: uniqueName('Alt') } });
    assert.equal(refused.status, 403, 'one profile only');
    const section = await service.call('POST', '/api/home/profiles', { token: steve.token, body: { name: 'a§b' } });
    assert.equal(section.status, 400, 'never the formatting sign');
    const rename = await service.call('PATCH', `/api/home/profiles/${home.Uuid}`, {
      token: steve.token,
      body: { name: uniqueName('New') },
    });
    assert.equal(rename.status, 403, 'players may not rename');
    const newName = uniqueName('Admin');
    const byAdmin = await service.call('PATCH', `/api/admin/user/${name}/profiles/${home.Uuid}`, {
      token: await service.ownerToken(),
      body: { name: newName },
    });
    assert.equal(byAdmin.status, 200, 'admins may');
    const after = (await service.call('GET', '/api/home', { token: steve.token })).body.data;
    assert.deepEqual([after.Username, after.Uuid], [newName, home.Uuid], 'the account is renamed; the UUID stays');
  });
});

describeEachDatabase('names kept by offline UUIDs (PROFILE_UUID=offline, the review’s L13)', (kind) => {
  let service: TestService;
  before(async () => {
    service = await startService(kind, {
      settings: { owner: OWNER, profiles: { ...DEFAULT_PROFILE_SETTINGS, uuid: 'offline', maxProfiles: 3 } },
    });
  });
  after(async () => service?.close());

  it('refuses, saying why in the player’s language, a spelling whose offline UUID a renamed profile keeps: at step 3, as a new profile, as a rename and in the admin paths', async () => {
    const anna = await service.registerPlayer();
    const bert = await service.registerPlayer();
    const owner = await service.ownerToken();
    const parked = uniqueName('Carol');
    const made = await service.call('POST', '/api/home/profiles', { token: anna.token, body: { name: parked } });
    assert.equal(made.status, 201);
    const annasUuid = made.body.data.uuid as string;
    assert.equal(annasUuid, offlinePlayerUuid(parked));
    const renamed = await service.call('PATCH', `/api/home/profiles/${annasUuid}`, {
      token: anna.token,
      body: { name: uniqueName('Dave') },
    });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.data.uuid, annasUuid, 'a rename keeps the UUID');

    const why = /^The name Carol_\w+ cannot be taken in exactly this spelling: the game profile first made under it has been renamed/;
    const asNewProfile = await service.call('POST', '/api/home/profiles', { token: bert.token, body: { name: parked } });
    assert.equal(asNewProfile.status, 409);
    assert.match(asNewProfile.body.msg, why);
    assert.equal(asNewProfile.headers['x-error-key'], 'profiles.nameKeptByUuid');
    const inRussian = await service.call('POST', '/api/home/profiles', {
      token: bert.token,
      body: { name: parked },
      headers: { 'accept-language': 'ru' },
    });
    assert.match(inRussian.body.msg, /^Имя Carol_\w+ нельзя занять именно в таком написании/);
    const inChinese = await service.call('POST', '/api/home/profiles', {
      token: bert.token,
      body: { name: parked },
      headers: { 'accept-language': 'zh-CN' },
    });
    assert.match(inChinese.body.msg, /^无法使用完全相同写法的名称 Carol_\w+/);
    await assert.rejects(service.registerPlayer({ username: parked }), /registerfinish: 409 The name Carol_\w+ cannot be taken/, 'step 3');
    const bertsUuid = (await service.call('GET', '/api/home', { token: bert.token })).body.data.Uuid as string;
    const asRename = await service.call('PATCH', `/api/home/profiles/${bertsUuid}`, { token: bert.token, body: { name: parked } });
    assert.deepEqual([asRename.status, asRename.headers['x-error-key']], [409, 'profiles.nameKeptByUuid'], 'a rename');

    const admin = `/api/admin/user/${bert.username}`;
    const adminCreates = await service.call('POST', `${admin}/profiles`, { token: owner, body: { name: parked } });
    assert.deepEqual([adminCreates.status, adminCreates.headers['x-error-key']], [409, 'profiles.nameKeptByUuid'], 'an admin adds');
    const adminRenames = await service.call('PATCH', `${admin}/profiles/${bertsUuid}`, { token: owner, body: { name: parked } });
    assert.deepEqual([adminRenames.status, adminRenames.headers['x-error-key']], [409, 'profiles.nameKeptByUuid'], 'an admin renames');
    const adminEdits = await service.call('PATCH', admin, { token: owner, body: { username: parked } });
    assert.deepEqual([adminEdits.status, adminEdits.headers['x-error-key']], [409, 'profiles.nameKeptByUuid'], 'an admin edits the user');
    assert.equal((await service.call('GET', '/api/home', { token: bert.token })).body.data.Username, bert.username, 'nothing changed');

    // Another letter case is another offline UUID: free. A name someone holds now is "taken", as before.
    const otherCase = await service.call('POST', '/api/home/profiles', { token: bert.token, body: { name: parked.toLowerCase() } });
    assert.equal(otherCase.status, 201);
    assert.equal(otherCase.body.data.uuid, offlinePlayerUuid(parked.toLowerCase()));
    const taken = await service.call('POST', '/api/home/profiles', { token: anna.token, body: { name: parked.toUpperCase() } });
    assert.deepEqual([taken.status, taken.headers['x-error-key']], [409, 'profiles.nameTaken']);
    await service.call('DELETE', `/api/home/profiles/${otherCase.body.data.uuid}`, {
      token: bert.token,
      body: { password: bert.password },
    });

    // The profile made under the name takes it back.
    const back = await service.call('PATCH', `/api/home/profiles/${annasUuid}`, { token: anna.token, body: { name: parked } });
    assert.equal(back.status, 200, back.body.msg);
    const lookup = await service.call('GET', `${API}/sessionserver/session/minecraft/profile/${dashless(annasUuid)}`);
    assert.equal(lookup.body.name, parked);
  });
});
