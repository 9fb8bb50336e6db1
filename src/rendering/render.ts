// Renders skins and capes: decoded textures and parameters in, PNG bytes out. No I/O; the only state is
// geometry computed once per view and skin model, a 32-bit view of each texture object, and the memory of the
// 3D pixel loop (span-loop.ts), which every render reuses.
//
// Public API
//   renderImage(request): Buffer                    the PNG of a head, bust, body or cloak image, flat or 3D
//   renderPixels(request): RgbaImage                the same image before PNG encoding
//   renderDimensions({ view, type, size })          the { width, height } that renderImage produces
//   MIN_RENDER_SIZE, MAX_RENDER_SIZE                the accepted range of `size`
//   SHADE                                           the brightness factors of 3D faces, by direction
// All of them throw RangeError on a size outside the range or a texture of an unsupported shape.
//
// How it works: the player is a set of boxes in model units (one unit = one texel of a 64-wide skin), each
// face a parallelogram with a texture rectangle. A camera projects the faces (orthographic); every face is
// rasterised by inverse-mapping each covered pixel centre to a texel (nearest neighbour) with a depth test,
// the pixel loop in WebAssembly (span-loop.ts).
// Flat views (`type=skin`) use the same machinery with a straight-on camera and no overlay inflation,
// which makes them exact at texel centres. docs/rendering.md has the numbers and the decisions.
// What a texture's pixels say about it (slim arms, an old skin's hat) is in skin/texture.ts.
import { boxLayout, skinParts, type Rect, type SkinPartName, type Vec3 } from '../skin/layout.ts';
import { hasHat, isLegacySkin, type RgbaImage } from '../skin/texture.ts';
import { encodePng } from './png.ts';
import { DEPTH_SLACK, drawSpans, spanMemory, type SpanMemory } from './span-loop.ts';

export type RenderView = 'head' | 'bust' | 'body' | 'cloak';
export type RenderType = 'skin' | 'player';

export interface RenderRequest {
  view: RenderView;
  /** `skin`: the flat texture view; `player`: the isometric 3D model. */
  type: RenderType;
  /** Output width in pixels (heads are size x size). */
  size: number;
  /** Decoded skin: width a multiple of 64, height equal to the width or (legacy) half of it. Not drawn by the
   * flat cloak view; the 3D cloak view draws it wearing the cape. */
  skin: RgbaImage;
  slim: boolean;
  /** Decoded cape, 64x32 or a multiple (22x17 capes padded by the caller); required for, and only drawn by,
   * the cloak view. */
  cape?: RgbaImage;
  /** Draw the second layer (hat, jacket, sleeves, trousers); default true. Image dimensions do not change. */
  overlay?: boolean;
  /** The smallest `size` accepted, from 1; default MIN_RENDER_SIZE (Crafatar's avatars go down to 1 pixel). */
  minimumSize?: number;
}

export const MIN_RENDER_SIZE = 8;
export const MAX_RENDER_SIZE = 512;

/**
 * Face brightness in 3D views, by direction: tops lit (clamped at 255), faces turned to the viewer's right
 * (fronts; backs in the cloak view) as painted, faces turned to the viewer's left (the visible side) dimmed.
 */
export const SHADE = { top: 1.1, front: 1, side: 0.8 } as const;

export function renderImage(request: RenderRequest): Buffer {
  return encodePng(renderPixels(request));
}

export function renderDimensions({ view, type, size, minimumSize }: Pick<RenderRequest, 'view' | 'type' | 'size' | 'minimumSize'>): {
  width: number;
  height: number;
} {
  checkSize(size, minimumSize);
  if (view === 'head') return { width: size, height: size };
  const frame = frameOf(view, type);
  return { width: size, height: Math.max(1, Math.round((frame.height * size) / frame.width)) };
}

