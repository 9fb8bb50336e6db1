// What every render promises whatever it shows: its dimensions and the accepted sizes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodePng } from './png.ts';
import { decodedFixture, saveRender } from '../../test/support/rendering.ts';
import { MAX_RENDER_SIZE, MIN_RENDER_SIZE, renderDimensions, renderImage } from './render.ts';

const VIEWS = ['head', 'body', 'cloak'] as const;
const TYPES = ['skin', 'player'] as const;

describe('output dimensions', () => {
  const skin = decodedFixture('skins/classic.png');
  const cape = decodedFixture('capes/cape.png');
  for (const size of [MIN_RENDER_SIZE, 100, 333, MAX_RENDER_SIZE]) {
    for (const view of VIEWS) {
      for (const type of TYPES) {
        it(`${view} ${type} at ${size}: ${view === 'head' ? 'size x size' : 'size wide'}, as announced`, () => {
          const png = renderImage({ view, type, size, skin, slim: false, cape });
          saveRender(`dimensions-${view}-${type}-${size}`, png);
          const image = decodePng(png);
          assert.deepEqual({ width: image.width, height: image.height }, renderDimensions({ view, type, size }));
          assert.equal(image.width, size);
          if (view === 'head') assert.equal(image.height, size);
          else assert.ok(image.height > size * 1.5, 'bodies and cloaks are taller than wide');
          assert.ok(
            image.data.some((value, index) => index % 4 === 3 && value === 255),
            'something is drawn',
          );
        });
      }
    }
  }

  it('flat bodies are twice as tall as wide, flat cloaks 16:10', () => {
    assert.deepEqual(renderDimensions({ view: 'body', type: 'skin', size: 100 }), { width: 100, height: 200 });
    assert.deepEqual(renderDimensions({ view: 'cloak', type: 'skin', size: 100 }), { width: 100, height: 160 });
  });

  it('the same dimensions for classic, slim and legacy skins', () => {
    for (const [file, slim] of [
      ['skins/slim.png', true],
      ['skins/legacy-64x32.png', false],
      ['skins/hd-128.png', false],
    ] as const) {
      const image = decodePng(renderImage({ view: 'body', type: 'player', size: 120, skin: decodedFixture(file), slim }));
      assert.deepEqual({ width: image.width, height: image.height }, renderDimensions({ view: 'body', type: 'player', size: 120 }));
    }
  });
});

describe('texture memory', () => {
  it('textures at any offset in any kind of byte array render the same', () => {
    const skin = decodedFixture('skins/classic.png');
    const shiftedBuffer = Buffer.alloc(skin.data.length + 1).subarray(1);
    shiftedBuffer.set(skin.data);
    const request = { view: 'body', type: 'player', size: 64, slim: false } as const;
    assert.deepEqual(renderImage({ ...request, skin: { ...skin, data: shiftedBuffer } }), renderImage({ ...request, skin }));
  });
});

describe('requests the renderer refuses', () => {
  const skin = decodedFixture('skins/classic.png');
  for (const size of [MIN_RENDER_SIZE - 1, MAX_RENDER_SIZE + 1, 100.5, Number.NaN]) {
    it(`size ${size}`, () => {
      assert.throws(() => renderImage({ view: 'head', type: 'skin', size, skin, slim: false }), RangeError);
      assert.throws(() => renderDimensions({ view: 'head', type: 'skin', size }), RangeError);
    });
  }
  it('a cloak without a cape', () => {
    assert.throws(() => renderImage({ view: 'cloak', type: 'player', size: 100, skin, slim: false }), RangeError);
  });
  it('textures of the wrong shape', () => {
    const square = { width: 64, height: 48, data: new Uint8Array(64 * 48 * 4) };
    assert.throws(() => renderImage({ view: 'head', type: 'skin', size: 100, skin: square, slim: false }), RangeError);
    assert.throws(() => renderImage({ view: 'cloak', type: 'skin', size: 100, skin, slim: false, cape: skin }), RangeError);
  });
});
