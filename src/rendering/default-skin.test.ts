import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultSkin } from './default-skin.ts';
import { boxLayout, skinParts } from '../skin/layout.ts';
import { isSlimSkin } from '../skin/texture.ts';
import { decodedFixture, saveRender } from '../../test/support/rendering.ts';
import { decodePng } from './png.ts';
import { renderImage } from './render.ts';

describe('default skins', () => {
  for (const slim of [false, true]) {
    const name = slim ? 'slim' : 'classic';

    it(`${name}: a 64x64 skin detected as ${name}, loaded once`, () => {
      const skin = defaultSkin(slim);
      assert.equal(skin.width, 64);
      assert.equal(skin.height, 64);
      assert.equal(isSlimSkin(skin), slim);
      assert.equal(defaultSkin(slim), skin);
    });

    it(`${name}: every face of the base layer painted, the second layer mostly transparent`, () => {
      const skin = defaultSkin(slim);
      let overlayTexels = 0;
      let opaqueOverlayTexels = 0;
      for (const part of skinParts(slim)) {
        for (const layer of ['base', 'overlay'] as const) {
          for (const [face, [x, y, width, height]] of Object.entries(boxLayout(...part[layer], part.size))) {
            for (let row = y; row < y + height; row++) {
              for (let column = x; column < x + width; column++) {
                const alpha = skin.data[(row * 64 + column) * 4 + 3];
                if (layer === 'base') assert.equal(alpha, 255, `${part.name} ${face} at ${column},${row}`);
                else {
                  overlayTexels++;
                  if (alpha !== 0) opaqueOverlayTexels++;
                }
              }
            }
          }
        }
      }
      assert.ok(opaqueOverlayTexels > 0 && opaqueOverlayTexels < overlayTexels / 4, `${opaqueOverlayTexels} of ${overlayTexels}`);
    });

    it(`${name}: renders in every view`, () => {
      const cape = decodedFixture('capes/cape.png');
      for (const view of ['head', 'body', 'cloak'] as const) {
        for (const type of ['skin', 'player'] as const) {
          const png = renderImage({ view, type, size: 200, skin: defaultSkin(slim), slim, cape });
          saveRender(`default-${name}-${view}-${type}`, png);
          const image = decodePng(png);
          const opaque = image.data.filter((value, index) => index % 4 === 3 && value === 255).length;
          assert.ok(opaque > (image.width * image.height) / 4, `${view} ${type}: ${opaque} opaque pixels`);
        }
      }
    });
  }
});