export function renderPixels(request: RenderRequest): RgbaImage {
  const { view, type, size, skin, cape, minimumSize } = request;
  checkSize(size, minimumSize);
  checkTexture('skin', skin, [1, 0.5]);
  if (cape) checkTexture('cape', cape, [0.5]);
  if (view === 'cloak' && !cape) throw new RangeError('the cloak view needs a cape');

  const model = { slim: request.slim, legacy: isLegacySkin(skin), hat: hasHat(skin), overlay: request.overlay ?? true };
  const faces = sceneFaces(view, type, model);
  const frame = frameOf(view, type);
  const { width, height } = renderDimensions(request);
  const scale = view === 'head' ? size / Math.max(frame.width, frame.height) : size / frame.width;
  const offsetX = (width - frame.width * scale) / 2;
  const offsetY = (height - frame.height * scale) / 2;
  const textures = { skin: texelsOf(skin), cape: cape && texelsOf(cape) };
  if (cameraFor(view, type).flat) {
    const pixels = new Uint8Array(width * height * 4);
    const target = { width, height, pixels, colours: new Uint32Array(pixels.buffer), scale, offsetX, offsetY };
    for (const face of faces) drawUprightFace(face, textures[face.texture]!, target);
    return { width, height, data: pixels };
  }
  let patchTexels = 0;
  for (const face of faces) patchTexels = Math.max(patchTexels, patchSize(face, textures[face.texture]!));
  const memory = spanMemory(width * height, height, patchTexels);
  memory.depth.fill(-Infinity);
  memory.colours.fill(0);
  const target: Target = {
    width,
    height,
    pixels: memory.pixels,
    colours: memory.colours,
    depth: memory.depth,
    memory,
    scale,
    offsetX,
    offsetY,
  };
  for (const face of faces) drawFace(face, textures[face.texture]!, target);
  return { width, height, data: memory.pixels.slice() };
}

// ---------------------------------------------------------------------------------------------------------
// Model: boxes in the coordinates of skin/layout.ts (x to the player's left, y up, z out of the front).

type TextureName = 'skin' | 'cape';

interface Box {
  part: SkinPartName | 'cape';
  min: Vec3;
  /** Extent along x, y, z; also the texture box's width, height and depth. */
  size: Vec3;
  texture: TextureName;
  /** Top-left of the box's texture layout, at 64-wide scale. */
  uv: readonly [number, number];
  overlay: boolean;
  /** How far the 3D overlay shell stands out of the base box, per side (Minecraft's inflation). */
  inflate: number;
  /** Legacy left limbs: the right limb's texture, mirrored. */
  mirrored: boolean;
  /** Rotation (row-major 3x3) and then translation applied to the box; only the cape has one. */
  placement?: { rotation: readonly number[]; offset: Vec3 };
  /** Bust: only this many texture rows of the upright faces are drawn, from the top (the rest is cut off). */
  rows?: number;
}

interface SkinModel {
  slim: boolean;
  legacy: boolean;
  hat: boolean;
  /** Whether the second layer is drawn at all. */
  overlay: boolean;
}

const HEAD_INFLATE = 0.5;
const LIMB_INFLATE = 0.25;
/** The cape hangs slightly away from the back, as it does on a player standing still. */
const CAPE_SWING_DEGREES = 6;

/** The bust keeps the head and the top 8 of the 12 rows of torso and arms (Minotar's cut, a square flat image). */
const BUST_ROWS = 8;

function sceneBoxes(view: RenderView, type: RenderType, model: SkinModel): Box[] {
  if (view === 'cloak' && type === 'skin') return [capeBox(false)];
  const skinBoxes = playerBoxes(model);
  if (view === 'head') return skinBoxes.filter((box) => box.part === 'head');
  if (view === 'bust') {
    return skinBoxes
      .filter((box) => box.part !== 'rightLeg' && box.part !== 'leftLeg')
      .map((box) => (box.part === 'head' ? box : { ...box, rows: BUST_ROWS }));
  }
  return view === 'cloak' ? [...skinBoxes, capeBox(true)] : skinBoxes;
}

/** 64x32 skins have no left limbs of their own: they draw the right ones mirrored. */
const LEGACY_MIRROR_OF: Partial<Record<SkinPartName, SkinPartName>> = { leftArm: 'rightArm', leftLeg: 'rightLeg' };

