// The test textures of shared/fixtures, copied into test/fixtures so that a fresh clone tests itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FormFile } from './multipart.ts';

export const FIXTURES = join(import.meta.dirname, '../fixtures');

export const fixture = (path: string) => readFileSync(join(FIXTURES, path));

/** A multipart file list with a skin fixture (or the given bytes) in the field `skin`. */
export const skinFile = (name: string, bytes: Buffer = fixture(`skins/${name}.png`)): FormFile[] => [
  { field: 'skin', filename: `${name}.png`, bytes },
];

/** A multipart file list with a cape fixture (or the given bytes) in the field `cape`. */
export const capeFile = (name: string, bytes: Buffer = fixture(`capes/${name}.png`)): FormFile[] => [
  { field: 'cape', filename: `${name}.png`, bytes },
];
