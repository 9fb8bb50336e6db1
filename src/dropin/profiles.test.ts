// Every image address that names a player, for a game profile that is not its account's primary one (contract
// section 16): the launcher document and the own image routes, CustomSkinAPI, Crafatar and Minotar, by the profile's
// name (any letter case, CJK ideographs included) and UUID (any spelling). Each shows that profile's own skin and
// cape, never its primary profile's.
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { capeFile, skinFile } from '../../test/support/fixtures.ts';
import { OWNER, startService, uniqueName, type TestService } from '../../test/support/service.ts';
import { insertProfile } from '../accounts/profile-rows.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describeEachDatabase('image and drop-in URLs of a second profile', (kind) => {
  let service: TestService;
  type Texture = { uuid: string; digest: string };
  type Profile = { name: string; uuid: string };
  /** The primary profile wears the classic skin and no cape. */
  let primary: Profile & { skin: Texture };
  /** A second profile wearing the slim skin and the cape. */
  let second: Profile & { skin: Texture; cape: Texture };
  /** A third profile, named in CJK ideographs (PROFILE_NAME_RULE=cjk), wearing the HD skin. */
  let cjk: Profile & { skin: Texture };

  before(async () => {
    service = await startService(kind, { settings: { owner: OWNER } });
    const ownerToken = await service.ownerToken();
    const steve = await service.registerPlayer();
    const account = await service.db
      .selectFrom('users')
      .select(['id', 'uuid'])
      .where('username', '=', steve.username)
      .executeTakeFirstOrThrow();
    const upload = async (file: string, fields: Record<string, string> = {}): Promise<Texture> =>
      (await service.upload('/api/home/skins', steve.token, fields, skinFile(file))).body.data;
    const skinId = async (skin: Texture) =>
      (await service.db.selectFrom('skins').select('id').where('uuid', '=', skin.uuid).executeTakeFirstOrThrow()).id;
    // The first skin is worn by the primary profile; the others only by the profiles given them below.
    primary = { name: steve.username, uuid: account.uuid!, skin: await upload('classic') };
    const slim = await upload('slim', { slim: 'true' });
    const hd = await upload('hd-128');
    const cape: Texture = (
      await service.upload('/api/admin/user/cape/upload', ownerToken, { name: 'Cape', owners: String(account.id) }, capeFile('cape'))
    ).body.data;
    const capeId = (await service.db.selectFrom('capes').select('id').where('uuid', '=', cape.uuid).executeTakeFirstOrThrow()).id;

    const addProfile = async (name: string, wears: { skin: Texture; capeId?: number }) => {
      const uuid = randomUUID();
      const id = await insertProfile(service.db, { userId: account.id, name, uuid, now: Date.now() });
      await service.db
        .updateTable('profiles')
        .set({ selected_skin_id: await skinId(wears.skin), selected_cape_id: wears.capeId ?? null })
        .where('id', '=', id)
        .execute();
      return { name, uuid };
    };
    second = { ...(await addProfile(uniqueName('Alt'), { skin: slim, capeId })), skin: slim, cape };
    cjk = { ...(await addProfile(`史蒂夫${randomUUID().slice(0, 4)}`, { skin: hd })), skin: hd };
  });
  after(async () => service?.close());

  const get = (url: string) => service.call('GET', url);
  /** Every spelling of a profile: its name in three letter cases, its UUID with and without dashes, upper case. */
  const spellings = (profile: Profile) =>
    [
      profile.name,
      profile.name.toLowerCase(),
      profile.name.toUpperCase(),
      profile.uuid,
      profile.uuid.replace(/-/g, ''),
      profile.uuid.toUpperCase(),
    ].map(encodeURIComponent);
  const etagOf = async (url: string) => {
    const reply = await get(url);
    assert.equal(reply.status, 200, `${url}: ${reply.status}`);
    return reply.headers.etag;
  };
  /** The file at `url` is exactly the texture. */
  const serves = async (url: string, texture: Texture) => {
    const reply = await get(url);
    assert.equal(reply.status, 200, `${url}: ${reply.status}`);
    assert.equal(sha256(reply.raw), texture.digest, url);
  };

  it('launcher document: the second profile’s skin (slim) and cape, by its name or UUID; the primary keeps its own', async () => {
    for (const id of spellings(second)) {
      const document = (await get(`/api/skin/launcher/${id}`)).body;
      assert.equal(document.SKIN.digest, second.skin.digest, id);
      assert.deepEqual(document.SKIN.metadata, { model: 'slim' }, id);
      assert.equal(document.SKIN.url, `http://skins.test/api/skin/cloak/${second.uuid}`, 'addressed by the profile’s UUID');
      assert.equal(document.CAPE.digest, second.cape.digest, id);
    }
    await serves(`/api/skin/cloak/${second.uuid}`, second.skin);
    const primaryDocument = (await get(`/api/skin/launcher/${primary.uuid}`)).body;
    assert.deepEqual(Object.keys(primaryDocument), ['SKIN'], 'the primary profile wears no cape');
    assert.equal(primaryDocument.SKIN.digest, primary.skin.digest);
  });

  it('own image routes: heads, bodies, skin and cape files of the second profile are its own', async () => {
    for (const id of spellings(second)) {
      await serves(`/api/skin/cloak/${id}`, second.skin);
      await serves(`/api/skin/standart/cape/${id}`, second.cape);
      for (const view of ['head', 'body', 'bust']) {
        assert.equal(await etagOf(`/api/skin/${view}/${id}?size=64`), await etagOf(`/api/skin/${view}/${second.skin.uuid}?size=64`), id);
      }
    }
    assert.notEqual(await etagOf(`/api/skin/head/${second.name}?size=64`), await etagOf(`/api/skin/head/${primary.name}?size=64`));
    await serves(`/api/skin/cloak/${primary.name}`, primary.skin);
    assert.equal((await get(`/api/skin/standart/cape/${primary.name}`)).status, 404, 'the cape is the second profile’s choice only');
  });

  it('CustomSkinAPI: the document of the second profile, its name as stored, in any letter case', async () => {
    for (const name of [second.name, second.name.toLowerCase(), second.name.toUpperCase()]) {
      assert.deepEqual((await get(`/csl/${name}.json`)).body, {
        username: second.name,
        skins: { slim: second.skin.digest },
        cape: second.cape.digest,
      });
    }
    assert.deepEqual((await get(`/csl/${primary.name.toLowerCase()}.json`)).body, {
      username: primary.name,
      skins: { default: primary.skin.digest },
    });
  });

  it('Crafatar: skins, capes, avatars and renders of the second profile are its own', async () => {
    for (const id of spellings(second)) {
      await serves(`/skins/${id}`, second.skin);
      await serves(`/capes/${id}.png`, second.cape);
      assert.equal(await etagOf(`/avatars/${id}?size=32`), await etagOf(`/avatars/${second.skin.uuid}?size=32`), id);
      assert.equal(await etagOf(`/renders/body/${id}`), await etagOf(`/renders/body/${second.skin.uuid}`), id);
    }
    assert.notEqual(await etagOf(`/avatars/${second.uuid}`), await etagOf(`/avatars/${primary.uuid}`));
    await serves(`/skins/${primary.name}`, primary.skin);
    assert.equal((await get(`/capes/${primary.name}`)).status, 404);
  });

  it('Minotar: skin files and renders of the second profile are its own', async () => {
    for (const id of spellings(second)) {
      await serves(`/skin/${id}.png`, second.skin);
      await serves(`/download/${id}`, second.skin);
      assert.equal(await etagOf(`/helm/${id}/50.png`), await etagOf(`/helm/${second.skin.uuid}/50`), id);
      assert.equal(await etagOf(`/body/${id}`), await etagOf(`/body/${second.skin.uuid}`), id);
    }
    assert.notEqual(await etagOf(`/avatar/${second.name}`), await etagOf(`/avatar/${primary.name}`));
    await serves(`/skin/${primary.uuid}`, primary.skin);
  });

  it('a profile named in CJK ideographs: every family finds it by name and by UUID', async () => {
    for (const id of spellings(cjk)) {
      await serves(`/skins/${id}`, cjk.skin);
      await serves(`/skin/${id}`, cjk.skin);
      await serves(`/api/skin/cloak/${id}`, cjk.skin);
      assert.equal((await get(`/api/skin/launcher/${id}`)).body.SKIN.digest, cjk.skin.digest, id);
      assert.equal(await etagOf(`/avatars/${id}`), await etagOf(`/avatars/${cjk.skin.uuid}`), id);
      assert.equal(await etagOf(`/avatar/${id}/64`), await etagOf(`/avatar/${cjk.skin.uuid}/64`), id);
    }
    assert.deepEqual((await get(`/csl/${encodeURIComponent(cjk.name)}.json`)).body, {
      username: cjk.name,
      skins: { default: cjk.skin.digest },
    });
    // Still no name: 17 characters, the formatting sign, a space.
    for (const name of ['史'.repeat(17), '史蒂夫§a', '史 蒂夫']) {
      assert.equal((await get(`/avatars/${encodeURIComponent(name)}`)).status, 400, name);
      assert.equal((await get(`/avatar/${encodeURIComponent(name)}`)).status, 400, name);
    }
  });
});
