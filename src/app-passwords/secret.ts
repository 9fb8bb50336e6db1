// The form of an app password: `app-` and 28 letters of the code alphabet in lower case without l (31 letters: 138
// random bits) in four groups, such as app-k7q2m9p-hx4rcn8-w3tzb5e-jd6vfl2. The prefix says what it is (to the player, to a secret scanner, to the login,
// which looks for one only in a password of this form); it adds nothing a guesser lacks, the 138 bits stay. Typed
// back in any letter case, with or without the dashes.
import { createHash, timingSafeEqual } from 'node:crypto';
import { randomLetters } from '../crypto/random-letters.ts';

const ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';
const PREFIX = 'app';
const LETTERS = 28;
const GROUP = 7;
const FORM = new RegExp(`^${PREFIX}[${ALPHABET}]{${LETTERS}}$`);

/** A new app password, as the player sees it once. */
export function newAppPassword(): string {
  const letters = randomLetters(LETTERS, ALPHABET);
  const groups = letters.match(new RegExp(`.{${GROUP}}`, 'g'))!;
  return [PREFIX, ...groups].join('-');
}

/**
 * How an app password is stored: SHA-256 of its normalised form, or null when `given` has not the form of one. A
 * secret of 138 random bits needs no slow hash: nobody can try enough of them (docs/decisions.md).
 */
export function appPasswordHash(given: string): string | null {
  const normalised = given.trim().toLowerCase().replace(/[\s-]/g, '');
  if (normalised.length !== PREFIX.length + LETTERS || !FORM.test(normalised)) return null;
  return createHash('sha256').update(normalised).digest('hex');
}

/**
 * The stored hash among `stored` that `hash` is, comparing with every one of them in constant time, so that the
 * answer's time says nothing of how near a guess came nor which one matched.
 */
export function matchingHash<T extends { password_hash: string }>(stored: readonly T[], hash: string): T | undefined {
  const wanted = Buffer.from(hash, 'hex');
  let found: T | undefined;
  for (const row of stored) {
    const candidate = Buffer.from(row.password_hash, 'hex');
    const same = candidate.length === wanted.length && timingSafeEqual(candidate, wanted);
    if (same && found === undefined) found = row;
  }
  return found;
}
