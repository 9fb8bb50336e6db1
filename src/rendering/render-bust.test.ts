// The bust view and the overlay flag (issue 17): which texture faces show where, with and without the second layer.
// The existing views' tests (render-flat, render-3d, render) are unchanged; here every view is also drawn with
// overlay: false, and the bust (head, and the top 8 of 12 rows of torso and arms) flat and in 3D.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RgbaImage } from '../skin/texture.ts';
import {
  decodedFixture,
  facePixels,
  facesOf,
  meanX,
  pixelAt,
  saveRender,
  texelAt,
  type ManifestFace,
} from '../../test/support/rendering.ts';
import { decodePng } from './png.ts';
import { MIN_RENDER_SIZE, renderDimensions, renderImage, type RenderRequest } from './render.ts';

type Rgba = [number, number, number, number];
const TRANSPARENT: Rgba = [0, 0, 0, 0];

function render(name: string, request: RenderRequest): RgbaImage {
  const png = renderImage(request);
  saveRender(name, png);
  return decodePng(png);
}

const count = (found: Map<string, unknown[]>, predicate: (face: string) => boolean) =>
  [...found].filter(([face]) => predicate(face)).reduce((sum, [, points]) => sum + points.length, 0);
const isOverlay = (face: string) => face.includes('.overlay.');
const isLeg = (face: string) => face.startsWith('rightLeg.') || face.startsWith('leftLeg.');

/** The texel of a flat part: the base texel, with the overlay texel over it when drawn (the fixtures have no translucent texels). */
function frontTexel(texture: RgbaImage, base: ManifestFace, overlay: ManifestFace | undefined, mirrored: boolean) {
  return (column: number, row: number): Rgba => {
    const source = mirrored ? base.rect[2] - 1 - column : column;
    const under = texelAt(texture, base.rect[0] + source, base.rect[1] + row);
    const over = overlay && texelAt(texture, overlay.rect[0] + source, overlay.rect[1] + row);
    return over && over[3] !== 0 ? over : under;
  };
}

/** The flat bust, 16x16 texels: head on top, then the first 8 rows of the torso with the arms hugging it. */
function flatBust(file: string, slim: boolean, overlay: boolean, legacy = false) {
  const texture = decodedFixture(file);
  const faces = facesOf(file);
  const arm = slim ? 3 : 4;
  const front = (part: string, mirrorOf?: string) =>
    frontTexel(
      texture,
      faces[`${mirrorOf ?? part}.base.front`]!,
      overlay ? faces[`${mirrorOf ?? part}.overlay.front`] : undefined,
      !!mirrorOf,
    );
  const parts = [
    { x: 4, y: 0, width: 8, height: 8, texel: front('head') },
    { x: 4, y: 8, width: 8, height: 8, texel: front('body') },
    { x: 4 - arm, y: 8, width: arm, height: 8, texel: front('rightArm') },
    { x: 12, y: 8, width: arm, height: 8, texel: legacy ? front('leftArm', 'rightArm') : front('leftArm') },
  ];
  return (column: number, row: number): Rgba => {
    const part = parts.find((p) => column >= p.x && column < p.x + p.width && row >= p.y && row < p.y + p.height);
    return part ? part.texel(column - part.x, row - part.y) : TRANSPARENT;
  };
}

/** Every texel centre of a flat image of `columns` x `rows` texels has exactly the expected colour. */
function assertTexels(image: RgbaImage, columns: number, rows: number, expected: (column: number, row: number) => Rgba) {
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      const x = Math.floor(((column + 0.5) * image.width) / columns);
      const y = Math.floor(((row + 0.5) * image.height) / rows);
      assert.deepEqual(pixelAt(image, x, y), expected(column, row), `texel ${column},${row}`);
    }
  }
}

describe('flat bust', () => {
  for (const { file, slim, legacy } of [
    { file: 'skins/classic.png', slim: false, legacy: false },
    { file: 'skins/slim.png', slim: true, legacy: false },
    { file: 'skins/hd-128.png', slim: false, legacy: false },
    { file: 'skins/legacy-64x32.png', slim: false, legacy: true },
  ]) {
    for (const overlay of [true, false]) {
      it(`${file}, overlay ${overlay}: head over the top two thirds of torso and arms, square, no legs`, () => {
        const image = render(`bust-skin-${file.replace(/\W+/g, '_')}-${overlay}`, {
          view: 'bust',
          type: 'skin',
          size: 160,
          skin: decodedFixture(file),
          slim,
          overlay,
        });
        assert.deepEqual([image.width, image.height], [160, 160]);
        assertTexels(image, 16, 16, flatBust(file, slim, overlay, legacy));
        const found = facePixels(image, facesOf(file));
        assert.equal(count(found, isLeg), 0, 'no legs');
        if (!overlay || legacy)
          assert.equal(
            count(found, (face) => isOverlay(face) && !face.startsWith('head.')),
            0,
          );
        if (!overlay) assert.equal(count(found, isOverlay), 0, 'no second layer');
        else assert.ok(count(found, isOverlay) > 0, 'the second layer shows');
      });
    }
  }

  it('slim arms leave the outermost columns transparent', () => {
    const image = render('bust-skin-slim-columns', {
      view: 'bust',
      type: 'skin',
      size: 16,
      skin: decodedFixture('skins/slim.png'),
      slim: true,
    });
    for (const x of [0, 15]) assert.equal(pixelAt(image, x, 12)[3], 0, `column ${x}`);
    for (const x of [1, 14]) assert.equal(pixelAt(image, x, 12)[3], 255, `column ${x}`);
  });
});

