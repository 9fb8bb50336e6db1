// Shared by the rendering tests: decoded fixtures, the manifest of their faces, saving renders to look at, and
// telling which texture face an output pixel came from by its colour.
import { mkdirSync, writeFileSync } from 'node:fs';
import { decodePng } from '../../src/rendering/png.ts';
import { SHADE } from '../../src/rendering/render.ts';
import type { RgbaImage } from '../../src/skin/texture.ts';
import { fixture } from './fixtures.ts';

const RENDERS = new URL('../../test-output/renders/', import.meta.url);

export type Rgb = readonly [number, number, number];

export interface ManifestFace {
  /** [x, y, width, height] at 64-wide scale. */
  rect: readonly [number, number, number, number];
  /** The face's top-left texel; the fixtures add a small gradient (see `gradientAt`). */
  colour: Rgb;
  /** Overlay faces: "row % 4 < 2" (opaque rows, counted in texels), others transparent. */
  opaqueRows?: string;
}

interface ManifestFile {
  width?: number;
  height?: number;
  faces?: Record<string, ManifestFace>;
  sameAs?: string;
}

const manifest = JSON.parse(fixture('manifest.json').toString('utf8')) as { files: Record<string, ManifestFile> };

/** A fixture texture, decoded. */
export function decodedFixture(path: string): RgbaImage {
  return decodePng(fixture(path));
}

export function facesOf(path: string): Record<string, ManifestFace> {
  const entry = manifest.files[path];
  const faces = entry?.faces ?? (entry?.sameAs ? manifest.files[entry.sameAs]?.faces : undefined);
  if (!faces) throw new Error(`no faces for ${path} in the manifest`);
  return faces;
}

/** Writes a render under test-output/renders/ so that a person can look at it. */
export function saveRender(name: string, png: Buffer): void {
  mkdirSync(RENDERS, { recursive: true });
  writeFileSync(new URL(`${name}.png`, RENDERS), png);
}

export function pixelAt(image: RgbaImage, x: number, y: number): [number, number, number, number] {
  const at = (y * image.width + x) * 4;
  return [image.data[at]!, image.data[at + 1]!, image.data[at + 2]!, image.data[at + 3]!];
}

/** The texel of a texture at 64-scale texel (x, y), reading the top-left pixel of HD texels. */
export function texelAt(texture: RgbaImage, x: number, y: number): [number, number, number, number] {
  const scale = texture.width / 64;
  return pixelAt(texture, x * scale, y * scale);
}

/** Every texel colour of a face, in texel units (one entry per 64-scale texel). */
export function faceTexels(texture: RgbaImage, face: ManifestFace): [number, number, number, number][] {
  const [x, y, width, height] = face.rect;
  const texels: [number, number, number, number][] = [];
  for (let row = 0; row < height; row++) for (let column = 0; column < width; column++) texels.push(texelAt(texture, x + column, y + row));
  return texels;
}

export interface Classified {
  face: string;
  shade: keyof typeof SHADE;
  distance: number;
}

/**
 * The face (and shading) whose colour best explains a pixel. The fixtures paint each face with its
 * manifest colour plus up to 7 in red (per column) and green (per row); the renderer multiplies the colour
 * by a documented factor per face direction (SHADE). Tops are only ever lit as tops, upright faces as
 * fronts or sides.
 */
export function classify(pixel: readonly number[], faces: Record<string, ManifestFace>): Classified {
  let best: Classified = { face: '', shade: 'front', distance: Infinity };
  for (const [name, face] of Object.entries(faces)) {
    const shades: (keyof typeof SHADE)[] = /\.(top|bottom)$/.test(name) ? ['top'] : ['front', 'side'];
    for (const shade of shades) {
      const factor = SHADE[shade];
      let squared = 0;
      for (let channel = 0; channel < 3; channel++) {
        const low = face.colour[channel]! * factor;
        const high = Math.min(255, (face.colour[channel]! + (channel < 2 ? 7 : 0)) * factor);
        const value = pixel[channel]!;
        const outside = value < low ? low - value : value > high ? value - high : 0;
        squared += outside * outside;
      }
      const distance = Math.sqrt(squared);
      if (distance < best.distance) best = { face: name, shade, distance };
    }
  }
  return best;
}

/** Classifies every opaque pixel; returns the pixel positions found per face. */
export function facePixels(image: RgbaImage, faces: Record<string, ManifestFace>, tolerance = 2): Map<string, { x: number; y: number }[]> {
  const found = new Map<string, { x: number; y: number }[]>();
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const pixel = pixelAt(image, x, y);
      if (pixel[3] === 0) continue;
      const match = classify(pixel, faces);
      const name = match.distance <= tolerance ? match.face : 'unexplained';
      const points = found.get(name) ?? [];
      points.push({ x, y });
      found.set(name, points);
    }
  }
  return found;
}

export const meanX = (points: { x: number }[]) => points.reduce((sum, point) => sum + point.x, 0) / points.length;

/** How many pixels of a screenshot are coloured, far from the page's white and grey: a drawn figure, not an empty canvas. */
export function paintedPixels(png: Buffer): number {
  const { data } = decodePng(png);
  let painted = 0;
  for (let offset = 0; offset < data.length; offset += 4) {
    const [red, green, blue] = [data[offset]!, data[offset + 1]!, data[offset + 2]!];
    if (Math.max(red, green, blue) - Math.min(red, green, blue) > 40) painted += 1;
  }
  return painted;
}
