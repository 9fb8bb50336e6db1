// Turns an accepted upload into its canonical form: decoded, re-encoded as 8-bit RGBA with no metadata chunks
// (capes of the 22x17 layout padded to 64x32), and addressed by the SHA-256 of those bytes. The same picture
// uploaded twice, whatever its encoding, is one texture. Every way a texture comes in goes through here.
import { createHash } from 'node:crypto';
import { badRequest } from '../http/envelope.ts';
import { encodePng } from '../rendering/png.ts';
import { openPng, PngError } from '../rendering/png-decode.ts';
import type { RgbaImage } from '../skin/texture.ts';
import { checkCapeSize, checkSkinSize } from './rules.ts';

export type TextureKind = 'skin' | 'cape';

export interface CanonicalTexture {
  png: Buffer;
  image: RgbaImage;
  digest: string;
}

export const digestOf = (png: Buffer) => createHash('sha256').update(png).digest('hex');

export async function canonicalTexture(upload: Buffer, kind: TextureKind, maxWidth: number): Promise<CanonicalTexture> {
  try {
    const file = openPng(upload);
    // The dimensions are refused from the header, before a byte is inflated.
    const cape = kind === 'cape' ? checkCapeSize(file.header, maxWidth) : null;
    if (kind === 'skin') checkSkinSize(file.header, maxWidth);
    const decoded = await file.decode();
    const image = cape?.padded ? padTo(decoded, 64 * cape.scale, 32 * cape.scale) : decoded;
    const png = encodePng(image);
    return { png, image, digest: digestOf(png) };
  } catch (error) {
    throw error instanceof PngError ? badRequest(`textures.${error.problem}`, { context: kind }) : error;
  }
}

/** Places `image` at the top left of a transparent canvas of the given size. */
function padTo(image: RgbaImage, width: number, height: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let row = 0; row < image.height; row += 1) {
    data.set(image.data.subarray(row * image.width * 4, (row + 1) * image.width * 4), row * width * 4);
  }
  return { width, height, data };
}