function playerBoxes({ slim, legacy, hat, overlay }: SkinModel): Box[] {
  const parts = skinParts(slim);
  return parts.flatMap((part) => {
    const mirrorOf = legacy ? LEGACY_MIRROR_OF[part.name] : undefined;
    const common = {
      part: part.name,
      min: part.min,
      size: part.size,
      texture: 'skin' as const,
      inflate: part.name === 'head' ? HEAD_INFLATE : LIMB_INFLATE,
      mirrored: mirrorOf !== undefined,
    };
    const base: Box = { ...common, uv: mirrorOf ? parts.find((source) => source.name === mirrorOf)!.base : part.base, overlay: false };
    // Legacy skins have no second layer but the hat.
    const hasOverlay = overlay && (part.name === 'head' ? hat : !legacy);
    return hasOverlay ? [base, { ...common, uv: part.overlay, overlay: true }] : [base];
  });
}

/**
 * The cape is a 10x16x1 box whose texture front is its outer face: built facing forward, turned to face
 * backwards, swung out (3D only) and hung from the shoulders just behind the body.
 */
function capeBox(swing: boolean): Box {
  const angle = swing ? (CAPE_SWING_DEGREES * Math.PI) / 180 : 0;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  // Rotation about x by `angle` after a half turn about y: (x, y, z) -> (-x, y*cos + z*sin, y*sin - z*cos).
  const rotation = [-1, 0, 0, 0, cos, sin, 0, sin, -cos];
  return {
    part: 'cape',
    min: [-5, -16, 0],
    size: [10, 16, 1],
    texture: 'cape',
    uv: [0, 0],
    overlay: false,
    inflate: 0,
    mirrored: false,
    placement: { rotation, offset: [0, 24, -2] },
  };
}

interface Face {
  /** The model point under the top-left corner of the face's texture rectangle. */
  corner: Vec3;
  /** Model-space edge along the texture's columns (left to right) and rows (top to bottom). */
  across: Vec3;
  down: Vec3;
  texture: TextureName;
  rect: Rect;
  mirrored: boolean;
  overlay: boolean;
}

/** The five faces of a box that a camera from above can see; no camera here looks from below. */
function boxFaces(box: Box, inflated: boolean): Face[] {
  const grow = inflated && box.overlay ? box.inflate : 0;
  const [x0, y0, z0] = [box.min[0] - grow, box.min[1] - grow, box.min[2] - grow];
  const [X, Y, Z] = [box.size[0] + 2 * grow, box.size[1] + 2 * grow, box.size[2] + 2 * grow];
  const [x1, y1, z1] = [x0 + X, y0 + Y, z0 + Z];
  const layout = boxLayout(box.uv[0], box.uv[1], box.size);
  // A mirrored limb reads every strip right to left, so its outer side is the source's outer side too.
  const faces: Omit<Face, 'texture' | 'mirrored' | 'overlay'>[] = [
    { corner: [x0, y1, z0], across: [X, 0, 0], down: [0, 0, Z], rect: layout.top },
    { corner: [x0, y1, z1], across: [X, 0, 0], down: [0, -Y, 0], rect: layout.front },
    { corner: [x0, y1, z0], across: [0, 0, Z], down: [0, -Y, 0], rect: box.mirrored ? layout.left : layout.right },
    { corner: [x1, y1, z1], across: [0, 0, -Z], down: [0, -Y, 0], rect: box.mirrored ? layout.right : layout.left },
    { corner: [x1, y1, z0], across: [-X, 0, 0], down: [0, -Y, 0], rect: layout.back },
  ];
  if (box.rows !== undefined) {
    // The upright faces (all but the top, listed first) start at the box's top edge: keep their first rows.
    for (const [index, face] of faces.entries()) {
      if (index === 0) continue;
      const [x, y, width, height] = face.rect;
      const kept = box.rows / height;
      faces[index] = { ...face, rect: [x, y, width, box.rows], down: [face.down[0] * kept, face.down[1] * kept, face.down[2] * kept] };
    }
  }
  return faces.map((face) => ({
    ...(box.placement ? place(face, box.placement) : face),
    texture: box.texture,
    mirrored: box.mirrored,
    overlay: box.overlay,
  }));
}

