// argon2id with OWASP's recommended minimum cost (19 MiB, 2 passes): slow for attackers, ~20-40 ms for us.
import { type Algorithm, hash, verify } from '@node-rs/argon2';

// Algorithm is an ambient const enum, which verbatimModuleSyntax cannot import: 2 is its Argon2id member.
const ARGON2ID = 2 as Algorithm;

export const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, ARGON2_OPTIONS);

// Verifying against this when the user does not exist makes "no such user" take as long as "wrong password".
const UNKNOWN_USER_HASH = hash('no user has this password', ARGON2_OPTIONS);

export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (storedHash === null) {
    await verify(await UNKNOWN_USER_HASH, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}
