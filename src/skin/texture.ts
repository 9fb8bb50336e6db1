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

/** Java's `UUID.hashCode()`: the XOR of the UUID's four 32-bit words, as a signed 32-bit integer. */
export function javaUuidHashCode(uuid: string): number {
  const hex = uuid.replace(/-/g, '');
  let folded = 0;
  for (let word = 0; word < 4; word += 1) folded ^= Number.parseInt(hex.slice(word * 8, word * 8 + 8), 16);
  return folded | 0;
}

/** How many default skins the game has since 1.19.3 (DefaultPlayerSkin): 9 slim ones, then the same 9 wide. */
const GAME_DEFAULT_SKINS = 18;

/**
 * Which of the game's default skins a player UUID gets since 1.19.3: `floorMod(uuid.hashCode(), 18)`, 0 to 17; 0 to 8
 * are the slim ones (alex, ari, efe, kai, makena, noor, steve, sunny, zuri), 9 to 17 the same wide.
 */
export function gameDefaultSkinIndex(playerUuid: string): number {
  return ((javaUuidHashCode(playerUuid) % GAME_DEFAULT_SKINS) + GAME_DEFAULT_SKINS) % GAME_DEFAULT_SKINS;
}

/**
 * Which default model a player without a skin gets: the model of the game's own default for that UUID (contract
 * section 25), so a player keeps the same arms everywhere. The service draws it with its own two default skins (the
 * game's 18 are Mojang's). No player (a skin or cape UUID): classic.
 */
export function defaultModelIsSlim(playerUuid: string | null): boolean {
  if (!playerUuid) return false;
  return gameDefaultSkinIndex(playerUuid) < GAME_DEFAULT_SKINS / 2;
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
