// Minotar-style URLs (contract section 13) against the fixture skins with one colour per face.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { defaultSkin } from '../rendering/default-skin.ts';
import { decodePng, encodePng } from '../rendering/png.ts';
import { renderImage } from '../rendering/render.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { fixture, skinFile } from '../../test/support/fixtures.ts';
import { imageCacheFigures } from '../../test/support/image-metrics.ts';
import { facePixels, facesOf, pixelAt } from '../../test/support/rendering.ts';
import { startService, type TestService } from '../../test/support/service.ts';

/** Nobody has these; the game draws the first slim (slim/efe), the second wide (wide/zuri): wire-shapes-26.md 8. */
const UNKNOWN_SLIM = 'cafebabe-0000-0000-1111-222233334444';
const UNKNOWN_CLASSIC = '12345678-9abc-def0-1234-567890abcdef';

/** Pixels per face of a render, traced back to the fixture's faces by colour. */
const facesIn = (png: Buffer, file = 'skins/classic.png') => {
  const found = facePixels(decodePng(png), facesOf(file));
  return (predicate: (face: string) => boolean) =>
    [...found].filter(([face]) => predicate(face)).reduce((sum, [, points]) => sum + points.length, 0);
};
const overlay = (face: string) => face.includes('.overlay.');
const leg = (face: string) => face.includes('Leg.');