describe('3D bust', () => {
  for (const overlay of [true, false]) {
    it(`overlay ${overlay}: head, torso and arms from the front-right and above; no legs, backs or bottoms`, () => {
      const file = 'skins/classic.png';
      const image = render(`bust-player-${overlay}`, {
        view: 'bust',
        type: 'player',
        size: 200,
        skin: decodedFixture(file),
        slim: false,
        overlay,
      });
      assert.deepEqual({ width: image.width, height: image.height }, renderDimensions({ view: 'bust', type: 'player', size: 200 }));
      const found = facePixels(image, facesOf(file));
      assert.equal(
        count(found, (face) => face === 'unexplained'),
        0,
        'every pixel comes from a face',
      );
      // The leg faces a body render shows (fronts, the right leg's outer side); the fixture's hidden leftLeg.base.right
      // shares its colour with the shaded outer side of the right sleeve, so it cannot be told apart here.
      assert.equal(
        count(found, (face) => isLeg(face) && (face.endsWith('.front') || (face.startsWith('rightLeg.') && face.endsWith('.right')))),
        0,
        'no legs',
      );
      assert.equal(
        count(found, (face) => /\.(back|bottom)$/.test(face)),
        0,
        'no back or bottom',
      );
      for (const part of ['head', 'body', 'rightArm', 'leftArm']) {
        assert.ok(count(found, (face) => face.startsWith(`${part}.`) && face.endsWith('.front')) > 0, `${part} front`);
      }
      assert.equal(count(found, isOverlay) > 0, overlay, 'the second layer shows only when asked for');
      // The player's right arm is left of the torso on screen; the head is above the torso.
      const at = (face: string) => [
        ...(found.get(`${face.replace('*', 'base')}`) ?? []),
        ...(found.get(face.replace('*', 'overlay')) ?? []),
      ];
      assert.ok(meanX(at('rightArm.*.front')) < meanX(at('body.*.front')));
      assert.ok(meanX(at('leftArm.*.front')) > meanX(at('body.*.front')));
      // The torso is cut: the bust is far shorter than the body at the same width.
      assert.ok(image.height < renderDimensions({ view: 'body', type: 'player', size: 200 }).height * 0.75);
    });
  }

  it('is as wide and tall for slim and legacy skins', () => {
    for (const [file, slim] of [
      ['skins/slim.png', true],
      ['skins/legacy-64x32.png', false],
    ] as const) {
      const image = decodePng(renderImage({ view: 'bust', type: 'player', size: 120, skin: decodedFixture(file), slim }));
      assert.deepEqual({ width: image.width, height: image.height }, renderDimensions({ view: 'bust', type: 'player', size: 120 }));
    }
  });
});

describe('overlay: false on every view', () => {
  const cape = decodedFixture('capes/cape.png');
  for (const view of ['head', 'body', 'cloak'] as const) {
    for (const type of ['skin', 'player'] as const) {
      if (view === 'cloak' && type === 'skin') continue; // the flat cloak shows the cape only
      it(`${view} ${type}: no second-layer pixel, same dimensions, and the base shows where the overlay covered it`, () => {
        const file = 'skins/classic.png';
        const request = { view, type, size: 120, skin: decodedFixture(file), slim: false, cape } as const;
        const without = render(`no-overlay-${view}-${type}`, { ...request, overlay: false });
        const withIt = decodePng(renderImage(request));
        assert.deepEqual([without.width, without.height], [withIt.width, withIt.height]);
        const faces = facesOf(file);
        const found = facePixels(without, { ...faces, ...facesOf('capes/cape.png') });
        assert.equal(count(found, isOverlay), 0);
        assert.ok(count(facePixels(withIt, faces), isOverlay) > 0, 'drawn by default');
        assert.ok(count(found, (face) => face.startsWith('head.base.')) > 0);
      });
    }
  }

  it('the flat head without its hat is the face alone', () => {
    const file = 'skins/classic.png';
    const image = render('no-overlay-flat-head', {
      view: 'head',
      type: 'skin',
      size: 80,
      skin: decodedFixture(file),
      slim: false,
      overlay: false,
    });
    assertTexels(image, 8, 8, frontTexel(decodedFixture(file), facesOf(file)['head.base.front']!, undefined, false));
  });
});

describe('minimumSize', () => {
  const skin = decodedFixture('skins/classic.png');
  it('lets a caller go below 8 pixels (Crafatar avatars from 1), and only when asked', () => {
    for (const size of [1, 3, 7]) {
      const image = decodePng(renderImage({ view: 'head', type: 'skin', size, skin, slim: false, minimumSize: 1 }));
      assert.deepEqual([image.width, image.height], [size, size]);
      assert.ok(
        image.data.some((value, index) => index % 4 === 3 && value === 255),
        'something is drawn',
      );
      assert.throws(() => renderImage({ view: 'head', type: 'skin', size, skin, slim: false }), RangeError);
    }
    assert.throws(() => renderImage({ view: 'head', type: 'skin', size: 0, skin, slim: false, minimumSize: 1 }), RangeError);
    assert.throws(() => renderImage({ view: 'head', type: 'skin', size: 8, skin, slim: false, minimumSize: 0 }), RangeError);
    assert.throws(
      () => renderImage({ view: 'head', type: 'skin', size: 8, skin, slim: false, minimumSize: MIN_RENDER_SIZE + 1 }),
      RangeError,
    );
  });
});
