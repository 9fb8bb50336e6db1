// Flat views (type=skin): nearest-neighbour copies of the texture, exact at every texel centre.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RgbaImage } from '../skin/texture.ts';
import { decodedFixture, facesOf, pixelAt, saveRender, texelAt, type ManifestFace } from '../../test/support/rendering.ts';
import { decodePng } from './png.ts';
import { renderImage, type RenderRequest } from './render.ts';

type Rgba = [number, number, number, number];
const TRANSPARENT: Rgba = [0, 0, 0, 0];

/** Renders, saves the PNG for people to look at, and decodes it back. */
function render(name: string, request: RenderRequest): RgbaImage {
  const png = renderImage(request);
  saveRender(name, png);
  return decodePng(png);
}

/** Source-over of an overlay texel on a base texel. */
function composite(base: Rgba, overlay: Rgba | undefined): Rgba {
  if (!overlay || overlay[3] === 0) return base;
  if (overlay[3] === 255 || base[3] === 0) return overlay;
  throw new Error('the fixtures have no translucent texels');
}

/** The flat front of a part: base texel with the overlay texel over it, per texel of the face. */
function flatFace(texture: RgbaImage, base: ManifestFace, overlay?: ManifestFace, mirrored = false) {
  return (column: number, row: number): Rgba => {
    const sourceColumn = mirrored ? base.rect[2] - 1 - column : column;
    const under = texelAt(texture, base.rect[0] + sourceColumn, base.rect[1] + row);
    return composite(under, overlay && texelAt(texture, overlay.rect[0] + sourceColumn, overlay.rect[1] + row));
  };
}

/**
 * Checks a flat image of `columns` x `rows` texels: when a texel covers at least a pixel, the pixel under
 * each texel centre has exactly that texel's colour; when the image is smaller than the texture, every
 * pixel has the colour of a texel next to its own centre.
 */
function assertFlat(image: RgbaImage, columns: number, rows: number, expected: (column: number, row: number) => Rgba): void {
  assert.equal(image.height, Math.round((rows * image.width) / columns), 'aspect ratio');
  const pixelsPerTexel = image.width / columns;
  if (pixelsPerTexel >= 1) {
    for (let row = 0; row < rows; row++) {
      for (let column = 0; column < columns; column++) {
        const x = Math.floor(((column + 0.5) * image.width) / columns);
        const y = Math.floor(((row + 0.5) * image.height) / rows);
        assert.deepEqual(pixelAt(image, x, y), expected(column, row), `texel ${column},${row} at pixel ${x},${y}`);
      }
    }
    return;
  }
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      // Downscaled, a pixel may take either texel next to its centre (the image is centred to the rounded
      // pixel, which moves texel boundaries by a fraction of a pixel).
      const candidates = [-0.5, 0, 0.5].map((nudge) =>
        expected(
          Math.min(columns - 1, Math.floor(((x + 0.5) * columns) / image.width + nudge)),
          Math.min(rows - 1, Math.floor(((y + 0.5) * rows) / image.height + nudge)),
        ),
      );
      assert.ok(
        candidates.some((candidate) => candidate.every((value, channel) => value === pixelAt(image, x, y)[channel])),
        `pixel ${x},${y} is ${pixelAt(image, x, y)}, expected one of ${candidates.join(' / ')}`,
      );
    }
  }
}

/** Where the front of each part sits in the 16x32-texel flat body; arms hug the torso (slim: 3 wide). */
function flatBody(texture: RgbaImage, faces: Record<string, ManifestFace>, armWidth: number, legacy = false) {
  const front = (part: string, mirrorOf?: string) => {
    const source = mirrorOf ?? part;
    return flatFace(texture, faces[`${source}.base.front`]!, faces[`${source}.overlay.front`], mirrorOf !== undefined);
  };
  const parts = [
    { x: 4, y: 0, width: 8, height: 8, texel: front('head') },
    { x: 4, y: 8, width: 8, height: 12, texel: front('body') },
    { x: 4 - armWidth, y: 8, width: armWidth, height: 12, texel: front('rightArm') },
    { x: 12, y: 8, width: armWidth, height: 12, texel: legacy ? front('leftArm', 'rightArm') : front('leftArm') },
    { x: 4, y: 20, width: 4, height: 12, texel: front('rightLeg') },
    { x: 8, y: 20, width: 4, height: 12, texel: legacy ? front('leftLeg', 'rightLeg') : front('leftLeg') },
  ];
  return (column: number, row: number): Rgba => {
    const part = parts.find((p) => column >= p.x && column < p.x + p.width && row >= p.y && row < p.y + p.height);
    return part ? part.texel(column - part.x, row - part.y) : TRANSPARENT;
  };
}

const SIZES = [8, 100, 300];
const SKINS = [
  { file: 'skins/classic.png', texture: 'skins/classic.png' },
  { file: 'skins/hd-128.png', texture: 'skins/hd-128.png' },
  { file: 'skins/flat-palette.png', texture: 'skins/flat-palette.png' },
  // The 16-bit file must render exactly like its 8-bit twin.
  { file: 'skins/classic-16bit.png', texture: 'skins/classic.png' },
];

