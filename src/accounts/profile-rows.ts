// The writes every place that names a player shares (contract section 16): a new profile, a rename. The primary
// profile's name and UUID are also the account's username and uuid, written in the same transaction.
import { randomUUID } from 'node:crypto';
import type { Executor } from '../database/schema.ts';
import { conflict } from '../http/envelope.ts';
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

/**
 * Refuses (409, saying why) a name whose offline-mode UUID another profile keeps as its own UUID. A profile's UUID never
 * changes, and under PROFILE_UUID=offline (or after an import from an offline-mode site) it is the offline-mode UUID of
 * the name it was made with: after a rename that name is free, but a new profile could not get its UUID, and a profile
 * renamed to it would be shown the first profile's skin on offline-mode servers (a lookup by that UUID finds the
 * profile that has it). So that exact spelling stays with the profile made under it, which may take it back; another
 * letter case is another UUID and free. A name someone has now is left to the write's unique index ("taken").
 * `ownUuid`: the profile being renamed; null for a new one. docs/decisions.md, "Names kept by offline UUIDs".
 */
export async function checkNameNotKeptByUuid(db: Executor, name: string, ownUuid: string | null): Promise<void> {
  const offlineUuid = offlinePlayerUuid(name);
  const nameKey = playerNameKey(name);
  const others = await db
    .selectFrom('profiles')
    .select(['uuid', 'name_key'])
    .where((where) => where.or([where('uuid', '=', offlineUuid), where('name_key', '=', nameKey)]))
    .execute();
  const holders = others.filter((profile) => profile.uuid !== ownUuid);
  if (holders.some((profile) => profile.name_key === nameKey)) return;
  if (holders.some((profile) => profile.uuid === offlineUuid)) throw conflict('profiles.nameKeptByUuid', { name });
}

/**
 * The UUID of a new profile named `name` under PROFILE_UUID: random, or the offline-mode UUID of its first name (kept
 * for good); a name whose offline-mode UUID a renamed profile keeps is refused (checkNameNotKeptByUuid).
 */
export async function newProfileUuid(db: Executor, rule: ProfileSettings['uuid'], name: string): Promise<string> {
  await checkNameNotKeptByUuid(db, name, null);
  return rule === 'offline' ? offlinePlayerUuid(name) : randomUUID();
}

/** Adds a profile; a name or UUID already taken (in any letter case) fails on the unique index, as a unique violation. */
export async function insertProfile(db: Executor, input: { userId: number; name: string; uuid: string; now: number }): Promise<number> {
  const { id } = await db
    .insertInto('profiles')
    .values({ user_id: input.userId, uuid: input.uuid, ...profileNameColumns(input.name), created_at: input.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * Renames a profile, and the account with it when it is the primary one; tokens bound to it only refresh after this.
 * A name whose offline-mode UUID another profile keeps is refused (checkNameNotKeptByUuid).
 */
export async function renameProfile(db: Executor, profile: { id: number; uuid: string; user_id: number }, name: string, now: number) {
  await checkNameNotKeptByUuid(db, name, profile.uuid);
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
