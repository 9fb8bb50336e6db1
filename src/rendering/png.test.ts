import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { encodeVariant } from '../../test/support/png-variants.ts';
import { decodedFixture, facesOf, texelAt } from '../../test/support/rendering.ts';
import { decodePng } from './png.ts';

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
