import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc32, deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import type { RgbaImage } from '../skin/texture.ts';
import { decodedFixture, facesOf, texelAt } from '../../test/support/rendering.ts';
import { decodePng, encodePng } from './png.ts';

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
    assert.deepEqual(decodePng(interlacedPng({ width, height, data: expected })).data, expected);
  });
});

/** An RGBA PNG written with Adam7 interlacing (pngjs only writes non-interlaced files). */
function interlacedPng(image: RgbaImage): Buffer {
  const passes = [
    [0, 0, 8, 8],
    [4, 0, 8, 8],
    [0, 4, 4, 8],
    [2, 0, 4, 4],
    [0, 2, 2, 4],
    [1, 0, 2, 2],
    [0, 1, 1, 2],
  ];
  const scanlines: number[] = [];
  for (const [startX, startY, stepX, stepY] of passes) {
    for (let y = startY!; y < image.height; y += stepY!) {
      if (startX! >= image.width) break;
      scanlines.push(0); // filter: none
      for (let x = startX!; x < image.width; x += stepX!)
        scanlines.push(...image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4));
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header.set([8, 6, 0, 0, 1], 8); // 8-bit RGBA, Adam7
  const chunk = (type: string, body: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), body]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(scanlines))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('encodePng', () => {
  const images: [string, RgbaImage][] = [
    ['a skin', decodedFixture('skins/classic.png')],
    [
      'odd sizes and random bytes',
      { width: 37, height: 23, data: Uint8Array.from({ length: 37 * 23 * 4 }, (_, i) => (i * 2654435761) >>> 24) },
    ],
    ['one pixel', { width: 1, height: 1, data: Uint8Array.of(1, 2, 3, 4) }],
  ];
  for (const [name, image] of images) {
    it(`round-trips ${name} exactly`, () => {
      const decoded = decodePng(encodePng(image));
      assert.equal(decoded.width, image.width);
      assert.equal(decoded.height, image.height);
      assert.deepEqual(decoded.data, Uint8Array.from(image.data));
    });
  }

  it('is deterministic, and independent of where the pixels sit in memory', () => {
    const image = decodedFixture('skins/slim.png');
    // Pixels at an odd offset, in a Uint8Array and in a Buffer (whose slice() does not copy).
    const shifted = new Uint8Array(image.data.length + 1).subarray(1);
    shifted.set(image.data);
    const shiftedBuffer = Buffer.alloc(image.data.length + 1).subarray(1);
    shiftedBuffer.set(image.data);
    assert.deepEqual(encodePng(image), encodePng(image));
    assert.deepEqual(encodePng({ ...image, data: shifted }), encodePng(image));
    assert.deepEqual(encodePng({ ...image, data: shiftedBuffer }), encodePng(image));
  });
});
