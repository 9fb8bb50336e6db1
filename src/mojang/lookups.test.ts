// The look-ups as authlib (1.21 and 26.x), authlib-injector and Loki send them (research wire-shapes-26 §0.1, §6.4):
// every path, Mojang's statuses and error shape, at most 10 names; and the public keys with authenticationKeys.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { startService, type TestService } from '../../test/support/service.ts';

const API = '/api/yggdrasil';
const dashless = (uuid: string) => uuid.replace(/-/g, '');
/** authlib's POST: a bare JSON array, with its own content type. */
const AUTHLIB_JSON = { 'content-type': 'application/json; charset=utf-8' };

describeEachDatabase('profile look-ups as Mojang answers them', (kind) => {
  let service: TestService;
  let steve: { username: string; uuid: string };

  before(async () => {
    service = await startService(kind);
    const registered = await service.registerPlayer();
    const home = (await service.call('GET', '/api/home', { token: registered.token })).body.data;
    steve = { username: registered.username, uuid: home.Uuid };
  });
  after(async () => service?.close());

  const post = (path: string, body: unknown) => service.call('POST', `${API}/${path}`, { body, headers: AUTHLIB_JSON });
  const get = (path: string) => service.call('GET', `${API}/${path}`);

  it('looks up names in bulk under every path the game and its injectors ask, without regard to case', async () => {
    for (const path of [
      'api/profiles/minecraft',
      'api/minecraft/profile/lookup/bulk/byname',
      'minecraftservices/minecraft/profile/lookup/bulk/byname',
    ]) {
      const found = await post(path, [steve.username.toUpperCase(), 'nobody_here']);
      assert.equal(found.status, 200, path);
      assert.deepEqual(found.body, [{ id: dashless(steve.uuid), name: steve.username }], path);
      assert.deepEqual((await post(path, ['nobody_here'])).body, [], path);
    }
  });

  it("refuses more than 10 names, none, or a name no rule allows, with Mojang's CONSTRAINT_VIOLATION", async () => {
    const eleven = Array.from({ length: 11 }, (_, index) => `name${index}`);
    const tooMany = await post('minecraftservices/minecraft/profile/lookup/bulk/byname', eleven);
    assert.equal(tooMany.status, 400);
    assert.deepEqual(tooMany.body, {
      path: '/minecraft/profile/lookup/bulk/byname',
      errorType: 'CONSTRAINT_VIOLATION',
      error: 'CONSTRAINT_VIOLATION',
      errorMessage: 'getProfileName.profileNames: size must be between 0 and 10',
      developerMessage: 'getProfileName.profileNames: size must be between 0 and 10',
    });
    assert.equal((await post('api/profiles/minecraft', eleven.slice(1))).status, 200, 'ten names are fine');
    const none = await post('api/profiles/minecraft', []);
    assert.equal(none.status, 400);
    assert.equal(none.body.errorMessage, 'getProfileName.profileNames: must not be empty');
    assert.equal(none.body.path, '/profiles/minecraft');
    const bad = await post('api/profiles/minecraft', ['Steve', 'no spaces']);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errorMessage, 'getProfileName.profileNames[1].<list element>: Invalid profile name');
    const notArray = await post('api/profiles/minecraft', { names: ['Steve'] });
    assert.equal(notArray.status, 400);
    assert.equal(notArray.body.errorType, 'BAD_REQUEST');
  });

  it('looks up one name under the three paths: 200, 404 naming it, 400 for an impossible name', async () => {
    for (const path of [
      'api/users/profiles/minecraft',
      'api/minecraft/profile/lookup/name',
      'minecraftservices/minecraft/profile/lookup/name',
    ]) {
      const found = await get(`${path}/${steve.username.toLowerCase()}`);
      assert.deepEqual(found.body, { id: dashless(steve.uuid), name: steve.username }, path);
      const missing = await get(`${path}/nobody_here`);
      assert.equal(missing.status, 404, path);
      assert.equal(missing.body.errorMessage, "Couldn't find any profile with name nobody_here");
      assert.equal(missing.body.path, `/${path.replace(/^(api|minecraftservices)\//, '')}/nobody_here`);
      const invalid = await get(`${path}/${encodeURIComponent('a§b')}`);
      assert.equal(invalid.status, 400, path);
      assert.equal(invalid.body.error, 'CONSTRAINT_VIOLATION');
    }
  });

  it("looks up a UUID, dashed or not: Mojang's 404 and 400 on the services path, 204 on api.mojang.com's", async () => {
    for (const path of ['minecraftservices/minecraft/profile/lookup', 'api/minecraft/profile/lookup']) {
      for (const id of [steve.uuid, dashless(steve.uuid)]) {
        assert.deepEqual((await get(`${path}/${id}`)).body, { id: dashless(steve.uuid), name: steve.username }, path);
      }
      const unknown = await get(`${path}/00000000000040008000000000000000`);
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error, 'NOT FOUND');
      assert.equal(unknown.body.errorMessage, 'Not Found');
      const invalid = await get(`${path}/not-a-uuid`);
      assert.equal(invalid.status, 400);
      assert.equal(invalid.body.errorMessage, 'Not a valid UUID: not-a-uuid');
    }
    assert.deepEqual((await get(`api/user/profile/${dashless(steve.uuid)}`)).body, { id: dashless(steve.uuid), name: steve.username });
    assert.equal((await get('api/user/profile/00000000000040008000000000000000')).status, 204);
  });

  it('lists the service key as Mojang lists its keys, with authenticationKeys empty', async () => {
    const keys = (await get('minecraftservices/publickeys')).body;
    assert.deepEqual(keys.authenticationKeys, []);
    assert.equal(keys.profilePropertyKeys.length, 1);
    assert.deepEqual(keys.playerCertificateKeys, keys.profilePropertyKeys);
  });
});
