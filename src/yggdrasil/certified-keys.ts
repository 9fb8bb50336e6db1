// The chat keys this service certified (player/certificates), kept after a refresh: a chat report names messages
// signed with the key the sender had then, which may be an earlier one (contract section 24).
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { Executor } from '../database/schema.ts';

/** How long a chat key player/certificates hands out stays valid: the game refreshes it before its end. */
export const CERTIFICATE_LIFETIME_MS = 48 * 3600_000;

/** Records a certified pair's public key (once; the same key again is ignored). */
export async function recordCertifiedKey(
  db: Executor,
  pair: { profile_uuid: string; public_key: string; expires_at: number | string },
): Promise<void> {
  const expiresAt = Number(pair.expires_at);
  await db
    .insertInto('certified_chat_keys')
    .values({
      profile_uuid: pair.profile_uuid,
      public_key: pair.public_key,
      issued_at: expiresAt - CERTIFICATE_LIFETIME_MS,
      expires_at: expiresAt,
    })
    .onConflict((conflict) => conflict.column('public_key').doNothing())
    .execute();
}

export interface CertifiedKey {
  key: KeyObject;
  issuedAt: number;
  expiresAt: number;
}

/** Every key certified for the profile (UUID with dashes), the newest first. */
export async function certifiedKeysOf(db: Executor, profileUuid: string): Promise<CertifiedKey[]> {
  const rows = await db
    .selectFrom('certified_chat_keys')
    .select(['public_key', 'issued_at', 'expires_at'])
    .where('profile_uuid', '=', profileUuid)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({
    key: createPublicKey({ key: Buffer.from(row.public_key, 'base64'), format: 'der', type: 'spki' }),
    issuedAt: Number(row.issued_at),
    expiresAt: Number(row.expires_at),
  }));
}
