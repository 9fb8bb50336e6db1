import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { chunk, deflatedPieces, MiB, peakMemory, pngOf, rgbaHeader } from '../../test/support/png-chunks.ts';
import { encodeVariant } from '../../test/support/png-variants.ts';
import { fixture } from '../../test/support/fixtures.ts';
import { decodedFixture, facesOf, texelAt } from '../../test/support/rendering.ts';
import { openPng, PngError } from './png-decode.ts';
import { decodePng } from './png.ts';

/** A non-interlaced RGBA PNG of the given bit depth around already deflated image data, one IDAT per piece. */
const rgbaPng = (width: number, height: number, bitDepth: 8 | 16, ...deflated: Buffer[]) =>
  pngOf(rgbaHeader(width, height, { bitDepth }), ...deflated.map((piece) => chunk('IDAT', piece)));

describe('decodePng', () => {
  it('expands an indexed-colour PNG with tRNS to RGBA', () => {
    const skin = decodedFixture('skins/flat-palette.png');
    assert.equal(skin.data.length, 64 * 64 * 4);
    for (const [name, face] of Object.entries(facesOf('skins/flat-palette.png'))) {
      const [x, y] = face.rect;
      assert.deepEqual(texelAt(skin, x, y), [...face.colour, 255], name);
      if (face.opaqueRows) assert.equal(texelAt(skin, x, y + 2)[3], 0, `${name}: transparent rows`);
    }
  });

  it('scales 16-bit channels down to the same 8-bit texels', () => {
    assert.deepEqual(decodedFixture('skins/classic-16bit.png').data, decodedFixture('skins/classic.png').data);
  });

  // A 13x11 test card: grey level from the position, alpha stepping down the rows.
  const width = 13;
  const height = 11;
  const grey = (x: number, y: number) => (x * 19 + y * 7) % 256;
  const alpha = (y: number) => 255 - y * 20;

  it('expands grey and grey+alpha files', () => {
    for (const colorType of [0, 4] as const) {
      const png = new PNG({ width, height, colorType, inputColorType: 6, inputHasAlpha: true });
      const expected = new Uint8Array(width * height * 4);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          expected.set([grey(x, y), grey(x, y), grey(x, y), colorType === 4 ? alpha(y) : 255], (y * width + x) * 4);
        }
      }
      png.data = Buffer.from(expected);
      assert.deepEqual(decodePng(PNG.sync.write(png, { colorType, inputColorType: 6 })).data, expected, `colour type ${colorType}`);
    }
  });

  it('reads Adam7-interlaced files', () => {
    const expected = new Uint8Array(width * height * 4);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) expected.set([grey(x, y), 255 - grey(x, y), x * 10, alpha(y)], (y * width + x) * 4);
    assert.deepEqual(decodePng(encodeVariant({ width, height, data: expected }, { colourType: 6, interlaced: true })).data, expected);
  });
});

describe('openPng (every upload)', () => {
  it('decodes every fixture and variant exactly as decodePng does', async () => {
    const classic = decodePng(fixture('skins/classic.png'));
    const files = [
      ...['classic-16bit', 'classic', 'flat-palette', 'hd-128', 'legacy-64x32', 'no-overlay', 'slim'].map((name) =>
        fixture(`skins/${name}.png`),
      ),
      ...['cape-hd-128x64', 'cape'].map((name) => fixture(`capes/${name}.png`)),
      encodeVariant(classic, { colourType: 4, interlaced: false }),
      encodeVariant(classic, { colourType: 4, interlaced: true }),
      encodeVariant(classic, { colourType: 6, interlaced: true }),
    ];
    for (const [index, file] of files.entries()) assert.deepEqual(await openPng(file).decode(), decodePng(file), `file ${index}`);
  });

  // 64x32 8-bit RGBA rows of bytes that do not repeat, each of the five filter types in turn.
  const rowLength = 1 + 64 * 4;
  const filteredRows = (rows = 32) => {
    const filtered = Buffer.alloc(rows * rowLength);
    for (let at = 0; at < filtered.length; at++) filtered[at] = at % rowLength === 0 ? (at / rowLength) % 5 : (at * 31 + (at >> 7)) & 0xff;
    return filtered;
  };
  const piecesOf = (bytes: Buffer, size: number) =>
    Array.from({ length: Math.ceil(bytes.length / size) }, (_, piece) => bytes.subarray(piece * size, (piece + 1) * size));

  it('reads rows split anywhere across many IDATs', async () => {
    const whole = rgbaPng(64, 32, 8, deflateSync(filteredRows()));
    const split = rgbaPng(64, 32, 8, ...piecesOf(deflateSync(filteredRows()), 5));
    assert.deepEqual(await openPng(split).decode(), decodePng(whole));
  });

  it('refuses too little data, data after the last row, a bad filter byte and damaged zlib data', async () => {
    const badFilter = filteredRows();
    badFilter[31 * rowLength] = 5;
    const damagedStream = deflateSync(filteredRows());
    damagedStream.fill(0xff, 40, 60);
    const files: [string, Buffer][] = [
      ['one row short', rgbaPng(64, 32, 8, deflateSync(filteredRows(31)))],
      ['one byte short', rgbaPng(64, 32, 8, deflateSync(filteredRows().subarray(1)))],
      ['one byte more', rgbaPng(64, 32, 8, deflateSync(Buffer.concat([filteredRows(), Buffer.alloc(1)])))],
      ['a bad filter byte in the last row', rgbaPng(64, 32, 8, deflateSync(badFilter))],
      ['damaged zlib data', rgbaPng(64, 32, 8, damagedStream)],
      ['a cut zlib stream', rgbaPng(64, 32, 8, deflateSync(filteredRows()).subarray(0, 100))],
    ];
    for (const [construction, file] of files) {
      await assert.rejects(openPng(file).decode(), (error) => error instanceof PngError && error.problem === 'truncated', construction);
      assert.throws(
        () => decodePng(file),
        (error) => error instanceof PngError && error.problem === 'truncated',
        construction,
      );
    }
  });

  it('decodes a 4096x4096 RGBA file (the largest MAX_SKIN_WIDTH) without holding its 64 MiB of filtered rows', async () => {
    const side = 4096;
    const rowBytes = side * 4;
    // The first row a gradient, every later row "same as above" (filter 2, all zero): an honest file that deflates
    // small, so that only the decode moves the peak.
    const first = Buffer.alloc(1 + rowBytes);
    for (let at = 1; at <= rowBytes; at++) first[at] = (at * 7) & 0xff;
    const same = Buffer.alloc(1 + rowBytes);
    same[0] = 2;
    const rows = function* () {
      yield first;
      for (let row = 1; row < side; row++) yield same;
    };
    const file = rgbaPng(side, side, 8, await deflatedPieces(rows(), 1));
    const decoded = side * side * 4;
    const peakBefore = peakMemory();
    const image = await openPng(file).decode();
    const grown = peakMemory() - peakBefore;
    // Held at once before: the 64 MiB of rows twice (zlib gathers its pieces, then joins them) and the image. Now the
    // image, two rows, and the pieces zlib handed over that the garbage collector has not yet freed (about 20 MiB).
    assert.ok(grown < decoded + 32 * MiB, `peak memory grew by ${(grown / MiB).toFixed(1)} MiB for a ${decoded / MiB} MiB image`);
    assert.deepEqual(image.data.subarray((side - 1) * rowBytes, (side - 1) * rowBytes + 4), new Uint8Array(first.subarray(1, 5)));
  });
});
