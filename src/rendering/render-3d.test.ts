// Isometric views (type=player): which faces show, where, and how the second layer stands out.
// Pixels are traced back to texture faces by colour (test/support/rendering.ts: classify).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RgbaImage } from '../skin/texture.ts';
import { decodedFixture, facePixels, facesOf, meanX, pixelAt, saveRender, type ManifestFace } from '../../test/support/rendering.ts';
import { decodePng } from './png.ts';
import { renderImage, SHADE, type RenderRequest } from './render.ts';

function render(name: string, request: RenderRequest): RgbaImage {
  const png = renderImage(request);
  saveRender(name, png);
  return decodePng(png);
}

const only = (faces: Record<string, ManifestFace>, prefix: string) =>
  Object.fromEntries(Object.entries(faces).filter(([name]) => name.startsWith(prefix)));
const count = (found: Map<string, unknown[]>, ...names: string[]) => names.reduce((sum, name) => sum + (found.get(name)?.length ?? 0), 0);
/** Pixels of a part's face on either layer. */
const side = (found: Map<string, unknown[]>, part: string, face: string) => count(found, `${part}.base.${face}`, `${part}.overlay.${face}`);

/** A copy of a skin with its second layer made fully transparent. */
function withoutOverlay(skin: RgbaImage, faces: Record<string, ManifestFace>): RgbaImage {
  const copy = { ...skin, data: skin.data.slice() };
  const scale = skin.width / 64;
  for (const [name, face] of Object.entries(faces)) {
    if (!name.includes('.overlay.')) continue;
    const [x, y, width, height] = face.rect.map((value) => value * scale) as [number, number, number, number];
    for (let row = y; row < y + height; row++)
      for (let column = x; column < x + width; column++) copy.data[(row * skin.width + column) * 4 + 3] = 0;
  }
  return copy;
}

describe('3D head', () => {
  for (const file of ['skins/classic.png', 'skins/hd-128.png', 'skins/no-overlay.png']) {
    for (const size of [100, 300]) {
      it(`${file} at ${size}: top, front and exactly one side; never back or bottom`, () => {
        const faces = only(facesOf(file), 'head.');
        const image = render(`3d-head-${file.replace(/\W+/g, '_')}-${size}`, {
          view: 'head',
          type: 'player',
          size,
          skin: decodedFixture(file),
          slim: false,
        });
        assert.equal(image.width, size);
        assert.equal(image.height, size);
        const found = facePixels(image, faces);
        assert.equal(count(found, 'unexplained'), 0, 'every pixel comes from a head face');
        for (const face of ['top', 'front']) assert.ok(side(found, 'head', face) > size, `${face} visible`);
        const sides = ['right', 'left'].filter((face) => side(found, 'head', face) > 0);
        assert.equal(sides.length, 1, `exactly one side visible, got ${sides}`);
        assert.equal(side(found, 'head', 'back'), 0);
        assert.equal(side(found, 'head', 'bottom'), 0);
        // The three faces sit where a cube seen from above-front-side has them.
        const top = found.get('head.base.top') ?? found.get('head.overlay.top')!;
        const front = found.get('head.base.front')!;
        assert.ok(meanY(top) < meanY(front), 'the top is above the front');
      });
    }
  }

  it('the hat is a shell larger than the head, and the head shows through its transparent texels', () => {
    const faces = only(facesOf('skins/classic.png'), 'head.');
    const skin = decodedFixture('skins/classic.png');
    const request: RenderRequest = { view: 'head', type: 'player', size: 200, skin, slim: false };
    const image = render('3d-head-shell', request);
    const bare = render('3d-head-shell-bare', { ...request, skin: withoutOverlay(skin, faces) });
    const found = facePixels(image, faces);
    const hatOutsideHead = [...found.entries()]
      .filter(([name]) => name.includes('.overlay.'))
      .flatMap(([, points]) => points)
      .filter(({ x, y }) => bare.data[(y * bare.width + x) * 4 + 3] === 0);
    assert.ok(hatOutsideHead.length > 50, `hat texels outside the bare head's outline: ${hatOutsideHead.length}`);
    // Both layers show on the front: the fixture's hat rows alternate between opaque and transparent.
    assert.ok(count(found, 'head.base.front') > 100 && count(found, 'head.overlay.front') > 100);
  });

  it('shades faces by direction: top lit, front as is, side dimmed', () => {
    const faces = only(facesOf('skins/no-overlay.png'), 'head.');
    const image = render('3d-head-shading', {
      view: 'head',
      type: 'player',
      size: 100,
      skin: decodedFixture('skins/no-overlay.png'),
      slim: false,
    });
    const found = facePixels(image, faces);
    // Brightness of each face against its texture: the mean of R+G+B over the face's pixels, divided by the
    // texture's mean (manifest colour plus the fixtures' gradient, 3.5 on average in red and in green).
    const brightness = (face: string) => {
      const points = found.get(face)!;
      const rendered =
        points.reduce(
          (sum, { x, y }) =>
            sum +
            pixelAt(image, x, y)
              .slice(0, 3)
              .reduce((a, b) => a + b),
          0,
        ) / points.length;
      const [r, g, b] = faces[face]!.colour;
      return rendered / (r + g + b + 7);
    };
    assert.ok(Math.abs(brightness('head.base.top') - SHADE.top) < 0.03, `top ${brightness('head.base.top')}`);
    assert.ok(Math.abs(brightness('head.base.front') - SHADE.front) < 0.03, `front ${brightness('head.base.front')}`);
    assert.ok(Math.abs(brightness('head.base.right') - SHADE.side) < 0.03, `side ${brightness('head.base.right')}`);
    assert.ok(SHADE.top > SHADE.front && SHADE.front > SHADE.side && SHADE.side >= 0.75, 'lit tops, subtly darker sides');
  });
});

