// The service's own image endpoints take `overlay` (contract section 13) and serve the bust (issue 17).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { decodePng } from '../rendering/png.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { skinFile } from '../../test/support/fixtures.ts';
import { facePixels, facesOf } from '../../test/support/rendering.ts';
import { startService, type TestService } from '../../test/support/service.ts';

const overlayPixels = (png: Buffer) =>
  [...facePixels(decodePng(png), facesOf('skins/classic.png'))].filter(([face]) => face.includes('.overlay.')).length;

describeEachDatabase('overlay and bust on the own image endpoints', (kind) => {
  let service: TestService;
  let uuid: string;
  before(async () => {
    service = await startService(kind);
    const player = await service.registerPlayer();
    uuid = (await service.call('GET', '/api/home', { token: player.token })).body.data.Uuid;
    await service.upload('/api/home/skins', player.token, {}, skinFile('classic'));
  });
  after(async () => service?.close());
  const get = (url: string, headers?: Record<string, string>) => service.call('GET', url, { headers });

  it('draws the second layer by default and with overlay=true, leaves it out with overlay=false', async () => {
    for (const path of ['head', 'body', 'bust']) {
      for (const type of ['skin', 'player']) {
        const base = `/api/skin/${path}/${uuid}?type=${type}&size=120`;
        const [byDefault, withIt, without] = await Promise.all([get(base), get(`${base}&overlay=true`), get(`${base}&overlay=false`)]);
        for (const reply of [byDefault, withIt, without]) assert.equal(reply.status, 200, base);
        assert.deepEqual(withIt.raw, byDefault.raw, 'true is the default');
        assert.equal(withIt.headers.etag, byDefault.headers.etag);
        assert.ok(overlayPixels(byDefault.raw) > 0, `${base}: second layer drawn`);
        assert.equal(overlayPixels(without.raw), 0, `${base}: no second layer`);
        assert.notEqual(without.headers.etag, byDefault.headers.etag, 'the flag is part of the ETag');
        const { width, height } = decodePng(without.raw);
        assert.deepEqual([width, height], [decodePng(byDefault.raw).width, decodePng(byDefault.raw).height]);
      }
    }
  });

  it('refuses any other overlay value with 400, and still refuses unknown parameters', async () => {
    for (const query of ['overlay=1', 'overlay=no', 'overlay=', 'overlay', 'overlay=TRUE', 'helm=1']) {
      const reply = await get(`/api/skin/head/${uuid}?${query}`);
      assert.equal(reply.status, 400, query);
      assert.deepEqual({ ...reply.body, msg: '' }, { error: true, msg: '', url: null, data: {} });
      assert.match(reply.body.msg, query.startsWith('helm') ? /"helm" is not accepted/ : /overlay/);
    }
  });

  it('serves the bust: flat it is square, in 3D shorter than the body; 304 on its ETag; 404 for nobody', async () => {
    const flat = await get(`/api/skin/bust/${uuid}?size=90`);
    assert.equal(flat.status, 200);
    assert.equal(flat.headers['content-type'], 'image/png');
    assert.deepEqual([decodePng(flat.raw).width, decodePng(flat.raw).height], [90, 90]);
    const found = facePixels(decodePng(flat.raw), facesOf('skins/classic.png'));
    assert.deepEqual(
      [...found.keys()].filter((face) => face.includes('Leg')),
      [],
      'no legs',
    );
    const bust3d = decodePng((await get(`/api/skin/bust/${uuid}?type=player&size=90`)).raw);
    const body3d = decodePng((await get(`/api/skin/body/${uuid}?type=player&size=90`)).raw);
    assert.equal(bust3d.width, 90);
    assert.ok(bust3d.height < body3d.height);
    assert.equal((await get(`/api/skin/bust/${uuid}?size=90`, { 'if-none-match': String(flat.headers.etag) })).status, 304);
    assert.equal((await get('/api/skin/bust/nobody_at_all')).status, 404);
  });
});