function place<F extends { corner: Vec3; across: Vec3; down: Vec3 }>(face: F, { rotation: m, offset }: NonNullable<Box['placement']>): F {
  const rotate = (p: Vec3): Vec3 => [
    m[0] * p[0] + m[1] * p[1] + m[2] * p[2],
    m[3] * p[0] + m[4] * p[1] + m[5] * p[2],
    m[6] * p[0] + m[7] * p[1] + m[8] * p[2],
  ];
  return { ...face, corner: add(rotate(face.corner), offset), across: rotate(face.across), down: rotate(face.down) };
}

// ---------------------------------------------------------------------------------------------------------
// Cameras and framing.

interface Camera {
  /** Unit vectors of the screen's right and up axes and of the direction towards the viewer. */
  right: Vec3;
  up: Vec3;
  toViewer: Vec3;
  /** Straight-on views: unshaded, and no face ever hides another (the overlay lies exactly on its base). */
  flat: boolean;
}

const R2 = Math.SQRT2;
const R3 = Math.sqrt(3);
const R6 = Math.sqrt(6);
/** True isometric from the player's front-right, above: top, front and the player's right side in view. */
const ISOMETRIC_FRONT: Camera = {
  right: [1 / R2, 0, 1 / R2],
  up: [1 / R6, 2 / R6, -1 / R6],
  toViewer: [-1 / R3, 1 / R3, 1 / R3],
  flat: false,
};
/** The same camera with the player turned around: top, back and the player's left side in view. */
const ISOMETRIC_BACK: Camera = {
  right: [-1 / R2, 0, -1 / R2],
  up: [-1 / R6, 2 / R6, 1 / R6],
  toViewer: [1 / R3, 1 / R3, -1 / R3],
  flat: false,
};
const FLAT_FRONT: Camera = { right: [1, 0, 0], up: [0, 1, 0], toViewer: [0, 0, 1], flat: true };
const FLAT_BACK: Camera = { right: [-1, 0, 0], up: [0, 1, 0], toViewer: [0, 0, -1], flat: true };

function cameraFor(view: RenderView, type: RenderType): Camera {
  if (type === 'skin') return view === 'cloak' ? FLAT_BACK : FLAT_FRONT;
  return view === 'cloak' ? ISOMETRIC_BACK : ISOMETRIC_FRONT;
}

const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

function faceNormalDot(face: Face, direction: Vec3): number {
  const n = cross(face.down, face.across);
  return dot(n, direction) / Math.hypot(...n);
}

// ---------------------------------------------------------------------------------------------------------
// Scenes: what a camera sees of a model, in screen units (model units, x right and y down from the frame's
// top-left), computed once per combination of view, type and model and then only scaled per request.

/** A face on screen: the point of texel coordinates (a, b) is origin + a*stepA + b*stepB. */
interface ScreenFace {
  originX: number;
  originY: number;
  stepAX: number;
  stepAY: number;
  stepBX: number;
  stepBY: number;
  /** Depth towards the viewer at the origin and per texel along a and b. */
  depth0: number;
  depthA: number;
  depthB: number;
  columns: number;
  rows: number;
  texture: TextureName;
  /** Texture rectangle's top-left at 64-wide scale. */
  rectX: number;
  rectY: number;
  mirrored: boolean;
  /** Colour channel lookup for the face's shading, or null to keep texels as they are. */
  shade: Uint8Array | null;
}

/** The screen rectangle, in model units, that an image of a view shows: `left`/`top` are screen x and up. */
interface Frame {
  left: number;
  top: number;
  width: number;
  height: number;
}

const scenes = new Map<string, ScreenFace[]>();
const frames = new Map<string, Frame>();

