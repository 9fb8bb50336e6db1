// Crafatar-style URLs (contract section 13) against the fixture skins with one colour per face.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { defaultSkin } from '../rendering/default-skin.ts';
import { decodePng, encodePng } from '../rendering/png.ts';
import { renderImage } from '../rendering/render.ts';
import { isSlimSkin } from '../skin/texture.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { capeFile, fixture, skinFile } from '../../test/support/fixtures.ts';
import { imageCacheFigures } from '../../test/support/image-metrics.ts';
import { facePixels, facesOf, meanX } from '../../test/support/rendering.ts';
import { OWNER, startService, type TestService } from '../../test/support/service.ts';

/**
 * Nobody has these. The game (1.19.3+, floorMod(hashCode, 18)) draws the first wide (wide/zuri) and the second slim
 * (slim/efe): wire-shapes-26.md section 8. The old rule (hashCode & 1) had them the other way round.
 */
const UNKNOWN_CLASSIC = '12345678-9abc-def0-1234-567890abcdef';
const UNKNOWN_SLIM = 'cafebabe-0000-0000-1111-222233334444';

const faceCounts = (png: Buffer, file = 'skins/classic.png') => {
  const found = facePixels(decodePng(png), facesOf(file));
  return (predicate: (face: string) => boolean) =>
    [...found].filter(([face]) => predicate(face)).reduce((sum, [, points]) => sum + points.length, 0);
};
const overlay = (face: string) => face.includes('.overlay.');

