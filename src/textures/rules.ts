// Allowed texture dimensions (contract section 7), checked on the PNG header before decoding.
import { badRequest } from '../http/envelope.ts';

export function checkSkinSize({ width, height }: { width: number; height: number }, maxWidth: number) {
  const ok = width % 64 === 0 && width >= 64 && width <= maxWidth && (height === width || height * 2 === width);
  if (!ok) {
    throw badRequest('textures.skinSize', { max: maxWidth, width, height });
  }
}

/** Capes are 64x32 multiples, or 22x17 multiples (an older layout) that are padded to the matching 64x32 multiple. */
export function checkCapeSize({ width, height }: { width: number; height: number }, maxWidth: number): { scale: number; padded: boolean } {
  if (width % 64 === 0 && width >= 64 && width <= maxWidth && height * 2 === width) return { scale: width / 64, padded: false };
  const scale = width / 22;
  if (Number.isInteger(scale) && scale >= 1 && height === 17 * scale && 64 * scale <= maxWidth) return { scale, padded: true };
  throw badRequest('textures.capeSize', { max: maxWidth, width, height });
}
