// Images by texture (contract section 25): every image URL that takes a player also takes one of our 64-hex texture
// digests, and answers it as immutable for a year (as Crafthead does for Discord's caches); what a player's URL
// answers keeps the short max-age, since the player may change skin.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { decodePng } from '../rendering/png.ts';
import { isSlimSkin } from '../skin/texture.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { capeFile, skinFile } from '../../test/support/fixtures.ts';
import { OWNER, startService, type TestService } from '../../test/support/service.ts';
import { CHANGING, IMMUTABLE } from './reply.ts';

describeEachDatabase('images by texture digest', (kind) => {
  let service: TestService;
  /** A player wearing the classic fixture skin and a cape, and one wearing the slim fixture. */
  let classic: { uuid: string; skin: string; cape: string };
  let slim: { uuid: string; skin: string };

  before(async () => {
    service = await startService(kind, { settings: { owner: OWNER } });
    const owner = await service.ownerToken();
    const player = async (fixture: string) => {
      const registered = await service.registerPlayer();
      const uuid = (await service.call('GET', '/api/home', { token: registered.token })).body.data.Uuid as string;
      const skin = (await service.upload('/api/home/skins', registered.token, {}, skinFile(fixture))).body.data.digest as string;
      return { ...registered, uuid, skin };
    };
    const first = await player('classic');
    const id = (await service.db.selectFrom('users').select('id').where('uuid', '=', first.uuid).executeTakeFirstOrThrow()).id;
    const cape = (await service.upload('/api/admin/user/cape/upload', owner, { name: 'Cape', owners: String(id) }, capeFile('cape'))).body
      .data;
    await service.call('PATCH', '/api/home', { token: first.token, body: { selected_cape: cape.uuid } });
    classic = { uuid: first.uuid, skin: first.skin, cape: cape.digest };
    slim = await player('slim');
  });
  after(async () => service?.close());

  const get = (url: string, headers?: Record<string, string>) => service.call('GET', url, { headers });

  /** Each URL family with a player and with the digest of what that URL shows of the player. */
  const pairs = () => [
    // The service's own (contract section 7).
    [`/api/skin/head/${classic.uuid}?type=player`, `/api/skin/head/${classic.skin}?type=player`],
    [`/api/skin/body/${classic.uuid}?size=64`, `/api/skin/body/${classic.skin}?size=64`],
    [`/api/skin/bust/${classic.uuid}`, `/api/skin/bust/${classic.skin.toUpperCase()}`],
    [`/api/skin/cloak/${classic.uuid}`, `/api/skin/cloak/${classic.skin}`],
    [`/api/skin/standart/cape/${classic.uuid}`, `/api/skin/standart/cape/${classic.cape}`],
    // Crafatar's and Minotar's (contract section 13).
    [`/avatars/${classic.uuid}?size=32&overlay`, `/avatars/${classic.skin}?size=32&overlay`],
    [`/renders/head/${classic.uuid}?scale=2`, `/renders/head/${classic.skin}.png?scale=2`],
    [`/renders/body/${classic.uuid}?scale=2`, `/renders/body/${classic.skin}?scale=2`],
    [`/skins/${classic.uuid}`, `/skins/${classic.skin}`],
    [`/capes/${classic.uuid}`, `/capes/${classic.cape}`],
    [`/helm/${classic.uuid}/40`, `/helm/${classic.skin}/40.png`],
    [`/cube/${classic.uuid}/40`, `/cube/${classic.skin}/40`],
    [`/body/${classic.uuid}/40`, `/body/${classic.skin}/40`],
    [`/bust/${classic.uuid}/40`, `/bust/${classic.skin}/40`],
    [`/skin/${classic.uuid}`, `/skin/${classic.skin}.png`],
    [`/download/${classic.uuid}`, `/download/${classic.skin}`],
  ];

  it('answers every image URL that takes a player for a texture digest too: the same image, immutable for a year', async () => {
    for (const [byPlayer, byTexture] of pairs()) {
      const player = await get(byPlayer!);
      const texture = await get(byTexture!);
      assert.equal(texture.status, 200, `${byTexture}: ${texture.raw.toString()}`);
      assert.equal(texture.headers['content-type'], 'image/png', byTexture);
      assert.deepEqual(texture.raw, player.raw, `${byTexture} shows what ${byPlayer} shows`);
      assert.equal(texture.headers['cache-control'], IMMUTABLE, byTexture);
      assert.equal(player.headers['cache-control'], CHANGING, `${byPlayer}: a player may change skin`);
      // Repeats come from the answer cache; they stay immutable, and a revalidation is a 304.
      assert.equal((await get(byTexture!)).headers['cache-control'], IMMUTABLE, `${byTexture}, again`);
      const revalidated = await get(byTexture!, { 'if-none-match': String(texture.headers.etag) });
      assert.equal(revalidated.status, 304, byTexture);
    }
  });

  it("draws a skin texture with the model its pixels show, whatever a skin row's flag says", async () => {
    const bySlimTexture = await get(`/api/skin/body/${slim.skin}?size=64`);
    assert.deepEqual(bySlimTexture.raw, (await get(`/api/skin/body/${slim.uuid}?size=64`)).raw, 'slim arms');
    assert.equal(isSlimSkin(decodePng((await get(`/skins/${slim.skin}`)).raw)), true);
    assert.notDeepEqual(bySlimTexture.raw, (await get(`/api/skin/body/${classic.skin}?size=64`)).raw);
  });

  it('answers a digest nothing has as it answers a player nobody has, and never as immutable', async () => {
    const nothing = 'ab'.repeat(32);
    assert.equal((await get(`/api/skin/head/${nothing}`)).status, 404);
    assert.equal((await get(`/api/skin/standart/cape/${nothing}`)).status, 404);
    assert.equal((await get(`/api/skin/standart/cape/${classic.skin}`)).status, 404, 'a skin texture is no cape');
    assert.equal((await get(`/capes/${classic.skin}`)).status, 404, 'nor on Crafatar’s path');
    const unknownOnCrafatar = await get(`/avatars/${nothing}`);
    assert.equal(unknownOnCrafatar.status, 200, 'drawn as a player without a skin');
    assert.equal(unknownOnCrafatar.headers['cache-control'], CHANGING, 'it may name a texture tomorrow');
    const cloak = await get(`/api/skin/cloak/${classic.cape}?type=skin&size=64`);
    assert.deepEqual(cloak.raw, (await get(`/api/skin/cloak/${await capeUuid()}?type=skin&size=64`)).raw, 'a cape digest is its cloak');
    assert.equal(cloak.headers['cache-control'], IMMUTABLE);
    assert.equal((await get(`/avatars/${nothing.slice(1)}`)).status, 400, '63 hex digits are neither');
  });

  const capeUuid = async () =>
    (await service.db.selectFrom('capes').select('uuid').where('texture_digest', '=', classic.cape).executeTakeFirstOrThrow()).uuid;
});
