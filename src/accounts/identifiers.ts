// How paths name users and textures (contract section 4): a numeric user id, a UUID (with or without dashes,
// any letter case), or a username; a UUID or name may be any of the account's profiles' (contract section 16).
import type { Executor } from '../database/schema.ts';
import { notFound } from '../http/envelope.ts';
import { usernameKey } from './rules.ts';

/** User ids are PostgreSQL `integer`s: a larger number names nobody (and must not reach the database, which refuses it). */
export const MAX_USER_ID = 2_147_483_647;

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** The UUID in its stored form (lower case with dashes), or null when `value` is not a UUID. */
export function normalizeUuid(value: string): string | null {
  if (!UUID.test(value)) return null;
  const hex = value.replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The user an admin path names, or a 404 naming the identifier. */
export async function userByIdentifier(db: Executor, identifier: string) {
  const uuid = normalizeUuid(identifier);
  const query = db.selectFrom('users').selectAll();
  const user = /^\d{1,15}$/.test(identifier)
    ? Number(identifier) > MAX_USER_ID
      ? undefined
      : await query.where('id', '=', Number(identifier)).executeTakeFirst()
    : await query
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('profiles')
            .select('user_id')
            .where(uuid ? 'uuid' : 'name_key', '=', uuid ?? usernameKey(identifier)),
        )
        .executeTakeFirst();
  if (!user) throw notFound('accounts.noUser', { identifier });
  return user;
}