describeEachDatabase('Minotar-style URLs', (kind) => {
  let service: TestService;
  type Player = { uuid: string; username: string; token: string };
  let classic: Player;
  let slim: Player;
  before(async () => {
    service = await startService(kind);
    const player = async (skin: string): Promise<Player> => {
      const registered = await service.registerPlayer();
      const uuid = (await service.call('GET', '/api/home', { token: registered.token })).body.data.Uuid as string;
      await service.upload('/api/home/skins', registered.token, {}, skinFile(skin));
      return { ...registered, uuid };
    };
    [classic, slim] = [await player('classic'), await player('slim')];
  });
  after(async () => service?.close());
  const get = (url: string, headers?: Record<string, string>) => service.call('GET', url, { headers });
  const size = async (url: string) => {
    const reply = await get(url);
    assert.equal(reply.status, 200, url);
    const image = decodePng(reply.raw);
    return [image.width, image.height];
  };

  it('avatar is the face alone, helm adds the hat; both flat and square', async () => {
    const avatar = await get(`/avatar/${classic.username}/64`);
    assert.equal(avatar.headers['content-type'], 'image/png');
    assert.equal(
      facesIn(avatar.raw)((face) => face === 'head.base.front'),
      64 * 64,
    );
    const helm = facesIn((await get(`/helm/${classic.username}/64`)).raw);
    assert.ok(helm((face) => face === 'head.overlay.front') > 0);
    assert.equal(
      helm((face) => !face.startsWith('head.') || !face.endsWith('.front')),
      0,
    );
  });

  it('cube is the 3D head without its hat: top, front and one side', async () => {
    const cube = facesIn((await get(`/cube/${classic.uuid}/120`)).raw);
    for (const face of ['top', 'front', 'right']) assert.ok(cube((name) => name === `head.base.${face}`) > 0, face);
    assert.equal(cube(overlay), 0);
    assert.equal(
      cube((face) => face === 'unexplained' || !face.startsWith('head.')),
      0,
    );
  });

  it('body is the flat front of the whole player, base layer only; slim arms leave the outer columns empty', async () => {
    const body = await get(`/body/${classic.username}/160`);
    assert.deepEqual([decodePng(body.raw).width, decodePng(body.raw).height], [160, 320]);
    const faces = facesIn(body.raw);
    for (const part of ['head', 'body', 'rightArm', 'leftArm', 'rightLeg', 'leftLeg']) {
      assert.ok(faces((face) => face === `${part}.base.front`) > 0, part);
    }
    assert.equal(faces(overlay), 0);
    const slimBody = decodePng((await get(`/body/${slim.username}/160`)).raw);
    assert.equal(pixelAt(slimBody, 5, 100)[3], 0, 'slim: the outermost texel column is empty');
    assert.equal(pixelAt(slimBody, 15, 100)[3], 255);
  });

  it('bust is head, torso and arms without legs, square, base layer only', async () => {
    const bust = await get(`/bust/${classic.uuid}/160`);
    assert.deepEqual([decodePng(bust.raw).width, decodePng(bust.raw).height], [160, 160]);
    const faces = facesIn(bust.raw);
    for (const part of ['head', 'body', 'rightArm', 'leftArm']) assert.ok(faces((face) => face === `${part}.base.front`) > 0, part);
    assert.equal(faces(leg), 0);
    assert.equal(faces(overlay), 0);
  });

  it('sizes: default 180, anything not a number 180, clamped to 8-300', async () => {
    for (const [path, width] of [
      ['', 180],
      ['/abc', 180],
      ['/1e2', 180],
      ['/100', 100],
      ['/8', 8],
      ['/5', 8],
      ['/0', 8],
      ['/-40', 8],
      ['/300', 300],
      ['/301', 300],
      ['/99999999999999999999', 300],
      ['/64.png', 64],
    ] as const) {
      assert.deepEqual(await size(`/avatar/${classic.username}${path}`), [width, width], path);
    }
    assert.deepEqual(await size(`/body/${classic.username}/1000`), [300, 600]);
    assert.deepEqual(await size(`/cube/${classic.username}/2`), [8, 8]);
  });

  it('skin and download: the skin file, download as an attachment; .png optional', async () => {
    const skin = await get(`/skin/${classic.username}`);
    assert.equal(skin.status, 200);
    assert.deepEqual(decodePng(skin.raw).data, decodePng(fixture('skins/classic.png')).data);
    assert.equal(skin.headers['content-disposition'], undefined);
    const own = await get(`/api/skin/cloak/${classic.uuid}`);
    assert.deepEqual(skin.raw, own.raw);
    assert.equal(skin.headers.etag, own.headers.etag);
    const download = await get(`/download/${classic.uuid}.png`);
    assert.equal(download.status, 200);
    assert.equal(download.headers['content-disposition'], 'attachment; filename="skin.png"');
    assert.deepEqual(download.raw, skin.raw);
    assert.deepEqual((await get(`/skin/${classic.username}.png`)).raw, skin.raw);
  });

  it('an unknown name is Steve; an unknown UUID has the model the game gives it (contract section 25)', async () => {
    const head = (slimModel: boolean) =>
      renderImage({ view: 'head', type: 'skin', size: 180, skin: defaultSkin(slimModel), slim: slimModel, overlay: false });
    assert.deepEqual((await get('/avatar/nobody_here')).raw, head(false));
    assert.deepEqual((await get(`/avatar/${UNKNOWN_SLIM}`)).raw, head(true));
    assert.deepEqual((await get(`/avatar/${UNKNOWN_CLASSIC}`)).raw, head(false));
    assert.deepEqual((await get(`/skin/${UNKNOWN_SLIM}`)).raw, encodePng(defaultSkin(true)));
    assert.deepEqual((await get(`/skin/${UNKNOWN_CLASSIC.replace(/-/g, '')}`)).raw, encodePng(defaultSkin(false)));
    const body = (slimModel: boolean) =>
      renderImage({ view: 'body', type: 'skin', size: 100, skin: defaultSkin(slimModel), slim: slimModel, overlay: false });
    assert.deepEqual((await get(`/body/${UNKNOWN_SLIM}/100`)).raw, body(true), 'slim arms on the body');
    assert.notDeepEqual(body(true), body(false));
    assert.equal((await get(`/download/nobody_here`)).headers['content-disposition'], 'attachment; filename="skin.png"');
  });

  it('names and UUIDs in every spelling; other extensions, cubehelm and armor are not served', async () => {
    const etag = (await get(`/helm/${classic.uuid}/50`)).headers.etag;
    for (const id of [classic.uuid.replace(/-/g, ''), classic.uuid.toUpperCase(), classic.username, classic.username.toLowerCase()]) {
      assert.equal((await get(`/helm/${id}/50.png`)).headers.etag, etag, id);
    }
    for (const url of [
      `/avatar/${classic.username}.svg`,
      `/avatar/${classic.username}/64.svg`,
      `/cubehelm/${classic.username}`,
      `/armor/bust/${classic.username}`,
      `/armour/body/${classic.username}/100`,
      `/skin/${classic.username}/100`,
    ]) {
      assert.equal((await get(url)).status, 404, url);
    }
    assert.equal((await get('/avatar/not-a-name!')).status, 400);
  });

  it('ETags and 304 on every kind, query parameters ignored and kept out of the cache keys', async () => {
    for (const kind of ['avatar', 'helm', 'cube', 'body', 'bust', 'skin', 'download']) {
      const url = `/${kind}/${slim.username}`;
      const first = await get(url);
      assert.match(String(first.headers.etag), /^".+"$/, url);
      assert.equal((await get(url, { 'if-none-match': String(first.headers.etag) })).status, 304, url);
    }
    const url = `/cube/${slim.uuid}/77`;
    const first = await get(url);
    const before = await imageCacheFigures(service);
    for (let index = 0; index < 30; index += 1) {
      const reply = await get(`${url}?v=${index}&size=12&overlay`);
      assert.deepEqual(reply.raw, first.raw, 'size and overlay are not parameters here');
    }
    const afterwards = await imageCacheFigures(service);
    assert.equal(afterwards.answerHits - before.answerHits, 30);
    assert.equal(afterwards.bytes.answers, before.bytes.answers);
    assert.equal(afterwards.renderMisses, before.renderMisses);
  });

  it('shares the render cache and ETags with the own endpoints', async () => {
    const own = await get(`/api/skin/body/${classic.uuid}?size=140&overlay=false`);
    const before = await imageCacheFigures(service);
    const dropIn = await get(`/body/${classic.username}/140`);
    const afterwards = await imageCacheFigures(service);
    assert.equal(dropIn.headers.etag, own.headers.etag);
    assert.deepEqual(dropIn.raw, own.raw);
    assert.equal(afterwards.renderMisses, before.renderMisses);
  });
});
