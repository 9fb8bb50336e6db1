// What an account's named credentials share as the profile lists them: app passwords (contract section 18) and
// passkeys (section 21), each with an id, the player's name for it, when it was made and when it was last used. One
// record shape, one row mapping and one list component on the pages (web/src/pages/named-credentials.tsx).
import { unixSeconds } from '../../clock.ts';

export interface NamedCredential {
  id: number;
  /** The player's name for it: the launcher, device or password manager it is for. */
  name: string;
  /** Unix seconds. */
  created: number;
  /** Unix seconds of its last login; null before the first. */
  last_used: number | null;
}

/** The fields of NamedCredential, for a record's schema (recordSchema). */
export const NAMED_CREDENTIAL_FIELDS = {
  id: { type: 'integer' },
  name: { type: 'string' },
  created: { type: 'integer' },
  last_used: { type: ['integer', 'null'] },
} as const;

/** A stored row (app_passwords or passkeys) as its record. */
export const namedCredentialOf = (row: { id: number; name: string; created_at: number; last_used_at: number | null }): NamedCredential => ({
  id: row.id,
  name: row.name,
  created: unixSeconds(row.created_at),
  last_used: row.last_used_at === null ? null : unixSeconds(row.last_used_at),
});
