// Turns an accepted upload into its canonical form: decoded by a real PNG library, re-encoded as 8-bit RGBA with
// no metadata chunks (capes of the 22x17 layout padded to 64x32), and addressed by the SHA-256 of those bytes.
// The same picture uploaded twice, whatever its encoding, is one texture.
import { createHash } from 'node:crypto';
import { badRequest } from '../http/envelope.ts';
import { decodePng, encodePng } from '../rendering/png.ts';
import type { RgbaImage } from '../skin/texture.ts';
import { readPngHeader } from './png-header.ts';
import { checkCapeSize, checkSkinSize } from './rules.ts';

export type TextureKind = 'skin' | 'cape';

export interface CanonicalTexture {
  png: Buffer;
  image: RgbaImage;
  digest: string;
}

export const digestOf = (png: Buffer) => createHash('sha256').update(png).digest('hex');

export function canonicalTexture(upload: Buffer, kind: TextureKind, maxWidth: number): CanonicalTexture {
  const header = readPngHeader(upload, kind);
  const cape = kind === 'cape' ? checkCapeSize(header, maxWidth) : null;
  if (kind === 'skin') checkSkinSize(header, maxWidth);
  let image: RgbaImage;
  try {
    image = decodePng(upload);
  } catch {
    throw badRequest('textures.truncated', { context: kind });
  }
  if (image.width !== header.width || image.height !== header.height) throw badRequest('textures.invalidPng', { context: kind });
  if (cape?.padded) image = padTo(image, 64 * cape.scale, 32 * cape.scale);
  const png = encodePng(image);
  return { png, image, digest: digestOf(png) };
}

/** Places `image` at the top left of a transparent canvas of the given size. */
function padTo(image: RgbaImage, width: number, height: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let row = 0; row < image.height; row += 1) {
    data.set(image.data.subarray(row * image.width * 4, (row + 1) * image.width * 4), row * width * 4);
  }
  return { width, height, data };
}
