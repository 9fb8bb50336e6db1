// The skins drawn for players who have none: the project's own art (see default-skins/generate.ts),
// shipped as PNG files next to this module and decoded once, on first use.
import { readFileSync } from 'node:fs';
import type { RgbaImage } from '../skin/texture.ts';
import { decodePng } from './png.ts';

const loaded = new Map<boolean, RgbaImage>();

/** The default classic or slim skin. Shared between calls: treat it as read-only. */
export function defaultSkin(slim: boolean): RgbaImage {
  let skin = loaded.get(slim);
  if (!skin) {
    skin = decodePng(readFileSync(new URL(`./default-skins/${slim ? 'slim' : 'classic'}.png`, import.meta.url)));
    loaded.set(slim, skin);
  }
  return skin;
}
