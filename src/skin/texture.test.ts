import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodedFixture } from '../../test/support/rendering.ts';
import { defaultModelIsSlim, gameDefaultSkinIndex, hasHat, isSlimSkin, javaUuidHashCode, type RgbaImage } from './texture.ts';

describe('isSlimSkin', () => {
  for (const [file, slim] of [
    ['skins/slim.png', true],
    ['skins/classic.png', false],
    ['skins/classic-16bit.png', false],
    ['skins/hd-128.png', false],
    ['skins/no-overlay.png', false],
    ['skins/flat-palette.png', false],
    ['skins/legacy-64x32.png', false],
  ] as const) {
    it(`${file}: ${slim ? 'slim' : 'classic'}`, () => assert.equal(isSlimSkin(decodedFixture(file)), slim));
  }
});

describe('hasHat', () => {
  const legacyWithHatAlpha = (alpha: (x: number, y: number) => number): RgbaImage => {
    const image = { width: 64, height: 32, data: new Uint8Array(64 * 32 * 4) };
    for (let y = 0; y < 32; y++) for (let x = 0; x < 64; x++) image.data[(y * 64 + x) * 4 + 3] = x >= 32 && y < 16 ? alpha(x, y) : 255;
    return image;
  };
  it('a 64x64 skin always has one', () => assert.equal(hasHat(decodedFixture('skins/classic.png')), true));
  it('an old 64x32 skin whose hat area is opaque all over has none (old editors filled it)', () =>
    assert.equal(hasHat(legacyWithHatAlpha(() => 255)), false));
  it('an old 64x32 skin with one transparent pixel in the hat area has one', () =>
    assert.equal(hasHat(legacyWithHatAlpha((x, y) => (x === 40 && y === 3 ? 0 : 255))), true));
});

describe("the game's default skin of a player without one (contract section 25)", () => {
  // wire-shapes-26.md section 8: DR296's vectors and NMSR's hashes, recomputed there; index < 9 is slim.
  const vectors = [
    ['00000000-0000-0000-0000-000000000000', 0, 0, 'slim/alex'],
    ['f9c8e2a1-4b3d-4e5f-8a9b-0c1d2e3f4a5b', 374467256, 8, 'slim/zuri'],
    ['a1b2c3d4-e5f6-7788-99aa-bbccddeeff00', 61584, 6, 'slim/steve'],
    ['12345678-9abc-def0-1234-567890abcdef', 169284383, 17, 'wide/zuri'],
    ['0193b3c9-1a2b-7c3d-8e4f-a5b6c7d8e9fa', 1378845624, 12, 'wide/kai'],
    ['cafebabe-0000-0000-1111-222233334444', -388178728, 2, 'slim/efe'],
    ['8f59cdb2-f575-4768-b0e6-2e0b0be19557', -1054133882, 10, 'wide/ari'],
    ['0d8d9d75-4a5a-4579-9e3c-1063c2d9c505', 456265066, 4, 'slim/makena'],
  ] as const;
  for (const [uuid, hashCode, index, skin] of vectors) {
    it(`${uuid}: hashCode ${hashCode}, index ${index} (${skin})`, () => {
      assert.equal(javaUuidHashCode(uuid), hashCode);
      assert.equal(gameDefaultSkinIndex(uuid), index);
      assert.equal(defaultModelIsSlim(uuid), skin.startsWith('slim/'));
      assert.equal(defaultModelIsSlim(uuid.replace(/-/g, '').toUpperCase()), skin.startsWith('slim/'), 'any spelling');
    });
  }
  it('is classic when there is no player (a skin or cape UUID)', () => assert.equal(defaultModelIsSlim(null), false));
});