describe('3D body', () => {
  for (const [file, slim] of [
    ['skins/classic.png', false],
    ['skins/slim.png', true],
    ['skins/hd-128.png', false],
  ] as const) {
    it(`${file}: every part's front visible, the player's right arm left of the torso`, () => {
      const faces = facesOf(file);
      const image = render(`3d-body-${file.replace(/\W+/g, '_')}`, {
        view: 'body',
        type: 'player',
        size: 150,
        skin: decodedFixture(file),
        slim,
      });
      assert.equal(image.width, 150);
      const found = facePixels(image, faces);
      assert.equal(count(found, 'unexplained'), 0, 'every pixel comes from a skin face');
      for (const part of ['head', 'body', 'rightArm', 'leftArm', 'rightLeg', 'leftLeg']) {
        assert.ok(side(found, part, 'front') > 20, `${part} front visible`);
        assert.equal(side(found, part, 'back'), 0, `${part} back hidden`);
      }
      const frontX = (part: string) => meanX([...(found.get(`${part}.base.front`) ?? []), ...(found.get(`${part}.overlay.front`) ?? [])]);
      assert.ok(frontX('rightArm') < frontX('body'), 'right arm left of the torso');
      assert.ok(frontX('body') < frontX('leftArm'), 'left arm right of the torso');
      assert.ok(frontX('rightLeg') < frontX('leftLeg'));
      const frontY = (part: string) => meanY(found.get(`${part}.base.front`)!);
      assert.ok(
        frontY('head') < frontY('body') && frontY('body') < frontY('rightLeg'),
        'standing upright: head, torso, legs from top to bottom',
      );
      const torsoRows = found.get('body.base.front')!.map(({ y }) => y);
      for (const arm of ['rightArm', 'leftArm']) {
        assert.ok(frontY(arm) > Math.min(...torsoRows) && frontY(arm) < Math.max(...torsoRows), `${arm} hangs beside the torso`);
      }
    });
  }

  it('slim arms are narrower than classic ones', () => {
    const measure = (file: string, slim: boolean) => {
      const image = render(`3d-body-arm-${slim ? 'slim' : 'classic'}`, {
        view: 'body',
        type: 'player',
        size: 300,
        skin: decodedFixture(file),
        slim,
      });
      const found = facePixels(image, only(facesOf(file), 'rightArm.'));
      found.delete('unexplained');
      const xs = (points: { x: number }[]) => points.map(({ x }) => x);
      const extent = (values: number[]) => values.reduce((a, b) => Math.max(a, b)) - values.reduce((a, b) => Math.min(a, b)) + 1;
      return { front: extent(xs(found.get('rightArm.base.front')!)), whole: extent([...found.values()].flatMap(xs)) };
    };
    const classic = measure('skins/classic.png', false);
    const slim = measure('skins/slim.png', true);
    assert.ok(Math.abs(slim.front / classic.front - 3 / 4) < 0.08, `front widths ${slim.front} vs ${classic.front}`);
    // One texel less across the front, seen at 45 degrees: about a twentieth of the 300 px image.
    assert.ok(classic.whole - slim.whole > 10, `arm widths ${slim.whole} vs ${classic.whole}`);
  });

  it('legacy 64x32 skins: the left limbs show the right limbs, mirrored', () => {
    const faces = facesOf('skins/legacy-64x32.png');
    const image = render('3d-body-legacy', {
      view: 'body',
      type: 'player',
      size: 150,
      skin: decodedFixture('skins/legacy-64x32.png'),
      slim: false,
    });
    const found = facePixels(image, faces);
    assert.equal(count(found, 'unexplained'), 0);
    const torso = meanX(found.get('body.base.front')!);
    for (const limb of ['rightArm', 'rightLeg']) {
      const points = found.get(`${limb}.base.front`)!;
      const left = points.filter(({ x }) => x < torso);
      const right = points.filter(({ x }) => x > torso);
      assert.ok(left.length > 20 && right.length > 20, `${limb} front drawn on both sides of the torso`);
      // Mirrored: red rises with the texture column, so it falls to the right on the mirrored limb.
      const redTrend = (ps: { x: number; y: number }[]) =>
        correlation(
          ps.map(({ x }) => x),
          ps.map(({ x, y }) => image.data[(y * image.width + x) * 4]!),
        );
      assert.ok(redTrend(left) > 0.5 && redTrend(right) < -0.5, `${limb}: ${redTrend(left)} / ${redTrend(right)}`);
    }
  });
});

