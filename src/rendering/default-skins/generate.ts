// Paints the project's own default skins (original art, not Mojang's characters): an explorer with goggles
// pushed up on the forehead, a rolled-sleeve shirt, a satchel strap, khaki trousers and boots. The classic
// file has short brown hair and an olive shirt; the slim one has long auburn hair and a teal shirt.
// Run: node --import tsx src/rendering/default-skins/generate.ts (writes classic.png and slim.png here).
import { writeFileSync } from 'node:fs';
import { boxLayout, skinParts, type FaceName, type SkinPartName } from '../../skin/layout.ts';
import type { RgbaImage } from '../../skin/texture.ts';
import { encodePng } from '../png.ts';

type Colour = readonly [number, number, number];

interface Character {
  file: string;
  slim: boolean;
  longHair: boolean;
  hair: Colour;
  iris: Colour;
  shirt: Colour;
}

const SKIN: Colour = [204, 148, 108];
const SKIN_SHADOW: Colour = [182, 126, 90];
const EYE_WHITE: Colour = [242, 240, 234];
const MOUTH: Colour = [146, 78, 62];
const LEATHER: Colour = [124, 80, 46];
const BELT: Colour = [64, 44, 30];
const BRASS: Colour = [210, 172, 76];
const GLASS: Colour = [150, 206, 220];
const TROUSERS: Colour = [178, 154, 110];
const BOOT: Colour = [80, 54, 38];
const BOOT_CUFF: Colour = [108, 74, 50];
const SOLE: Colour = [46, 32, 24];

const CHARACTERS: Character[] = [
  { file: 'classic.png', slim: false, longHair: false, hair: [94, 60, 36], iris: [52, 110, 140], shirt: [96, 126, 64] },
  { file: 'slim.png', slim: true, longHair: true, hair: [150, 72, 42], iris: [62, 128, 78], shirt: [52, 126, 128] },
];

const darker = (colour: Colour, by = 0.8): Colour => [colour[0] * by, colour[1] * by, colour[2] * by];

/** What one texel of a face shows (null: transparent), given its column and row within the face. */
type Painter = (face: FaceName, column: number, row: number) => Colour | null;

function headBase(character: Character): Painter {
  const { hair, iris, longHair } = character;
  const brow = darker(hair, 0.75);
  return (face, column, row) => {
    if (face === 'top') return hair;
    if (face === 'bottom') return SKIN_SHADOW;
    if (face === 'back') return row < (longHair ? 8 : 6) ? hair : SKIN_SHADOW;
    if (face === 'front') {
      if (row < 2 || (row === 2 && (column < 3 || column === 7))) return hair; // fringe parted to one side
      if (longHair && (column === 0 || column === 7)) return hair;
      if (row === 3 && (column === 1 || column === 2 || column === 5 || column === 6)) return brow;
      // Eyes glancing to one side.
      if (row === 4 && (column === 1 || column === 5)) return EYE_WHITE;
      if (row === 4 && (column === 2 || column === 6)) return iris;
      if (row === 5 && (column === 3 || column === 4)) return SKIN_SHADOW; // nose
      if (row === 6 && (column === 3 || column === 4)) return MOUTH;
      return SKIN;
    }
    // Sides: the column next to the front is 7 on the right side and 0 on the left one.
    const fromFront = face === 'right' ? 7 - column : column;
    if (row < 2 || (fromFront >= 4 && row < (longHair ? 8 : 6)) || (longHair && fromFront >= 2)) return hair;
    if (fromFront === 3 && (row === 4 || row === 5)) return SKIN_SHADOW; // ear
    return SKIN;
  };
}

/** Goggles pushed up on the forehead: a strap around the head, two glass lenses and a brass bridge. */
const headOverlay: Painter = (face, column, row) => {
  const lens = column === 1 || column === 2 || column === 5 || column === 6;
  if (face === 'front' && lens && (row === 1 || row === 2)) return row === 1 ? GLASS : darker(GLASS, 0.85);
  if (face === 'front' && row === 2 && (column === 3 || column === 4)) return BRASS;
  return face !== 'top' && face !== 'bottom' && row === 2 ? LEATHER : null;
};

