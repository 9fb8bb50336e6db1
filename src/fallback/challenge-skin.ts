// The challenge skin's strip (contract section 20): a keyed hash carried in 16 opaque pixels of a 64x64 skin, as
// Drasl's challenge skin does; drawing it into a template and reading it back from what a source serves.
import { openPng } from '../rendering/png-decode.ts';
import type { RgbaImage } from '../skin/texture.ts';

/** The strip that carries the hash: x 40-47, y 9-10 (the hat layer's front, as Drasl's), 16 opaque pixels of RGB. */
export const STRIP = { x: 40, y: 9, width: 8, height: 2 } as const;
export const STRIP_BYTES = STRIP.width * STRIP.height * 3;

/** A copy of `template` (64x64) with the strip's pixels set to the bytes, opaque. */
export function stamped(template: RgbaImage, bytes: Buffer): RgbaImage {
  const data = new Uint8Array(template.data);
  for (let index = 0; index < STRIP.width * STRIP.height; index += 1) {
    const x = STRIP.x + (index % STRIP.width);
    const y = STRIP.y + Math.floor(index / STRIP.width);
    const at = (y * template.width + x) * 4;
    data[at] = bytes[index * 3]!;
    data[at + 1] = bytes[index * 3 + 1]!;
    data[at + 2] = bytes[index * 3 + 2]!;
    data[at + 3] = 255;
  }
  return { width: template.width, height: template.height, data };
}

/** Whether a skin (64x64) carries the strip. */
export function carries(image: RgbaImage, bytes: Buffer): boolean {
  if (image.width !== 64 || image.height !== 64) return false;
  for (let index = 0; index < STRIP.width * STRIP.height; index += 1) {
    const x = STRIP.x + (index % STRIP.width);
    const y = STRIP.y + Math.floor(index / STRIP.width);
    const at = (y * image.width + x) * 4;
    if (
      image.data[at] !== bytes[index * 3] ||
      image.data[at + 1] !== bytes[index * 3 + 1] ||
      image.data[at + 2] !== bytes[index * 3 + 2] ||
      image.data[at + 3] !== 255
    )
      return false;
  }
  return true;
}

/** A skin as a source serves it, decoded when it is no wider or taller than MAX_SKIN_WIDTH; null otherwise. */
export async function decodeSkin(png: Buffer, maxWidth: number): Promise<RgbaImage | null> {
  try {
    const file = openPng(png);
    if (file.header.width > maxWidth || file.header.height > maxWidth) return null;
    return await file.decode();
  } catch {
    return null;
  }
}