/** The faces the camera sees, in drawing order: base layer first, then the overlay back to front. */
function sceneFaces(view: RenderView, type: RenderType, model: SkinModel): ScreenFace[] {
  const key = `${view}/${type}/${model.slim}/${model.legacy}/${model.hat}/${model.overlay}`;
  let faces = scenes.get(key);
  if (!faces) {
    const camera = cameraFor(view, type);
    const frame = frameOf(view, type);
    const visible = visibleFaces(view, type, model);
    const centreDepth = (face: Face) =>
      dot(face.corner, camera.toViewer) + (dot(face.across, camera.toViewer) + dot(face.down, camera.toViewer)) / 2;
    // The base layer is opaque and depth-tested, so its order is free; overlay texels may be translucent
    // and must blend over whatever lies behind them, so they come last and far to near.
    const ordered = [
      ...visible.filter((face) => !face.overlay),
      ...visible.filter((face) => face.overlay).sort((p, q) => centreDepth(p) - centreDepth(q)),
    ];
    faces = ordered.map((face) => toScreen(face, camera, frame));
    scenes.set(key, faces);
  }
  return faces;
}

function visibleFaces(view: RenderView, type: RenderType, model: SkinModel): Face[] {
  const camera = cameraFor(view, type);
  return sceneBoxes(view, type, model)
    .flatMap((box) => boxFaces(box, type === 'player'))
    .filter((face) => faceNormalDot(face, camera.toViewer) > 1e-9);
}

function toScreen(face: Face, camera: Camera, frame: Frame): ScreenFace {
  const [rectX, rectY, columns, rows] = face.rect;
  return {
    originX: dot(face.corner, camera.right) - frame.left,
    originY: frame.top - dot(face.corner, camera.up),
    stepAX: dot(face.across, camera.right) / columns,
    stepAY: -dot(face.across, camera.up) / columns,
    stepBX: dot(face.down, camera.right) / rows,
    stepBY: -dot(face.down, camera.up) / rows,
    depth0: dot(face.corner, camera.toViewer),
    depthA: dot(face.across, camera.toViewer) / columns,
    depthB: dot(face.down, camera.toViewer) / rows,
    columns,
    rows,
    texture: face.texture,
    rectX,
    rectY,
    mirrored: face.mirrored,
    shade: camera.flat ? null : SHADE_TABLES[shadeOf(face, camera)],
  };
}

/**
 * Frames are fitted to the classic model with every shell (and the cape for cloaks), whatever the actual
 * skin, so that image dimensions depend on the request parameters only. Flat views see no shells and only
 * the faces square to the camera, so their frames are the texture rectangles laid side by side.
 */
function frameOf(view: RenderView, type: RenderType): Frame {
  const key = `${view}/${type}`;
  let frame = frames.get(key);
  if (!frame) {
    const camera = cameraFor(view, type);
    const corners = visibleFaces(view, type, { slim: false, legacy: false, hat: true, overlay: true }).flatMap(
      ({ corner, across, down }) => [corner, add(corner, across), add(corner, down), add(add(corner, across), down)],
    );
    const xs = corners.map((p) => dot(p, camera.right));
    const ys = corners.map((p) => dot(p, camera.up));
    const left = Math.min(...xs);
    const top = Math.max(...ys);
    frame = { left, top, width: Math.max(...xs) - left, height: top - Math.min(...ys) };
    frames.set(key, frame);
  }
  return frame;
}

function shadeOf(face: Face, camera: Camera): keyof typeof SHADE {
  if (faceNormalDot(face, [0, 1, 0]) > 0.5) return 'top';
  return faceNormalDot(face, camera.right) < -0.1 ? 'side' : 'front';
}

const SHADE_TABLES = Object.fromEntries(
  Object.entries(SHADE).map(([name, factor]) => [name, Uint8Array.from({ length: 256 }, (_, c) => Math.min(255, Math.round(c * factor)))]),
) as Record<keyof typeof SHADE, Uint8Array>;

// ---------------------------------------------------------------------------------------------------------
// Rasteriser: for each pixel of a face's bounding box, inverse-map the pixel centre to texel coordinates,
// keep it if it falls inside the face and in front of what is drawn there, and take the nearest texel.
// Pixels are read and written as little-endian 32-bit RGBA words (png.ts refuses to load on big-endian machines).

interface Target {
  width: number;
  height: number;
  pixels: Uint8Array;
  colours: Uint32Array;
  /** Per pixel, how near the viewer what is drawn there is. */
  depth: Float32Array;
  /** Where the three arrays above live, with room for a face's spans and patch. */
  memory: SpanMemory;
  /** Pixels per model unit, and the image position of the frame's top-left. */
  scale: number;
  offsetX: number;
  offsetY: number;
}

