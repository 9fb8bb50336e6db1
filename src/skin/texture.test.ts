import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodedFixture } from '../../test/support/rendering.ts';
import { defaultModelIsSlim, hasHat, isSlimSkin, type RgbaImage } from './texture.ts';

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

describe('defaultModelIsSlim', () => {
  it('follows the parity of the UUID words XORed together, as the game does', () => {
    assert.equal(defaultModelIsSlim('00000000-0000-0000-0000-000000000000'), false);
    assert.equal(defaultModelIsSlim('00000000-0000-0000-0000-000000000001'), true);
    assert.equal(defaultModelIsSlim('00000001-0000-0000-0000-000000000001'), false, 'two odd words cancel');
    assert.equal(defaultModelIsSlim('00000000000000000000000100000000'), true, 'with or without dashes');
  });
  it('is classic when there is no player (a skin or cape UUID)', () => assert.equal(defaultModelIsSlim(null), false));
});