function bodyBase({ shirt }: Character): Painter {
  return (face, column, row) => {
    if (face === 'top') return shirt;
    if (face === 'bottom' || row >= 10) return TROUSERS;
    if (row === 9) return face === 'front' && (column === 3 || column === 4) ? BRASS : BELT;
    if (face === 'front') {
      if (row === 0 && (column === 3 || column === 4)) return SKIN; // open collar
      if ((row === 0 && (column === 2 || column === 5)) || (row === 1 && (column === 3 || column === 4))) return darker(shirt);
      return isStrap(column, row) ? LEATHER : shirt;
    }
    // The satchel strap runs from the right shoulder to the left hip, front and back.
    if (face === 'back') return isStrap(7 - column, row) ? LEATHER : shirt;
    return shirt;
  };
}
const isStrap = (column: number, row: number) => {
  const centre = Math.round((row * 7) / 8);
  return column === centre || column === centre + 1;
};

/** The satchel itself, on the left hip, standing out of the body as second-layer texels. */
const bodyOverlay: Painter = (face, column, row) => {
  const bag = row >= 6 && row <= 9;
  if (face === 'left' && bag) return row === 6 ? darker(LEATHER) : LEATHER;
  if (face === 'front' && bag && column >= 6) return row === 6 ? darker(LEATHER) : LEATHER;
  return null;
};

function armBase({ shirt }: Character, wristband: boolean): Painter {
  return (face, _column, row) => {
    if (face === 'top') return shirt;
    if (face === 'bottom') return SKIN_SHADOW;
    if (row < 5) return shirt;
    if (row === 5) return darker(shirt);
    if (wristband && row === 9) return LEATHER;
    return SKIN;
  };
}

/** Rolled sleeve cuffs stand out as a ring of second-layer texels. */
function armOverlay({ shirt }: Character): Painter {
  return (face, _column, row) => (face !== 'top' && face !== 'bottom' && row === 5 ? darker(shirt, 0.7) : null);
}

function legBase(kneePatch: boolean): Painter {
  return (face, column, row) => {
    if (face === 'top') return TROUSERS;
    if (face === 'bottom') return SOLE;
    if (row === 8) return darker(TROUSERS, 0.85);
    if (row >= 9) return row === 9 ? BOOT_CUFF : BOOT;
    if (kneePatch && face === 'front' && (row === 5 || row === 6) && (column === 1 || column === 2)) return darker(TROUSERS, 0.85);
    return TROUSERS;
  };
}

/** Boot tops as a rim of second-layer texels. */
const legOverlay: Painter = (face, _column, row) => (face !== 'top' && face !== 'bottom' && row === 9 ? BOOT_CUFF : null);

function paintersOf(character: Character): Record<SkinPartName, { base: Painter; overlay: Painter }> {
  return {
    head: { base: headBase(character), overlay: headOverlay },
    body: { base: bodyBase(character), overlay: bodyOverlay },
    rightArm: { base: armBase(character, false), overlay: armOverlay(character) },
    leftArm: { base: armBase(character, true), overlay: armOverlay(character) },
    rightLeg: { base: legBase(false), overlay: legOverlay },
    leftLeg: { base: legBase(true), overlay: legOverlay },
  };
}

function paintSkin(character: Character): RgbaImage {
  const image: RgbaImage = { width: 64, height: 64, data: new Uint8Array(64 * 64 * 4) };
  const painters = paintersOf(character);
  for (const part of skinParts(character.slim)) {
    for (const layer of ['base', 'overlay'] as const) {
      const layout = boxLayout(...part[layer], part.size);
      for (const face of Object.keys(layout) as FaceName[]) {
        const [x, y, width, height] = layout[face];
        for (let row = 0; row < height; row++) {
          for (let column = 0; column < width; column++) {
            const colour = painters[part.name][layer](face, column, row);
            if (colour) setTexel(image, x + column, y + row, colour);
          }
        }
      }
    }
  }
  return image;
}

/** Sets an opaque texel with a little deterministic brightness grain, for a hand-painted look. */
function setTexel(image: RgbaImage, x: number, y: number, colour: Colour): void {
  const grain = ((((x * 73856093) ^ (y * 19349663)) >>> 0) % 9) - 4;
  const at = (y * image.width + x) * 4;
  for (let channel = 0; channel < 3; channel++) image.data[at + channel] = Math.max(0, Math.min(255, Math.round(colour[channel] + grain)));
  image.data[at + 3] = 255;
}

for (const character of CHARACTERS) {
  writeFileSync(new URL(character.file, import.meta.url), encodePng(paintSkin(character)));
}
