import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, it } from 'node:test';
import { defaultSkin } from '../rendering/default-skin.ts';
import { decodePng, encodePng } from '../rendering/png.ts';
import { renderImage } from '../rendering/render.ts';
import { defaultModelIsSlim } from '../skin/texture.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { capeFile, fixture, skinFile } from '../../test/support/fixtures.ts';
import { OWNER, startService, type TestService } from '../../test/support/service.ts';

const manifest = JSON.parse(fixture('manifest.json').toString()) as {
  files: Record<string, { faces: Record<string, { rect: number[]; colour: number[] }> }>;
};
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describeEachDatabase('launcher document and images', (kind) => {
  let service: TestService;
  let ownerToken: string;
  before(async () => {
    service = await startService(kind, { settings: { owner: OWNER } });
    ownerToken = await service.ownerToken();
  });
  after(async () => service?.close());

  const get = (url: string, headers?: Record<string, string>) => service.call('GET', url, { headers });
  const uploadSkin = async (token: string, name: string, fields: Record<string, string> = {}) =>
    (await service.upload('/api/home/skins', token, fields, skinFile(name))).body.data;
  const playerWith = async (skin: string | null, withCape = false) => {
    const player = await service.registerPlayer();
    const uuid = (await service.call('GET', '/api/home', { token: player.token })).body.data.Uuid as string;
    if (skin) await uploadSkin(player.token, skin);
    let cape: { uuid: string; digest: string } | undefined;
    if (withCape) {
      const id = (await service.db.selectFrom('users').select('id').where('uuid', '=', uuid).executeTakeFirstOrThrow()).id;
      cape = (await service.upload('/api/admin/user/cape/upload', ownerToken, { name: 'Cape', owners: String(id) }, capeFile('cape'))).body
        .data;
      await service.call('PATCH', '/api/home', { token: player.token, body: { selected_cape: cape!.uuid } });
    }
    return { ...player, uuid, cape };
  };
  const pathOf = (url: string) => url.replace('http://skins.test', '');

  it('gives a launcher document whose digests are the SHA-256 of the bytes its URLs serve', async () => {
    const player = await playerWith('classic', true);
    const reply = await get(`/api/skin/launcher/${player.uuid}`);
    assert.equal(reply.status, 200);
    const document = reply.body;
    assert.equal(document.error, undefined, 'no envelope');
    assert.equal(document.SKIN.url, `http://skins.test/api/skin/cloak/${player.uuid}`);
    assert.equal(document.SKIN.metadata, undefined, 'no metadata for a classic skin');
    const skinBytes = (await get(pathOf(document.SKIN.url))).raw;
    assert.equal(document.SKIN.digest, sha256(skinBytes));
    assert.equal(document.SKIN.hash, document.SKIN.digest, 'hash (read by some GravitLauncher versions) beside digest');
    assert.deepEqual(decodePng(skinBytes).data, decodePng(fixture('skins/classic.png')).data, 'the served skin is the uploaded picture');
    const capeBytes = (await get(pathOf(document.CAPE.url))).raw;
    assert.equal(document.CAPE.digest, sha256(capeBytes));
    assert.equal(document.CAPE.hash, document.CAPE.digest);
    assert.deepEqual(Object.keys(document).sort(), ['CAPE', 'SKIN']);
  });

  it('marks slim skins, leaves CAPE out without a cape, and gives {} without textures and for an unknown identifier', async () => {
    const slim = await playerWith('slim');
    const document = (await get(`/api/skin/launcher/${slim.username}`)).body;
    assert.deepEqual(document.SKIN.metadata, { model: 'slim' });
    assert.equal(document.CAPE, undefined);
    const bare = await playerWith(null);
    const empty = await get(`/api/skin/launcher/${bare.uuid.replace(/-/g, '').toUpperCase()}`);
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, {});
    // A GravitLauncher LaunchServer 5.7 fails the player's login on any non-2xx answer here (contract section 7).
    for (const nobody of ['00000000-0000-4000-8000-000000000000', 'nobody_here']) {
      const unknown = await get(`/api/skin/launcher/${nobody}`);
      assert.equal(unknown.status, 200, nobody);
      assert.deepEqual(unknown.body, {}, nobody);
    }
  });

  it('renders heads, bodies and cloaks at the requested size', async () => {
    const player = await playerWith('classic', true);
    const cases: [string, number][] = [
      [`/api/skin/head/${player.uuid}?size=64`, 64],
      [`/api/skin/head/${player.username}?type=player&size=8`, 8],
      [`/api/skin/body/${player.uuid}?size=512`, 512],
      [`/api/skin/body/${player.uuid}?type=player`, 100],
      [`/api/skin/cloak/${player.cape!.uuid}?size=77`, 77],
      [`/api/skin/cloak/${player.cape!.uuid}?type=player&size=150`, 150],
    ];
    for (const [url, width] of cases) {
      const reply = await get(url);
      assert.equal(reply.status, 200, url);
      assert.equal(reply.headers['content-type'], 'image/png');
      const image = decodePng(reply.raw);
      assert.equal(image.width, width, url);
      if (url.includes('/head/')) assert.equal(image.height, width, 'heads are square');
    }
    // Flat head, 10 pixels a texel: texel (0, 2) of the face lies on an overlay row the fixture leaves
    // transparent (rows 2-3 of every 4), so the base face's colour (manifest, plus a small gradient) shows.
    const head = decodePng((await get(`/api/skin/head/${player.uuid}?size=80`)).raw);
    const face = manifest.files['skins/classic.png']!.faces['head.base.front']!.colour;
    const centre = (25 * 80 + 5) * 4;
    const pixel = Array.from(head.data.subarray(centre, centre + 3));
    assert.ok(
      pixel.every((value, channel) => Math.abs(value - face[channel]!) < 24),
      `face colour ${pixel} near ${face}`,
    );
  });

  it('refuses sizes and types outside the contract and unknown parameters with 400', async () => {
    const player = await playerWith('classic');
    for (const query of ['size=7', 'size=513', 'size=abc', 'size=10.5', 'type=iso', 'size=-1']) {
      const reply = await get(`/api/skin/head/${player.uuid}?${query}`);
      assert.equal(reply.status, 400, query);
      assert.equal(reply.body.error, true);
      assert.match(reply.body.msg, /size|type/);
    }
    // An unknown parameter is refused on every image route, also right after the same image was answered.
    assert.equal((await get(`/api/skin/head/${player.uuid}?size=64`)).status, 200);
    for (const path of ['head', 'body', 'cloak', 'standart/cape']) {
      const reply = await get(`/api/skin/${path}/${player.uuid}?type=skin&x=1`);
      assert.equal(reply.status, 400, path);
      assert.deepEqual({ ...reply.body, msg: '' }, { error: true, msg: '', url: null, data: {} });
      assert.match(reply.body.msg, /query parameter "x" is not accepted here/);
    }
    assert.equal((await get('/api/skin/head/no_such_player')).status, 404);
    assert.equal((await get('/api/skin/body/00000000-0000-4000-8000-000000000000')).status, 404);
  });

  it('draws a player without a skin with the shipped default skin of the model the game gives the UUID', async () => {
    for (const player of [await playerWith(null), await playerWith(null)]) {
      const slim = defaultModelIsSlim(player.uuid);
      const head = await get(`/api/skin/head/${player.uuid}?type=player`);
      assert.equal(head.status, 200);
      const file = await get(`/api/skin/cloak/${player.uuid}`);
      assert.equal(file.status, 200);
      const texture = decodePng(file.raw);
      assert.deepEqual([texture.width, texture.height], [64, 64]);
      assert.deepEqual(file.raw, encodePng(defaultSkin(slim)), `the ${slim ? 'slim' : 'classic'} default for ${player.uuid}`);
      const body = await get(`/api/skin/body/${player.uuid}?size=100`);
      assert.deepEqual(body.raw, renderImage({ view: 'body', type: 'skin', size: 100, skin: defaultSkin(slim), slim, overlay: true }));
      assert.equal((await get(`/api/skin/standart/cape/${player.uuid}`)).status, 404, 'no cape to serve');
    }
  });

  it('sends ETag and Cache-Control, answers If-None-Match with 304, and changes the ETag with the skin', async () => {
    const player = await playerWith('classic');
    const first = await get(`/api/skin/head/${player.uuid}?size=90`);
    const etag = String(first.headers.etag);
    assert.match(etag, /^".+"$/);
    assert.match(String(first.headers['cache-control']), /public/);
    const again = await get(`/api/skin/head/${player.uuid}?size=90`, { 'if-none-match': etag });
    assert.equal(again.status, 304);
    assert.equal(again.raw.length, 0);
    assert.notEqual((await get(`/api/skin/head/${player.uuid}?size=91`)).headers.etag, etag, 'parameters are part of the ETag');

    const slim = await uploadSkin(player.token, 'slim');
    await service.call('PATCH', '/api/home', { token: player.token, body: { selected_skin: slim.uuid } });
    const changed = await get(`/api/skin/head/${player.uuid}?size=90`, { 'if-none-match': etag });
    assert.equal(changed.status, 200, 'a new skin is a new image');
    assert.notEqual(changed.headers.etag, etag);

    const file = await get(`/api/skin/cloak/${player.uuid}`);
    assert.equal((await get(`/api/skin/cloak/${player.uuid}`, { 'if-none-match': String(file.headers.etag) })).status, 304);
  });

  it('serves a skin UUID as that skin, and the cloak path of a player as their skin file', async () => {
    const player = await playerWith('slim');
    const skins = (await service.call('GET', '/api/home/skins', { token: player.token })).body.data;
    const bySkin = await get(`/api/skin/cloak/${skins[0].uuid}`);
    const byPlayer = await get(`/api/skin/cloak/${player.uuid}`);
    assert.deepEqual(bySkin.raw, byPlayer.raw);
    assert.equal((await get(`/api/skin/body/${skins[0].uuid}?type=player`)).status, 200);
  });

  it('renders 100 images in parallel, each right', async () => {
    const player = await playerWith('hd-128', true);
    const requests = Array.from({ length: 100 }, (_, index) => {
      const view = ['head', 'body'][index % 2];
      const size = 8 + index * 5;
      return get(`/api/skin/${view}/${player.uuid}?type=${index % 3 === 0 ? 'skin' : 'player'}&size=${size}`).then((reply) => ({
        reply,
        size,
      }));
    });
    for (const { reply, size } of await Promise.all(requests)) {
      assert.equal(reply.status, 200);
      assert.equal(decodePng(reply.raw).width, size);
    }
  });
});
