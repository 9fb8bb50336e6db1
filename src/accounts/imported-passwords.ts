// Passwords an importer brought over from another service (contract section 17): kept as the source stored them,
// tagged with their format, never guessed. The stored form is `imported:<format>:<payload>`: the format is the text
// between the first and second colons (no format name has a colon), the payload is everything after the second colon.
// In the salted formats the payload is `<salt>:<hex>`, split at its LAST colon: the hex digest never has one, the
// salt may (Blessing Skin's site-wide SALT is any text). checkImported checks a password against such a value; the
// one credential check (credentials.ts, through passwords.ts) then replaces it with argon2id (upgradeImported).
//
// The slow formats (bcrypt, argon2, PBKDF2, scrypt) are checked in worker threads (imported-password-checks.ts), at a
// cost bounded by what the four sources write (contract section 15b): a stored value that asks for more (a bcrypt
// cost of 13, argon2 with 128 MiB) is refused without running, and the importers store such a value as unusable.
// A value that is malformed, of an unknown format, or out of bounds (a hostile or broken row: huge salts, a bcrypt
// cost of 31, a billion PBKDF2 rounds, argon2 asking for gigabytes) verifies as false and never throws.
import { createHash, pbkdf2Sync, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { verifySync as verifyArgon2 } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';

/**
 * The formats, as the importers write them:
 * - `bcrypt`: `$2a$`, `$2b$` or `$2y$` (PHP's password_hash) string; `$2y$` is compared as `$2b$` (the same algorithm).
 * - `argon2`: a `$argon2i$…` or `$argon2id$…` string (Blessing Skin ARGON2I, AuthMe ARGON2, CookieCMS).
 * - `md5`, `sha256`, `sha512`: lowercase hex of the digest of the password.
 * - `salted2md5`, `salted2sha256`, `salted2sha512`: `<salt>:<hex>`, hex = H(Hhex(password) ‖ salt) (Blessing Skin's
 *   SALTED2* with its site-wide SALT; AuthMe's SALTED2MD5 with the user's salt column).
 * - `sha512-salted`: `<salt>:<hex>`, hex = sha512(password ‖ salt) (AuthMe SALTEDSHA512).
 * - `authme-sha256`: AuthMe's `$SHA$<salt>$<hex>`, hex = sha256hex(sha256hex(password) ‖ salt).
 * - `pbkdf2-sha256`: AuthMe's `pbkdf2_sha256$<rounds>$<salt>$<HEX key>` (PBKDF2-HMAC-SHA256, the salt's text as the
 *   salt bytes, the key as long as the hex says: 64 bytes in AuthMe).
 * - `scrypt`: `<salt base64>:<key base64>` (Drasl: N=32768, r=8, p=1, the raw salt bytes, a 32-byte key).
 * - `unusable`: a short reason; never verifies (the account needs a reset by mail or an admin's new password).
 */
export const IMPORTED_FORMATS = [
  'bcrypt',
  'argon2',
  'md5',
  'sha256',
  'sha512',
  'salted2md5',
  'salted2sha256',
  'salted2sha512',
  'sha512-salted',
  'authme-sha256',
  'pbkdf2-sha256',
  'scrypt',
  'unusable',
] as const;

export type ImportedFormat = (typeof IMPORTED_FORMATS)[number];

const PREFIX = 'imported:';
/** The longest payload kept: the whole stored value stays within the 1024 characters the launcher API accepts. */
export const MAX_PAYLOAD_LENGTH = 960;
/** The longest salt of a salted format (as text, or decoded bytes for scrypt). */
const MAX_SALT_LENGTH = 256;
/**
 * Bounds on the work a stored value may ask for (contract section 15b): what the four sources write (PHP's bcrypt
 * cost 10, AuthMe's argon2i m=65536 t=2 p=1 and PBKDF2 of 10,000 rounds, Drasl's scrypt N=32768), with room, and no
 * more, so that no row can make a login cost seconds of CPU or hundreds of MiB.
 */
export const IMPORTED_BOUNDS = {
  bcryptCost: 12,
  argon2MemoryKib: 65_536, // 64 MiB
  argon2Passes: 4,
  argon2Lanes: 4,
  pbkdf2Rounds: 100_000,
  scryptN: 2 ** 17,
  scryptR: 8,
  scryptP: 1,
} as const;
/** Drasl's scrypt (its stored values carry no parameters), within IMPORTED_BOUNDS. */
const DRASL_SCRYPT = { N: 32_768, r: 8, p: 1 } as const satisfies ScryptOptions;
/** The formats whose check costs real work: run in worker threads, at most two at once. */
const SLOW_FORMATS: ReadonlySet<ImportedFormat> = new Set(['bcrypt', 'argon2', 'pbkdf2-sha256', 'scrypt']);

const isFormat = (text: string): text is ImportedFormat => (IMPORTED_FORMATS as readonly string[]).includes(text);

/**
 * The stored value for a password hash of `format` (an importer's call): throws for a format this module does not
 * know or a payload longer than MAX_PAYLOAD_LENGTH (store `unusable` for those instead, and report them).
 */
export function taggedHash(format: ImportedFormat, payload: string): string {
  if (!isFormat(format)) throw new TypeError(`unknown imported password format: ${String(format)}`);
  if (payload.length > MAX_PAYLOAD_LENGTH) throw new RangeError(`imported ${format} password longer than ${MAX_PAYLOAD_LENGTH} characters`);
  return `${PREFIX}${format}:${payload}`;
}

/** Whether `stored` is an imported value (of any format, known or not: none but the known ones ever verify). */
export const isImported = (stored: string): boolean => stored.startsWith(PREFIX);

/** The format of an imported value, or null for anything else (argon2id values, unknown formats). */
export function importedFormat(stored: string): ImportedFormat | null {
  return parse(stored)?.format ?? null;
}

function parse(stored: string): { format: ImportedFormat; payload: string } | null {
  if (!isImported(stored)) return null;
  const colon = stored.indexOf(':', PREFIX.length);
  if (colon < 0) return null;
  const format = stored.slice(PREFIX.length, colon);
  return isFormat(format) ? { format, payload: stored.slice(colon + 1) } : null;
}

/**
 * Why `stored` asks for more work than IMPORTED_BOUNDS allow (`bcrypt cost 13 is above 12`), or null: within them,
 * not a slow format, or malformed (which verifies as false anyway).
 */
export function beyondBounds(stored: string): string | null {
  const parsed = parse(stored);
  if (parsed === null) return null;
  const cost = COST_OF[parsed.format]?.(parsed.payload);
  return cost ?? null;
}

/** Whether checking `stored` is real work (a slow format within its bounds): it goes to a worker thread. */
export function isSlowCheck(stored: string): boolean {
  const parsed = parse(stored);
  return parsed !== null && SLOW_FORMATS.has(parsed.format) && beyondBounds(stored) === null;
}

/**
 * Whether `password` is the password of the imported value `stored`: false for anything malformed or beyond the
 * bounds, never throws. Synchronous, and seconds of work for a slow format: call it in a worker thread
 * (imported-password-checks.ts) for those.
 */
export function checkImported(stored: string, password: string): boolean {
  const parsed = parse(stored);
  if (parsed === null || parsed.payload.length > MAX_PAYLOAD_LENGTH || beyondBounds(stored) !== null) return false;
  try {
    return VERIFIERS[parsed.format](parsed.payload, password);
  } catch {
    return false;
  }
}

const BCRYPT = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;
const ARGON2 = /^\$argon2(?:i|id)\$(?:v=\d+\$)?m=(\d{1,10}),t=(\d{1,10}),p=(\d{1,10})\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;
const PBKDF2_ROUNDS = /^pbkdf2_sha256\$(\d{1,10})\$/;

/** The work a slow format's value asks for, when beyond IMPORTED_BOUNDS: the reason; null within (or malformed). */
const COST_OF: Partial<Record<ImportedFormat, (payload: string) => string | null>> = {
  bcrypt(payload) {
    const cost = Number(BCRYPT.exec(payload)?.[1] ?? 0);
    return cost > IMPORTED_BOUNDS.bcryptCost ? `bcrypt cost ${cost} is above ${IMPORTED_BOUNDS.bcryptCost}` : null;
  },
  argon2(payload) {
    const match = ARGON2.exec(payload);
    if (!match) return null;
    const [memory, passes, lanes] = match.slice(1).map(Number) as [number, number, number];
    const { argon2MemoryKib, argon2Passes, argon2Lanes } = IMPORTED_BOUNDS;
    if (memory > argon2MemoryKib) return `argon2 memory of ${memory} KiB is above ${argon2MemoryKib} KiB`;
    if (passes > argon2Passes) return `argon2 t=${passes} is above ${argon2Passes}`;
    if (lanes > argon2Lanes) return `argon2 p=${lanes} is above ${argon2Lanes}`;
    return null;
  },
  'pbkdf2-sha256'(payload) {
    const rounds = Number(PBKDF2_ROUNDS.exec(payload)?.[1] ?? 0);
    return rounds > IMPORTED_BOUNDS.pbkdf2Rounds ? `PBKDF2 with ${rounds} rounds is above ${IMPORTED_BOUNDS.pbkdf2Rounds}` : null;
  },
};

type Verifier = (payload: string, password: string) => boolean;

const HEX = /^[0-9a-fA-F]+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const DIGEST_BYTES = { md5: 16, sha256: 32, sha512: 64 } as const;
type Digest = keyof typeof DIGEST_BYTES;

const digest = (algorithm: Digest, data: string) => createHash(algorithm).update(data, 'utf8').digest();
const hexDigest = (algorithm: Digest, data: string) => digest(algorithm, data).toString('hex');

/** The bytes of `hex` when it is exactly `bytes` bytes of hex (either case), else null. */
const hexBytes = (hex: string, bytes: number): Buffer | null =>
  hex.length === bytes * 2 && HEX.test(hex) ? Buffer.from(hex, 'hex') : null;

/** Constant-time equality of a computed digest and a stored one (null: malformed, never equal). */
const same = (computed: Buffer, stored: Buffer | null) =>
  stored !== null && stored.length === computed.length && timingSafeEqual(computed, stored);

/** `<salt>:<hex>`, split at the last colon; null when there is no colon or the salt is too long. */
function saltAndHex(payload: string): { salt: string; hex: string } | null {
  const colon = payload.lastIndexOf(':');
  if (colon < 0 || colon > MAX_SALT_LENGTH) return null;
  return { salt: payload.slice(0, colon), hex: payload.slice(colon + 1) };
}

const plain =
  (algorithm: Digest): Verifier =>
  (payload, password) =>
    same(digest(algorithm, password), hexBytes(payload, DIGEST_BYTES[algorithm]));

/** H(Hhex(password) ‖ salt): Blessing Skin's and AuthMe's SALTED2MD5, Blessing Skin's SALTED2SHA256/512. */
const saltedTwice =
  (algorithm: Digest): Verifier =>
  (payload, password) => {
    const parts = saltAndHex(payload);
    return (
      parts !== null && same(digest(algorithm, hexDigest(algorithm, password) + parts.salt), hexBytes(parts.hex, DIGEST_BYTES[algorithm]))
    );
  };

/** 128 * N * r bytes for the bounds' largest scrypt, and a little: node's default maxmem (32 MiB) is just Drasl's. */
const SCRYPT_MAXMEM = 128 * IMPORTED_BOUNDS.scryptN * IMPORTED_BOUNDS.scryptR + 1024 * 1024;

const VERIFIERS: Record<ImportedFormat, Verifier> = {
  bcrypt(payload, password) {
    const match = BCRYPT.exec(payload);
    if (!match || Number(match[1]) < 4 || Number(match[1]) > IMPORTED_BOUNDS.bcryptCost) return false;
    // PHP writes $2y$, which is $2b$ under another name (both the fixed algorithm); bcryptjs is given $2b$.
    return bcrypt.compareSync(password, payload.startsWith('$2y$') ? `$2b$${payload.slice(4)}` : payload);
  },

  argon2(payload, password) {
    const match = ARGON2.exec(payload);
    if (!match) return false;
    const [memory, passes, lanes] = match.slice(1).map(Number) as [number, number, number];
    const { argon2MemoryKib, argon2Passes, argon2Lanes } = IMPORTED_BOUNDS;
    if (memory > argon2MemoryKib || passes < 1 || passes > argon2Passes || lanes < 1 || lanes > argon2Lanes) return false;
    // The string names its variant (argon2i or argon2id) and cost; @node-rs/argon2 reads them from it.
    return verifyArgon2(payload, password);
  },

  md5: plain('md5'),
  sha256: plain('sha256'),
  sha512: plain('sha512'),
  salted2md5: saltedTwice('md5'),
  salted2sha256: saltedTwice('sha256'),
  salted2sha512: saltedTwice('sha512'),

  'sha512-salted'(payload, password) {
    const parts = saltAndHex(payload);
    return parts !== null && same(digest('sha512', password + parts.salt), hexBytes(parts.hex, DIGEST_BYTES.sha512));
  },

  'authme-sha256'(payload, password) {
    // $SHA$<salt>$<hex>: four parts split at '$', as AuthMe's Sha256 reads it.
    const parts = payload.split('$');
    if (parts.length !== 4 || parts[0] !== '' || parts[1] !== 'SHA') return false;
    const [, , salt, hex] = parts as [string, string, string, string];
    if (salt.length > MAX_SALT_LENGTH) return false;
    return same(digest('sha256', hexDigest('sha256', password) + salt), hexBytes(hex, DIGEST_BYTES.sha256));
  },

  'pbkdf2-sha256'(payload, password) {
    // pbkdf2_sha256$<rounds>$<salt>$<HEX>, as AuthMe's Pbkdf2 reads it (the salt's text is the salt).
    const parts = payload.split('$');
    if (parts.length !== 4 || parts[0] !== 'pbkdf2_sha256') return false;
    const [, roundsText, salt, hex] = parts as [string, string, string, string];
    const rounds = /^\d{1,7}$/.test(roundsText) ? Number(roundsText) : 0;
    if (rounds < 1 || rounds > IMPORTED_BOUNDS.pbkdf2Rounds || salt === '' || salt.length > MAX_SALT_LENGTH) return false;
    const keyBytes = hex.length / 2;
    if (!Number.isInteger(keyBytes) || keyBytes < 16 || keyBytes > 128) return false;
    const stored = hexBytes(hex, keyBytes);
    if (stored === null) return false;
    return same(pbkdf2Sync(Buffer.from(password, 'utf8'), Buffer.from(salt, 'utf8'), rounds, keyBytes, 'sha256'), stored);
  },

  scrypt(payload, password) {
    const colon = payload.lastIndexOf(':');
    const saltText = payload.slice(0, Math.max(colon, 0));
    const keyText = payload.slice(colon + 1);
    if (colon < 0 || !BASE64.test(saltText) || !BASE64.test(keyText)) return false;
    const salt = Buffer.from(saltText, 'base64');
    const key = Buffer.from(keyText, 'base64');
    if (salt.length === 0 || salt.length > MAX_SALT_LENGTH || key.length < 16 || key.length > 64) return false;
    return same(scryptSync(Buffer.from(password, 'utf8'), salt, key.length, { ...DRASL_SCRYPT, maxmem: SCRYPT_MAXMEM }), key);
  },

  unusable: () => false,
};
