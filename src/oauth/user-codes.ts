// The device grant's user codes (contract section 18): 8 letters of the code alphabet of section 15 (40 bits, ten
// minutes), shown upper case as XXXX-XXXX and accepted in any case, with or without the dash.
import { randomLetters } from '../crypto/random-letters.ts';

const SHAPE = /^([2-9A-HJ-NP-Z]{4})-?([2-9A-HJ-NP-Z]{4})$/;

/** A new code, as stored (no dash). */
export const newUserCode = () => randomLetters(8);

/** The code as a player reads it. */
export const shownUserCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

/** The stored form of what a player typed; undefined when it cannot be a code. */
export function normalizedUserCode(given: string): string | undefined {
  const match = SHAPE.exec(given.replace(/\s+/g, '').toUpperCase());
  return match ? `${match[1]}${match[2]}` : undefined;
}