/** Flat views draw straight into the image, without depth buffer. */
type FlatTarget = Omit<Target, 'depth' | 'memory'>;

interface Texels {
  colours: Uint32Array;
  bytes: Uint8Array;
  width: number;
  /** Texture pixels per model unit (width / 64). */
  scale: number;
}

const texelViews = new WeakMap<RgbaImage, Texels>();

/** A 32-bit view of a texture; decoded textures are cached by the caller, so is this view (copied if unaligned). */
function texelsOf(image: RgbaImage): Texels {
  let texels = texelViews.get(image);
  if (!texels) {
    const bytes = image.data.byteOffset % 4 === 0 ? image.data : new Uint8Array(image.data);
    const colours = new Uint32Array(bytes.buffer, bytes.byteOffset, image.width * image.height);
    texels = { colours, bytes, width: image.width, scale: image.width / 64 };
    texelViews.set(image, texels);
  }
  return texels;
}

/** Pixel centres this close outside a face (in texels) still count as inside, so shared edges leave no cracks. */
const EDGE_SLACK = 1e-4;
/** Copying a texel into a face's patch costs about what one covered pixel does (see facePatch). */
const PATCH_COST = 2;

function drawFace(face: ScreenFace, texels: Texels, target: Target): void {
  const { width, height, pixels, colours, depth, memory, scale } = target;
  const { columns, rows, mirrored, shade, depth0, depthA, depthB } = face;
  const originX = face.originX * scale + target.offsetX;
  const originY = face.originY * scale + target.offsetY;
  const stepAX = face.stepAX * scale;
  const stepAY = face.stepAY * scale;
  const stepBX = face.stepBX * scale;
  const stepBY = face.stepBY * scale;
  const det = stepAX * stepBY - stepAY * stepBX;
  // Texel coordinates as linear functions of the pixel centre (Cramer's rule on origin + a*stepA + b*stepB).
  const aPerX = stepBY / det;
  const aPerY = -stepBX / det;
  const bPerX = -stepAY / det;
  const bPerY = stepAX / det;

  const farX = originX + columns * stepAX + rows * stepBX;
  const farY = originY + columns * stepAY + rows * stepBY;
  const cornersX = [originX, originX + columns * stepAX, originX + rows * stepBX, farX];
  const cornersY = [originY, originY + columns * stepAY, originY + rows * stepBY, farY];
  const firstRow = Math.max(0, Math.floor(Math.min(...cornersY)));
  const lastRow = Math.min(height - 1, Math.ceil(Math.max(...cornersY)));
  const firstColumn = Math.max(0, Math.floor(Math.min(...cornersX)));
  const lastColumn = Math.min(width - 1, Math.ceil(Math.max(...cornersX)));

  // The face's spans, one a row: first and last pixel index, texel coordinates a and b at the first.
  const { spans } = memory;
  let spanCount = 0;
  for (let y = firstRow; y <= lastRow; y++) {
    const dy = y + 0.5 - originY;
    // At the centre of pixel x: a = aAtZero + x*aPerX, b = bAtZero + x*bPerX. Keep the x where both are
    // inside the face (with a little slack so that faces sharing an edge leave no crack between them).
    const aAtZero = (0.5 - originX) * aPerX + dy * aPerY;
    const bAtZero = (0.5 - originX) * bPerX + dy * bPerY;
    let from = firstColumn;
    let to = lastColumn;
    if (aPerX === 0) {
      if (aAtZero < -EDGE_SLACK || aAtZero >= columns + EDGE_SLACK) continue;
    } else {
      const p = (-EDGE_SLACK - aAtZero) / aPerX;
      const q = (columns + EDGE_SLACK - aAtZero) / aPerX;
      from = Math.max(from, Math.ceil(p < q ? p : q));
      to = Math.min(to, Math.floor(p < q ? q : p));
    }
    if (bPerX === 0) {
      if (bAtZero < -EDGE_SLACK || bAtZero >= rows + EDGE_SLACK) continue;
    } else {
      const p = (-EDGE_SLACK - bAtZero) / bPerX;
      const q = (rows + EDGE_SLACK - bAtZero) / bPerX;
      from = Math.max(from, Math.ceil(p < q ? p : q));
      to = Math.min(to, Math.floor(p < q ? q : p));
    }
    if (from > to) continue;
    const at = 4 * spanCount++;
    spans[at] = y * width + from;
    spans[at + 1] = y * width + to;
    spans[at + 2] = aAtZero + from * aPerX;
    spans[at + 3] = bAtZero + from * bPerX;
  }

  const { colours: texture, bytes: textureBytes, width: textureWidth, scale: texelScale } = texels;
  const textureColumns = columns * texelScale;
  const textureRows = rows * texelScale;
  const textureX = face.rectX * texelScale;
  const textureY = face.rectY * texelScale;
  // Most faces cover many pixels per texel: copy their texels once, shaded and in the face's own order, and
  // let the pixel loop (span-loop.ts) index that copy. A face with more texels than pixels to cover reads the
  // texture itself, here.
  if (patchSize(face, texels) * PATCH_COST <= (lastRow - firstRow + 1) * (lastColumn - firstColumn + 1)) {
    const opaque = facePatch(memory.patch, texels, textureX, textureY, textureColumns, textureRows, mirrored, shade);
    const patchWidth = textureColumns + 2;
    const blendCount = drawSpans(memory, spanCount, { aPerX, bPerX, depth0, depthA, depthB, texelScale, patchWidth, opaque });
    const { blends, bytes } = memory;
    for (let blended = 0; blended < 2 * blendCount; blended += 2) blend(bytes, blends[blended]!, bytes, blends[blended + 1]!, null);
    return;
  }
  for (let at = 0; at < 4 * spanCount; at += 4) {
    let a = spans[at + 2]!;
    let b = spans[at + 3]!;
    for (let index = spans[at]!, end = spans[at + 1]!; index <= end; index++, a += aPerX, b += bPerX) {
      const z = depth0 + a * depthA + b * depthB;
      if (z < depth[index]! - DEPTH_SLACK) continue;
      let column = (a * texelScale) | 0;
      if (column >= textureColumns) column = textureColumns - 1;
      if (mirrored) column = textureColumns - 1 - column;
      let row = (b * texelScale) | 0;
      if (row >= textureRows) row = textureRows - 1;
      const source = (textureY + row) * textureWidth + textureX + column;
      const texel = texture[source]!;
      const alpha = texel >>> 24;
      if (alpha === 0) continue;
      depth[index] = z;
      if (alpha === 255) {
        colours[index] = shade ? shadeTexel(texel, shade) : texel;
      } else {
        blend(pixels, index * 4, textureBytes, source * 4, shade);
      }
    }
  }
}

