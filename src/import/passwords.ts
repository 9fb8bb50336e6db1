// How a reader stores a source's password hash: tagged with its format (src/accounts/imported-passwords.ts
// verifies each), or marked unusable when no format we know fits (the account then needs a reset or an admin).
export const storedPassword = (format: string, payload: string) => `imported:${format}:${payload}`;

/** A bcrypt or argon2 string as PHP's password_hash, node's bcrypt or argon2 libraries write it; null otherwise. */
export function modularCryptHash(value: string): string | null {
  if (/^\$2[abxy]\$\d{2}\$[./A-Za-z0-9]{53}$/.test(value)) return storedPassword('bcrypt', value);
  if (/^\$argon2(i|id)\$/.test(value)) return storedPassword('argon2', value);
  return null;
}

export const unusablePassword = (reason: string) => storedPassword('unusable', reason);
