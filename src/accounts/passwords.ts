// argon2id with OWASP's recommended minimum cost (19 MiB, 2 passes): slow for attackers, ~20-40 ms for us. Imported
// accounts may still hold their source's hash (imported-passwords.ts) until their first login replaces it.
import { type Algorithm, hash, verify } from '@node-rs/argon2';
import type { Kysely } from 'kysely';
import { actorOf, recordAudit } from '../audit/audit.ts';
import type { Database, UserRow } from '../database/schema.ts';
import type { ImportedPasswordChecks } from './imported-password-checks.ts';
import { importedFormat, isImported } from './imported-passwords.ts';

// Algorithm is an ambient const enum, which verbatimModuleSyntax cannot import: 2 is its Argon2id member.
const ARGON2ID = 2 as Algorithm;

export const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, ARGON2_OPTIONS);

/**
 * The stored value of a password-less account (registered through an OpenID Connect provider without choosing a
 * password, contract section 26): no password verifies against it. Such an account logs in through its provider, a
 * passkey or an app password, and sets a password by the reset.
 */
export const NO_PASSWORD = '';

/** Whether the account has a password of its own (not a password-less one). */
export const hasPassword = (stored: string) => stored !== NO_PASSWORD;

// Verifying against this when the user does not exist makes "no such user" take as long as "wrong password".
const UNKNOWN_USER_HASH = hash('no user has this password', ARGON2_OPTIONS);

const dummyVerify = async (password: string) => {
  await verify(await UNKNOWN_USER_HASH, password).catch(() => false);
};

/**
 * Whether `password` is the password `storedHash` holds: argon2id, or an imported value checked by `imported` (which
 * throws ImportedChecksBusy, checking nothing, when its threads are all busy). null: no account, a dummy check of the
 * same cost.
 */
export async function verifyPassword(storedHash: string | null, password: string, imported: ImportedPasswordChecks): Promise<boolean> {
  if (storedHash === null || storedHash === NO_PASSWORD) {
    await dummyVerify(password);
    return false;
  }
  if (isImported(storedHash)) {
    // An imported md5 (or an unusable value) answers at once: the dummy argon2id check alongside keeps such an
    // account as slow to refuse as any other, so timing tells no one which accounts are imported ones. When the
    // checks are busy, check() throws before the dummy starts: a refusal costs no hashing.
    const checking = imported.check(storedHash, password);
    const [verified] = await Promise.all([checking, dummyVerify(password)]);
    return verified;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

/**
 * After `password` verified against `user.password` (the value read before the check): when that is an imported
 * value, replaces it with argon2id and audits `user.password_rehash {from: format}`, but only where the row still
 * holds that value, so that a password change made meanwhile is kept. Returns the new stored value, or null when
 * nothing was replaced (not imported, or changed meanwhile).
 */
export async function upgradeImported(
  db: Kysely<Database>,
  user: Pick<UserRow, 'id' | 'username' | 'mail' | 'password'>,
  password: string,
  nowMs: number,
): Promise<string | null> {
  const from = importedFormat(user.password);
  if (from === null) return null;
  const replacement = await hashPassword(password);
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('users')
      .set({ password: replacement })
      .where('id', '=', user.id)
      .where('password', '=', user.password)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return null;
    await recordAudit(trx, nowMs, { actor: actorOf(user), action: 'user.password_rehash', target: user.id, details: { from } });
    return replacement;
  });
}