describe('3D cloak', () => {
  for (const [skinFile, capeFile] of [
    ['skins/classic.png', 'capes/cape.png'],
    ['skins/hd-128.png', 'capes/cape-hd-128x64.png'],
  ] as const) {
    it(`${skinFile} with ${capeFile}: seen from behind, the cape's outer face over the back`, () => {
      // A skin face painted in exactly a cape face's colour cannot be told apart from it: leave it out.
      const capeFaces = facesOf(capeFile);
      const capeColours = new Set(Object.values(capeFaces).map((face) => String(face.colour)));
      const skinFaces = Object.fromEntries(Object.entries(facesOf(skinFile)).filter(([, face]) => !capeColours.has(String(face.colour))));
      const faces = { ...skinFaces, ...capeFaces };
      const image = render(`3d-cloak-${skinFile.replace(/\W+/g, '_')}-${capeFile.replace(/\W+/g, '_')}`, {
        view: 'cloak',
        type: 'player',
        size: 150,
        skin: decodedFixture(skinFile),
        slim: false,
        cape: decodedFixture(capeFile),
      });
      assert.equal(image.width, 150);
      const found = facePixels(image, faces);
      assert.equal(count(found, 'unexplained'), 0);
      assert.ok(count(found, 'cape.front') > 500, 'outer face of the cape');
      assert.equal(count(found, 'cape.back'), 0, 'inner face of the cape hidden');
      assert.equal(count(found, 'elytra'), 0, 'no elytra');
      for (const part of ['head', 'rightArm', 'leftArm', 'rightLeg', 'leftLeg'])
        assert.ok(side(found, part, 'back') > 20, `${part} back visible`);
      for (const part of ['head', 'body', 'rightArm', 'leftArm', 'rightLeg', 'leftLeg'])
        assert.equal(side(found, part, 'front'), 0, `${part} front hidden`);
      // From behind, the player's left arm is on the viewer's left.
      assert.ok(meanX(found.get('leftArm.base.back')!) < meanX(found.get('rightArm.base.back')!));
    });
  }
});

const meanY = (points: { y: number }[]) => points.reduce((sum, point) => sum + point.y, 0) / points.length;

function correlation(xs: number[], ys: number[]): number {
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}
