// Where each part of the player sits on a skin texture and in the model, shared by the renderer and the
// default-skin generator. Everything is at 64-wide scale (multiply by width / 64 for HD textures).

export type Vec3 = readonly [number, number, number];
export type Rect = readonly [x: number, y: number, width: number, height: number];
export type FaceName = 'top' | 'bottom' | 'right' | 'front' | 'left' | 'back';
export type SkinPartName = 'head' | 'body' | 'rightArm' | 'leftArm' | 'rightLeg' | 'leftLeg';

export interface SkinPart {
  name: SkinPartName;
  /** Extent along x, y, z in model units: also the width, height and depth of its texture box. */
  size: Vec3;
  /**
   * Lowest corner in the model: x to the player's left (the viewer's right when facing the player), y up,
   * z out of the player's front, feet at y=0.
   */
  min: Vec3;
  /** Top-left corners of the base and overlay (second layer) texture boxes. */
  base: readonly [number, number];
  overlay: readonly [number, number];
}

/** The six parts of a 64x64 skin; slim skins have 3-texel-wide arms. */
export function skinParts(slim: boolean): SkinPart[] {
  const arm = slim ? 3 : 4;
  return [
    { name: 'head', size: [8, 8, 8], min: [-4, 24, -4], base: [0, 0], overlay: [32, 0] },
    { name: 'body', size: [8, 12, 4], min: [-4, 12, -2], base: [16, 16], overlay: [16, 32] },
    { name: 'rightArm', size: [arm, 12, 4], min: [-4 - arm, 12, -2], base: [40, 16], overlay: [40, 32] },
    { name: 'leftArm', size: [arm, 12, 4], min: [4, 12, -2], base: [32, 48], overlay: [48, 48] },
    { name: 'rightLeg', size: [4, 12, 4], min: [-4, 0, -2], base: [0, 16], overlay: [0, 32] },
    { name: 'leftLeg', size: [4, 12, 4], min: [0, 0, -2], base: [16, 48], overlay: [0, 48] },
  ];
}

/**
 * Minecraft's box layout: a box of width w, height h and depth d at (u, v) puts its top and bottom in a
 * row, then right side, front, left side and back below them. "Right" and "left" are the player's.
 */
export function boxLayout(u: number, v: number, [w, h, d]: Vec3): Record<FaceName, Rect> {
  return {
    top: [u + d, v, w, d],
    bottom: [u + d + w, v, w, d],
    right: [u, v + d, d, h],
    front: [u + d, v + d, w, h],
    left: [u + d + w, v + d, d, h],
    back: [u + 2 * d + w, v + d, w, h],
  };
}