describe('flat head', () => {
  for (const { file, texture } of SKINS) {
    for (const size of SIZES) {
      it(`${file} at ${size}: face with the hat composited over it`, () => {
        const faces = facesOf(file);
        const image = render(`flat-head-${file.replace(/\W+/g, '_')}-${size}`, {
          view: 'head',
          type: 'skin',
          size,
          skin: decodedFixture(file),
          slim: false,
        });
        assert.equal(image.width, size);
        assert.equal(image.height, size);
        assertFlat(image, 8, 8, flatFace(decodedFixture(texture), faces['head.base.front']!, faces['head.overlay.front']));
      });
    }
  }

  it('shows the base through transparent hat texels and the hat where it is opaque', () => {
    const faces = facesOf('skins/classic.png');
    const image = render('flat-head-stripes', {
      view: 'head',
      type: 'skin',
      size: 80,
      skin: decodedFixture('skins/classic.png'),
      slim: false,
    });
    // Texel rows 0-1 of the fixture's hat are opaque, rows 2-3 transparent.
    assert.deepEqual(pixelAt(image, 5, 5).slice(0, 3), faces['head.overlay.front']!.colour);
    assert.deepEqual(pixelAt(image, 5, 25).slice(0, 3), [
      faces['head.base.front']!.colour[0],
      faces['head.base.front']!.colour[1] + 2,
      faces['head.base.front']!.colour[2],
    ]);
  });
});

describe('flat body', () => {
  for (const { file, texture } of SKINS) {
    for (const size of SIZES) {
      it(`${file} at ${size}: the front of every part, overlays composited`, () => {
        const image = render(`flat-body-${file.replace(/\W+/g, '_')}-${size}`, {
          view: 'body',
          type: 'skin',
          size,
          skin: decodedFixture(file),
          slim: false,
        });
        assert.equal(image.width, size);
        assertFlat(image, 16, 32, flatBody(decodedFixture(texture), facesOf(file), 4));
      });
    }
  }

  it('slim skins: arms 3 texels wide, hugging the torso', () => {
    const skin = decodedFixture('skins/slim.png');
    const image = render('flat-body-slim-160', { view: 'body', type: 'skin', size: 160, skin, slim: true });
    assertFlat(image, 16, 32, flatBody(skin, facesOf('skins/slim.png'), 3));
  });

  it('measured arm widths: 3 texels for slim, 4 for classic', () => {
    for (const [file, slim, width] of [
      ['skins/slim.png', true, 3],
      ['skins/classic.png', false, 4],
    ] as const) {
      const image = render(`flat-body-armwidth-${slim ? 'slim' : 'classic'}`, {
        view: 'body',
        type: 'skin',
        size: 160,
        skin: decodedFixture(file),
        slim,
      });
      const texel = 10; // 160 px / 16 texels
      // Along a row through the middle of the arms, count opaque pixels left of the torso (x < 4 texels).
      const y = 14 * texel + 5;
      let armPixels = 0;
      for (let x = 0; x < 4 * texel; x++) if (pixelAt(image, x, y)[3] !== 0) armPixels++;
      assert.equal(armPixels / texel, width);
    }
  });

  it('legacy 64x32 skins: the left limbs are the right limbs mirrored', () => {
    const skin = decodedFixture('skins/legacy-64x32.png');
    const faces = facesOf('skins/legacy-64x32.png');
    const image = render('flat-body-legacy', { view: 'body', type: 'skin', size: 160, skin, slim: false });
    assertFlat(image, 16, 32, flatBody(skin, faces, 4, true));
    // Seen directly: the right arm's gradient rises to the right, the left arm's to the left.
    const rightArm = [0, 3].map((column) => pixelAt(image, column * 10 + 5, 125)[0]);
    const leftArm = [12, 15].map((column) => pixelAt(image, column * 10 + 5, 125)[0]);
    assert.ok(rightArm[0]! < rightArm[1]!);
    assert.ok(leftArm[0]! > leftArm[1]!);
    assert.deepEqual(leftArm, [...rightArm].reverse());
  });

  it('legacy 64x32 skins whose hat area has no transparent pixel get no hat (as in the game)', () => {
    const skin = decodedFixture('skins/legacy-64x32.png');
    const faces = facesOf('skins/legacy-64x32.png');
    const solidHat = { ...skin, data: skin.data.slice() };
    for (let y = 0; y < 16; y++) for (let x = 32; x < 64; x++) solidHat.data.set([0, 0, 0, 255], (y * 64 + x) * 4);
    const image = render('flat-head-legacy-solid-hat', { view: 'head', type: 'skin', size: 8, skin: solidHat, slim: false });
    assertFlat(image, 8, 8, flatFace(skin, faces['head.base.front']!));
  });
});

describe('flat cloak', () => {
  for (const file of ['capes/cape.png', 'capes/cape-hd-128x64.png']) {
    for (const size of SIZES) {
      it(`${file} at ${size}: the cape's outer face`, () => {
        const cape = decodedFixture(file);
        const image = render(`flat-cloak-${file.replace(/\W+/g, '_')}-${size}`, {
          view: 'cloak',
          type: 'skin',
          size,
          skin: decodedFixture('skins/classic.png'),
          slim: false,
          cape,
        });
        assert.equal(image.width, size);
        assertFlat(image, 10, 16, flatFace(cape, facesOf(file)['cape.front']!));
      });
    }
  }
});
