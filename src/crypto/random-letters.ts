// Codes people type: mail codes, recovery codes, the device grant's user codes, app passwords.
import { randomInt } from 'node:crypto';

/** The code alphabet of contract section 15: 32 letters without look-alikes (no 0/O, 1/I), 5 bits each. */
export const CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** `length` letters of `alphabet`, each drawn uniformly by the system's cryptographic generator. */
export const randomLetters = (length: number, alphabet: string = CODE_ALPHABET): string =>
  Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
