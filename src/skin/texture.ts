// What a decoded skin texture is and what its pixels say about it: the arm model, whether an old skin's hat counts,
// and which default model a player without a skin gets. Uploads (textures/) and the renderer (rendering/) both ask
// here, so an upload never passes through the renderer to learn these facts.

/** An 8-bit RGBA image, rows top to bottom, 4 bytes per pixel, not premultiplied. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** 64x32 (and HD multiples): the layout from before the second layer and the separate left limbs. */
export function isLegacySkin(skin: RgbaImage): boolean {
  return skin.height !== skin.width;
}

/**
 * Slim skins leave the fourth column of the right arm unused, so those texels are fully transparent:
 * x=50..51, y=16..19 (end of the arm's top/bottom strip) and x=54..55, y=20..31 (end of its side strip),
 * at 64-wide scale. Legacy 64x32 skins predate slim arms and are always classic.
 */
export function isSlimSkin(skin: RgbaImage): boolean {
  if (isLegacySkin(skin)) return false;
  return isTransparent(skin, 50, 16, 2, 4) && isTransparent(skin, 54, 20, 2, 12);
}

/** Minecraft's rule for old skins: a hat area without a single transparent pixel is not a hat. */
export function hasHat(skin: RgbaImage): boolean {
  return !isLegacySkin(skin) || !isOpaque(skin, 32, 0, 32, 16);
}

/**
 * Which default model a player without a skin gets, decided by their UUID as the game does it (the parity of the
 * UUID's 32-bit words XORed together), so a player keeps the same default everywhere. No player: classic.
 */
export function defaultModelIsSlim(playerUuid: string | null): boolean {
  if (!playerUuid) return false;
  const hex = playerUuid.replace(/-/g, '');
  let folded = 0;
  for (let word = 0; word < 4; word += 1) folded ^= Number.parseInt(hex.slice(word * 8, word * 8 + 8), 16);
  return (folded & 1) === 1;
}

/** Whether every pixel of a rectangle (at 64-wide scale) has alpha 0. */
function isTransparent(image: RgbaImage, x: number, y: number, w: number, h: number): boolean {
  return everyAlpha(image, x, y, w, h, (alpha) => alpha === 0);
}

function isOpaque(image: RgbaImage, x: number, y: number, w: number, h: number): boolean {
  return everyAlpha(image, x, y, w, h, (alpha) => alpha === 255);
}

function everyAlpha(image: RgbaImage, x: number, y: number, w: number, h: number, test: (alpha: number) => boolean): boolean {
  const s = image.width / 64;
  for (let row = y * s; row < (y + h) * s; row++) {
    for (let column = x * s; column < (x + w) * s; column++) {
      if (!test(image.data[(row * image.width + column) * 4 + 3]!)) return false;
    }
  }
  return true;
}