/** Texels in a face's patch, its border included (see facePatch). */
function patchSize(face: ScreenFace, texels: Texels): number {
  return (face.columns * texels.scale + 2) * (face.rows * texels.scale + 2);
}

/**
 * Copies the texels of a face's texture rectangle into `patch` as the face shows them, shaded and mirrored if
 * the face is, with a border of one texel that repeats the edge texels; returns whether all are opaque. Pixel
 * centres up to EDGE_SLACK outside a face map to texel column or row -1 (span-loop.ts rounds down), or to
 * `columns` or `rows`, which the direct loop clamps to the edge: the border makes the clamp unnecessary.
 */
function facePatch(
  patch: Uint32Array,
  texels: Texels,
  x: number,
  y: number,
  columns: number,
  rows: number,
  mirrored: boolean,
  shade: Uint8Array | null,
): boolean {
  const { colours: texture, width: textureWidth } = texels;
  let opaque = true;
  let at = 0;
  for (let row = -1; row <= rows; row++) {
    const from = (y + Math.min(Math.max(row, 0), rows - 1)) * textureWidth + x;
    for (let column = -1; column <= columns; column++, at++) {
      const clamped = Math.min(Math.max(column, 0), columns - 1);
      const texel = texture[from + (mirrored ? columns - 1 - clamped : clamped)]!;
      patch[at] = shade ? shadeTexel(texel, shade) : texel;
      if (texel >>> 24 !== 255) opaque = false;
    }
  }
  return opaque;
}

