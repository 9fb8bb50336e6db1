// The writes every place that names a player shares (contract section 16): a new profile, a rename. The primary
// profile's name and UUID are also the account's username and uuid, written in the same transaction.
import { randomUUID } from 'node:crypto';
import type { Executor } from '../database/schema.ts';
import { offlinePlayerUuid } from '../minecraft/offline-uuid.ts';
import { playerNameKey } from '../minecraft/player-names.ts';
import type { ProfileSettings } from '../settings.ts';

/** Every column that follows from a player name: the name, its key for uniqueness, its offline-mode UUID. */
export const profileNameColumns = (name: string) => ({ name, name_key: playerNameKey(name), offline_uuid: offlinePlayerUuid(name) });

/** The same for the account row, whose username is its primary profile's name. */
export function usernameColumns(username: string) {
  const { name, name_key, offline_uuid } = profileNameColumns(username);
  return { username: name, username_key: name_key, offline_uuid };
}

/** The UUID of a new profile under PROFILE_UUID: random, or the offline-mode UUID of its first name (kept for good). */
export const newProfileUuid = (rule: ProfileSettings['uuid'], name: string) =>
  rule === 'offline' ? offlinePlayerUuid(name) : randomUUID();

/** Adds a profile; a name or UUID already taken (in any letter case) fails on the unique index, as a unique violation. */
export async function insertProfile(db: Executor, input: { userId: number; name: string; uuid: string; now: number }): Promise<number> {
  const { id } = await db
    .insertInto('profiles')
    .values({ user_id: input.userId, uuid: input.uuid, ...profileNameColumns(input.name), created_at: input.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Renames a profile, and the account with it when it is the primary one; tokens bound to it only refresh after this. */
export async function renameProfile(db: Executor, profile: { id: number; uuid: string; user_id: number }, name: string, now: number) {
  await db
    .updateTable('profiles')
    .set({ ...profileNameColumns(name), name_changed_at: now })
    .where('id', '=', profile.id)
    .execute();
  await db
    .updateTable('users')
    .set({ ...usernameColumns(name), updated_at: now })
    .where('id', '=', profile.user_id)
    .where('uuid', '=', profile.uuid)
    .execute();
}

/** Sets what a profile wears: the account's choice for the primary profile (users.selected_*), else the profile's own. */
export async function setWorn(
  db: Executor,
  profileUuid: string,
  columns: { selected_skin_id?: number | null; selected_cape_id?: number | null },
): Promise<void> {
  const primary = await db.updateTable('users').set(columns).where('uuid', '=', profileUuid).executeTakeFirst();
  if (primary.numUpdatedRows === 0n) await db.updateTable('profiles').set(columns).where('uuid', '=', profileUuid).execute();
}