describeEachDatabase('Crafatar-style URLs', (kind) => {
  let service: TestService;
  type Player = { uuid: string; username: string; token: string };
  let classic: Player;
  let slim: Player;
  let bare: Player;
  let capeDigest: string;
  before(async () => {
    service = await startService(kind, { settings: { owner: OWNER } });
    const ownerToken = await service.ownerToken();
    const player = async (skin: string | null): Promise<Player> => {
      const registered = await service.registerPlayer();
      const uuid = (await service.call('GET', '/api/home', { token: registered.token })).body.data.Uuid as string;
      if (skin) await service.upload('/api/home/skins', registered.token, {}, skinFile(skin));
      return { ...registered, uuid };
    };
    [classic, slim, bare] = [await player('classic'), await player('slim'), await player(null)];
    const id = (await service.db.selectFrom('users').select('id').where('uuid', '=', classic.uuid).executeTakeFirstOrThrow()).id;
    const cape = (await service.upload('/api/admin/user/cape/upload', ownerToken, { name: 'Cape', owners: String(id) }, capeFile('cape')))
      .body.data;
    capeDigest = cape.digest;
    await service.call('PATCH', '/api/home', { token: classic.token, body: { selected_cape: cape.uuid } });
  });
  after(async () => service?.close());
  const get = (url: string, headers?: Record<string, string>) => service.call('GET', url, { headers });

  it('avatars: the flat face, 160 by default, with the hat only when overlay (or helm) is present with any value', async () => {
    const plain = await get(`/avatars/${classic.uuid}`);
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-type'], 'image/png');
    assert.match(String(plain.headers['cache-control']), /public/);
    const image = decodePng(plain.raw);
    assert.deepEqual([image.width, image.height], [160, 160]);
    const faces = faceCounts(plain.raw);
    assert.equal(
      faces((face) => face === 'head.base.front'),
      160 * 160,
      'every pixel is the face',
    );
    for (const query of ['overlay', 'overlay=true', 'overlay=false', 'helm', 'helm=0']) {
      const hat = faceCounts((await get(`/avatars/${classic.uuid}?${query}`)).raw);
      assert.ok(hat((face) => face === 'head.overlay.front') > 0, `${query}: hat drawn`);
      assert.equal(
        hat((face) => face !== 'head.overlay.front' && face !== 'head.base.front'),
        0,
      );
    }
  });

  it('avatars: size 1 to 512; 0 or not a number is the default; above 512 or below 1 is refused with 400', async () => {
    for (const [query, width] of [
      ['size=1', 1],
      ['size=7', 7],
      ['size=512', 512],
      ['size=0', 160],
      ['size=abc', 160],
      ['size=', 160],
      ['size=48px', 48],
      ['size=32.9', 32],
    ] as const) {
      const reply = await get(`/avatars/${classic.username}?${query}`);
      assert.equal(reply.status, 200, query);
      assert.deepEqual([decodePng(reply.raw).width, decodePng(reply.raw).height], [width, width], query);
    }
    for (const query of ['size=513', 'size=-1', 'size=100000']) {
      const reply = await get(`/avatars/${classic.username}?${query}`);
      assert.equal(reply.status, 400, query);
      assert.deepEqual({ ...reply.body, msg: '' }, { error: true, msg: '', url: null, data: {} });
      assert.match(reply.body.msg, /size must be from 1 to 512/);
    }
  });

  it('renders: 3D head and body, 20 pixels wide per unit of scale (1-10, default 6), second layer only with overlay', async () => {
    const head = await get(`/renders/head/${classic.uuid}`);
    assert.equal(head.status, 200);
    assert.deepEqual([decodePng(head.raw).width, decodePng(head.raw).height], [120, 120]);
    const headFaces = faceCounts(head.raw);
    for (const face of ['top', 'front', 'right']) assert.ok(headFaces((name) => name === `head.base.${face}`) > 0, face);
    assert.equal(headFaces(overlay), 0);
    assert.ok(faceCounts((await get(`/renders/head/${classic.uuid}?overlay`)).raw)(overlay) > 0);

    const body = await get(`/renders/body/${classic.username}?scale=10&overlay`);
    const image = decodePng(body.raw);
    assert.equal(image.width, 200);
    assert.ok(image.height > 400);
    const found = facePixels(image, facesOf('skins/classic.png'));
    const at = (part: string) => [...(found.get(`${part}.base.front`) ?? []), ...(found.get(`${part}.overlay.front`) ?? [])];
    assert.ok(meanX(at('rightArm')) < meanX(at('body')) && meanX(at('body')) < meanX(at('leftArm')), "the player's right arm on the left");
    assert.ok(faceCounts(body.raw)(overlay) > 0);
    assert.equal(faceCounts((await get(`/renders/body/${classic.username}?scale=10`)).raw)(overlay), 0);

    for (const [query, width] of [
      ['scale=1', 20],
      ['scale=0', 120],
      ['scale=x', 120],
    ] as const) {
      assert.equal(decodePng((await get(`/renders/head/${classic.uuid}?${query}`)).raw).width, width, query);
    }
    for (const query of ['scale=11', 'scale=-2']) {
      const reply = await get(`/renders/body/${classic.uuid}?${query}`);
      assert.equal(reply.status, 400, query);
      assert.match(reply.body.msg, /scale must be from 1 to 10/);
    }
  });

  it('renders slim arms 3 texels wide: the slim body is narrower inside the same frame', async () => {
    const opaque = (png: Buffer) => decodePng(png).data.filter((value, index) => index % 4 === 3 && value > 0).length;
    const slimBody = await get(`/renders/body/${slim.uuid}`);
    const classicBody = await get(`/renders/body/${classic.uuid}`);
    assert.equal(decodePng(slimBody.raw).width, decodePng(classicBody.raw).width);
    assert.ok(opaque(slimBody.raw) < opaque(classicBody.raw));
    assert.ok(faceCounts(slimBody.raw, 'skins/slim.png')((face) => face.startsWith('rightArm.')) > 0);
  });

  it('skins and capes: the texture files; 404 for a player without a cape', async () => {
    const skin = await get(`/skins/${classic.uuid}`);
    assert.equal(skin.status, 200);
    assert.deepEqual(decodePng(skin.raw).data, decodePng(fixture('skins/classic.png')).data);
    const own = await get(`/api/skin/cloak/${classic.uuid}`);
    assert.deepEqual(skin.raw, own.raw, 'the same bytes as the service skin file');
    assert.equal(skin.headers.etag, own.headers.etag);
    const cape = await get(`/capes/${classic.username}`);
    assert.equal(cape.status, 200);
    assert.equal(cape.headers.etag, `"${capeDigest}"`);
    for (const nobody of [slim.uuid, bare.username, UNKNOWN_CLASSIC, 'nobody_here']) {
      const reply = await get(`/capes/${nobody}?default=MHF_Alex`);
      assert.equal(reply.status, 404, nobody);
      assert.equal(reply.body.error, true);
    }
  });

  it('default: an unknown UUID has the model the game gives it, an unknown name Steve; default= overrides for anyone without a skin', async () => {
    const isSlim = async (url: string) => isSlimSkin(decodePng((await get(url)).raw));
    assert.equal(await isSlim(`/skins/${UNKNOWN_CLASSIC}`), false);
    assert.equal(await isSlim(`/skins/${UNKNOWN_SLIM}`), true);
    assert.equal(await isSlim(`/skins/${UNKNOWN_SLIM.replace(/-/g, '').toUpperCase()}`), true);
    assert.equal(await isSlim('/skins/nobody_here'), false);
    for (const [value, slimSkin] of [
      ['MHF_Alex', true],
      ['alex', true],
      ['ALEX', true],
      ['MHF_Steve', false],
      ['steve', false],
    ] as const) {
      assert.equal(await isSlim(`/skins/${UNKNOWN_SLIM.replace('1', '0')}?default=${value}`), slimSkin, value);
      assert.equal(await isSlim(`/skins/nobody_here?default=${value}`), slimSkin, value);
    }
    // Other values are ignored: no redirect, the rule above.
    for (const value of ['http://example.org/x.png', 'notch', UNKNOWN_SLIM]) {
      const reply = await get(`/skins/nobody_here?default=${encodeURIComponent(value)}`);
      assert.equal(reply.status, 200, value);
      assert.equal(reply.headers.location, undefined);
      assert.equal(isSlimSkin(decodePng(reply.raw)), false);
    }
    // A player with a skin keeps it whatever default says.
    assert.deepEqual((await get(`/skins/${classic.uuid}?default=alex`)).raw, (await get(`/skins/${classic.uuid}`)).raw);

    // Renders of the default are those of the shipped default skins.
    const expected = (slimModel: boolean) =>
      renderImage({ view: 'head', type: 'skin', size: 160, skin: defaultSkin(slimModel), slim: slimModel, overlay: false });
    assert.deepEqual((await get(`/avatars/${UNKNOWN_SLIM}`)).raw, expected(true));
    assert.deepEqual((await get(`/avatars/nobody_here`)).raw, expected(false));
    assert.deepEqual((await get(`/avatars/${UNKNOWN_SLIM}?default=steve`)).raw, expected(false));
    assert.deepEqual((await get(`/skins/nobody_here?default=alex`)).raw, encodePng(defaultSkin(true)));
    const bareSkin = isSlimSkin(decodePng((await get(`/skins/${bare.uuid}?default=alex`)).raw));
    assert.equal(bareSkin, true, 'a player without a skin gets the default asked for');
  });

  it('names and UUIDs in every spelling, any file extension; 400 for an id that is neither', async () => {
    const etag = (await get(`/avatars/${classic.uuid}?size=64`)).headers.etag;
    for (const id of [
      classic.uuid.replace(/-/g, ''),
      classic.uuid.toUpperCase(),
      classic.username,
      classic.username.toUpperCase(),
      `${classic.username}.png`,
      `${classic.uuid}.jpg`,
      `${classic.username}.png.gif`,
    ]) {
      const reply = await get(`/avatars/${id}?size=64`);
      assert.equal(reply.status, 200, id);
      assert.equal(reply.headers.etag, etag, id);
    }
    assert.equal((await get(`/skins/${classic.username}.png`)).status, 200);
    assert.equal((await get(`/renders/body/${classic.username}.png`)).status, 200);
    for (const id of ['not-a-name!', 'seventeen_chars_x', '.png']) {
      const reply = await get(`/avatars/${encodeURIComponent(id)}`);
      assert.equal(reply.status, 400, id);
      assert.match(reply.body.msg, /neither a player name/);
    }
  });

  it('ETags and 304 on every family; the same ETag and render cache as the own endpoints', async () => {
    for (const url of [
      `/avatars/${classic.uuid}`,
      `/renders/head/${classic.uuid}?overlay`,
      `/renders/body/${classic.uuid}`,
      `/skins/${classic.uuid}`,
      `/capes/${classic.uuid}`,
      `/avatars/nobody_here`,
    ]) {
      const first = await get(url);
      assert.match(String(first.headers.etag), /^".+"$/, url);
      const again = await get(url, { 'if-none-match': String(first.headers.etag) });
      assert.equal(again.status, 304, url);
      assert.equal(again.raw.length, 0);
    }
    // The same render as the own endpoint's, from the same cache: the second asks renders nothing new.
    const before = await imageCacheFigures(service);
    const own = await get(`/api/skin/head/${slim.uuid}?size=100&type=player&overlay=false`);
    const middle = await imageCacheFigures(service);
    const dropIn = await get(`/renders/head/${slim.uuid}?scale=5`);
    const afterwards = await imageCacheFigures(service);
    assert.equal(middle.renderMisses, before.renderMisses + 1, 'the own endpoint rendered it');
    assert.equal(afterwards.renderMisses, middle.renderMisses, 'the drop-in URL rendered nothing');
    assert.equal(afterwards.renderHits, middle.renderHits + 1);
    assert.deepEqual(dropIn.raw, own.raw);
    assert.equal(dropIn.headers.etag, own.headers.etag);
  });

  it('ignores parameters it does not know, and keeps them out of its cache keys', async () => {
    const url = `/avatars/${slim.uuid}?size=33&overlay`;
    const first = await get(url);
    const before = await imageCacheFigures(service);
    for (let index = 0; index < 50; index += 1) {
      const reply = await get(`${url}&_=${index}&cachebust=${Math.random()}`);
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.raw, first.raw);
    }
    const afterwards = await imageCacheFigures(service);
    assert.equal(afterwards.answerHits - before.answerHits, 50, 'every junk URL answered from the one entry');
    assert.equal(afterwards.renderMisses, before.renderMisses);
    assert.equal(afterwards.bytes.answers, before.bytes.answers, 'no cache grew');
    assert.equal(afterwards.bytes.renders, before.bytes.renders);
  });

  it('follows a change of skin at once (the resolution and answers are forgotten)', async () => {
    const player = await service.registerPlayer();
    const uuid = (await service.call('GET', '/api/home', { token: player.token })).body.data.Uuid as string;
    const none = await get(`/skins/${uuid}?default=steve`);
    assert.equal(isSlimSkin(decodePng(none.raw)), false);
    await service.upload('/api/home/skins', player.token, {}, skinFile('slim'));
    const now = await get(`/skins/${uuid}?default=steve`);
    assert.deepEqual(decodePng(now.raw).data, decodePng(fixture('skins/slim.png')).data);
  });
});