/**
 * Flat views: every face is an upright rectangle on screen and none hides another, so each texel is copied
 * as a run of pixels, without depth test. A pixel takes the texel under its centre, as in drawFace.
 */
function drawUprightFace(face: ScreenFace, texels: Texels, target: FlatTarget): void {
  const { width, height, pixels, colours, scale } = target;
  const { colours: texture, bytes: textureBytes, width: textureWidth, scale: texelScale } = texels;
  const originX = face.originX * scale + target.offsetX;
  const originY = face.originY * scale + target.offsetY;
  // Pixels per texture pixel (not per model unit: HD textures have several texture pixels per unit).
  const stepX = (face.stepAX * scale) / texelScale;
  const stepY = (face.stepBY * scale) / texelScale;
  const textureColumns = face.columns * texelScale;
  const textureRows = face.rows * texelScale;
  const textureX = face.rectX * texelScale;
  const textureY = face.rectY * texelScale;
  // Pixels whose centres lie in [p, q) along an axis run from ceil(p - 0.5) up to, not including, ceil(q - 0.5).
  const firstRow = Math.max(0, Math.ceil(originY - 0.5));
  const endRow = Math.min(height, Math.ceil(originY + textureRows * stepY - 0.5));
  for (let y = firstRow; y < endRow; y++) {
    const row = Math.min(textureRows - 1, Math.floor((y + 0.5 - originY) / stepY));
    for (let column = 0; column < textureColumns; column++) {
      const start = y * width + Math.max(0, Math.ceil(originX + column * stepX - 0.5));
      const end = y * width + Math.min(width, Math.ceil(originX + (column + 1) * stepX - 0.5));
      const source = (textureY + row) * textureWidth + textureX + (face.mirrored ? textureColumns - 1 - column : column);
      const alpha = texture[source] >>> 24;
      if (alpha === 255) colours.fill(texture[source], start, end);
      else if (alpha !== 0) for (let index = start; index < end; index++) blend(pixels, index * 4, textureBytes, source * 4, null);
    }
  }
}

function shadeTexel(texel: number, shade: Uint8Array): number {
  return (texel & 0xff000000) | (shade[(texel >>> 16) & 0xff] << 16) | (shade[(texel >>> 8) & 0xff] << 8) | shade[texel & 0xff];
}

/** Source-over compositing of a translucent texel onto straight-alpha pixels. */
function blend(pixels: Uint8Array, at: number, texture: Uint8Array, from: number, shade: Uint8Array | null): void {
  const sourceAlpha = texture[from + 3] / 255;
  const below = (pixels[at + 3] / 255) * (1 - sourceAlpha);
  const outAlpha = sourceAlpha + below;
  for (let channel = 0; channel < 3; channel++) {
    const source = shade ? shade[texture[from + channel]] : texture[from + channel];
    pixels[at + channel] = Math.round((source * sourceAlpha + pixels[at + channel] * below) / outAlpha);
  }
  pixels[at + 3] = Math.round(outAlpha * 255);
}

// ---------------------------------------------------------------------------------------------------------
// Checks on the inputs.

function checkSize(size: number, minimum = MIN_RENDER_SIZE): void {
  if (!Number.isInteger(minimum) || minimum < 1 || minimum > MIN_RENDER_SIZE)
    throw new RangeError(`minimumSize must be from 1 to ${MIN_RENDER_SIZE}`);
  if (!Number.isInteger(size) || size < minimum || size > MAX_RENDER_SIZE) {
    throw new RangeError(`size must be an integer from ${minimum} to ${MAX_RENDER_SIZE}`);
  }
}

function checkTexture(name: string, image: RgbaImage, heightRatios: number[]): void {
  const { width, height, data } = image;
  if (width < 64 || width % 64 !== 0 || !heightRatios.some((ratio) => height === width * ratio) || data.length !== width * height * 4) {
    throw new RangeError(`${name} texture has an unsupported size ${width}x${height}`);
  }
}
