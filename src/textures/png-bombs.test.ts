// Decompression bombs and damaged files through every upload route (contract section 15, "PNG input"): refused with
// a 400 and nothing stored, or (a compressed ancillary chunk) accepted without ever being inflated; never more
// memory than the image plus 64 MiB, never seconds of a stopped event loop.
import assert from 'node:assert/strict';
import { before, after, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { capeFile, skinFile } from '../../test/support/fixtures.ts';
import { chunk, deflatedPieces, MiB, peakMemory, pngOf, rgbaHeader } from '../../test/support/png-chunks.ts';
import { OWNER, randomAddress, startService, type TestService } from '../../test/support/service.ts';

/** Inflated size of every bomb: far past any image the settings allow, small enough to make quickly. */
const BOMB_BYTES = 256 * MiB;

const ihdr = (width: number, height: number, interlaced = false) => rgbaHeader(width, height, { interlaced });

/** `count` zero bytes deflated, a MiB at a time so that the zeros are never in memory at once. */
const deflatedZeros = (count: number) =>
  deflatedPieces(
    (function* () {
      for (let left = count; left > 0; left -= MiB) yield Buffer.alloc(Math.min(left, MiB));
    })(),
    9,
  );

/** The IDAT of a 64x32 RGBA image (a size both skins and capes may have), every row with filter byte `filter`. */
const imageData = (filter = 0, rows = 32) => {
  const filtered = Buffer.alloc(rows * (1 + 64 * 4), 0x7f);
  for (let row = 0; row < rows; row++) filtered[row * (1 + 64 * 4)] = filter;
  return chunk('IDAT', deflateSync(filtered));
};

describeEachDatabase('PNG bombs and damaged files', (kind) => {
  let service: TestService;
  let ownerToken: string;
  let zeros: Buffer;
  before(async () => {
    service = await startService(kind, { settings: { owner: OWNER } });
    ownerToken = await service.ownerToken();
    zeros = await deflatedZeros(BOMB_BYTES);
  });
  after(async () => service?.close());

  const stored = async () => ({
    textures: (await service.db.selectFrom('textures').select('digest').orderBy('digest').execute()).map((row) => row.digest),
    skins: (await service.db.selectFrom('skins').select('uuid').orderBy('uuid').execute()).map((row) => row.uuid),
    capes: (await service.db.selectFrom('capes').select('uuid').orderBy('uuid').execute()).map((row) => row.uuid),
  });

  /**
   * Logs a new player in on the web and the game (password hashing takes memory of its own), then returns a function
   * that uploads a file through the web upload, the game login's PUT and the admin cape upload.
   */
  async function uploaderToEveryRoute() {
    const player = await service.registerPlayer();
    const uuid = (await service.call('GET', '/api/home', { token: player.token })).body.data.Uuid as string;
    const game = await service.call('POST', '/api/yggdrasil/authserver/authenticate', {
      body: { username: player.mail, password: player.password },
      ip: randomAddress(),
    });
    const launcherPut = `/api/yggdrasil/api/user/profile/${uuid.replaceAll('-', '')}/skin`;
    return async (file: Buffer) => {
      const launcherFile = [{ field: 'file', filename: 'x.png', contentType: 'image/png', bytes: file }];
      return [
        ['web upload', await service.upload('/api/home/skins', player.token, {}, skinFile('bomb', file))],
        ['game PUT', await service.upload(launcherPut, game.body.accessToken, {}, launcherFile, 'PUT')],
        ['cape upload', await service.upload('/api/admin/user/cape/upload', ownerToken, { name: 'Bomb' }, capeFile('bomb', file))],
      ] as const;
    };
  }

  const refusals: [string, () => Buffer][] = [
    ['a huge IDAT behind a small IHDR', () => pngOf(ihdr(64, 32), chunk('IDAT', zeros))],
    ['a huge interlaced IDAT', () => pngOf(ihdr(64, 32, true), chunk('IDAT', zeros))],
    ['a second IHDR of 16384x16384', () => pngOf(ihdr(64, 32), ihdr(16384, 16384), chunk('IDAT', zeros))],
    ['too little image data', () => pngOf(ihdr(64, 32), imageData(0, 31))],
    ['a bad filter byte', () => pngOf(ihdr(64, 32), imageData(5))],
    ['bytes after IEND', () => Buffer.concat([pngOf(ihdr(64, 32), imageData()), Buffer.from('trailing')])],
    [
      'image data after the end of the compressed stream',
      () => {
        const whole = deflateSync(Buffer.alloc(32 * (1 + 64 * 4), 0));
        return pngOf(ihdr(64, 32), chunk('IDAT', Buffer.concat([whole, whole])));
      },
    ],
  ];
  for (const [construction, make] of refusals) {
    it(`refuses ${construction} with a 400 in every route, within the memory bound, storing nothing`, async () => {
      const file = make();
      assert.ok(file.length < service.settings.maxTextureBytes, 'the file is within the upload limit');
      const uploadEverywhere = await uploaderToEveryRoute();
      const before = await stored();
      const peakBefore = peakMemory();
      const started = performance.now();
      for (const [route, reply] of await uploadEverywhere(file)) {
        assert.equal(reply.status, 400, `${route}: ${reply.body.msg ?? reply.body.errorMessage}`);
        if (route !== 'game PUT') assert.match(reply.body.msg, /truncated or damaged/, route);
      }
      const seconds = (performance.now() - started) / 1000;
      const grown = peakMemory() - peakBefore;
      assert.ok(grown < 64 * MiB + 64 * 32 * 4, `peak memory grew by ${Math.round(grown / MiB)} MiB`);
      assert.ok(seconds < 5, `the three uploads took ${seconds.toFixed(1)} s`);
      assert.deepEqual(await stored(), before, 'no texture, skin or cape row');
    });
  }

  it('drops compressed text and colour profile chunks unread and accepts the image', async () => {
    const compressed = (keyword: string, prefix: Buffer) => Buffer.concat([Buffer.from(`${keyword}\0`, 'latin1'), prefix, zeros]);
    const file = pngOf(
      ihdr(64, 32),
      chunk('iCCP', compressed('profile', Buffer.from([0]))),
      chunk('zTXt', compressed('Comment', Buffer.from([0]))),
      chunk('iTXt', compressed('Comment', Buffer.from([1, 0, 0, 0]))),
      imageData(),
    );
    const uploadEverywhere = await uploaderToEveryRoute();
    const peakBefore = peakMemory();
    for (const [route, reply] of await uploadEverywhere(file)) {
      assert.equal(reply.status, route === 'game PUT' ? 204 : 200, `${route}: ${reply.body?.msg}`);
    }
    const grown = peakMemory() - peakBefore;
    assert.ok(grown < 64 * MiB, `peak memory grew by ${Math.round(grown / MiB)} MiB`);
  });
});
