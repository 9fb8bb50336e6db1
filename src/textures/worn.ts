// What a player wears: the selected skin, and the skin's own linked cape (cloak_id) or else the selected cape
// ("linking a cape means wear it with this skin"). One rule for the images, the launcher document and the game's
// profile textures. A cape is worn only while the player owns it, read in the same query: a choice written just as
// an admin took the cape away (the wardrobe checks ownership before it writes) never shows it.
import { sql, type Kysely } from 'kysely';
import { setWorn } from '../accounts/profile-rows.ts';
import { reusableQuery } from '../database/reusable-query.ts';
import type { Database, Executor, UserRow } from '../database/schema.ts';
import type { StandingFacts } from '../accounts/standing.ts';

export interface WornTextures {
  skin: { digest: string; slim: boolean } | null;
  cape: { digest: string } | null;
}

export interface PlayerWearing extends WornTextures {
  userId: number;
  /** The game profile (contract section 16): its id, UUID and name. */
  profileId: number;
  uuid: string;
  username: string;
  /** Whether the account may log in (a banned player's textures are still served; their logins are not). */
  standing: StandingFacts & Pick<UserRow, 'perms' | 'banned_until'>;
  /**
   * The digest of the skin the profile chose that a moderator blocked (contract section 24's USING_BANNED_SKIN, for as
   * long as the profile wears it); `skin` is then null, so that no image, drop-in route or game texture shows it.
   */
  blockedSkin: string | null;
}

/**
 * The skin a profile wears: the account's choice for its primary profile (users.selected_*, where the web pages and
 * the admin API write it), the profile's own for the others.
 */
export const chosenBy = (column: 'selected_skin_id' | 'selected_cape_id') =>
  sql<number | null>`case when profiles.uuid = users.uuid then users.${sql.ref(column)} else profiles.${sql.ref(column)} end`;

/**
 * The profile wears this cape (null: none). A cape linked to the skin the profile wears would win over the choice, so
 * that link goes: the cape chosen is the one that shows.
 */
export async function wearCape(db: Executor, userId: number, profileUuid: string, capeId: number | null): Promise<void> {
  const worn = await db
    .selectFrom('profiles')
    .innerJoin('users', 'users.id', 'profiles.user_id')
    .select(chosenBy('selected_skin_id').as('skin_id'))
    .where('profiles.uuid', '=', profileUuid)
    .executeTakeFirst();
  await setWorn(db, profileUuid, { selected_cape_id: capeId });
  if (worn?.skin_id != null)
    await db.updateTable('skins').set({ cape_id: null }).where('user_id', '=', userId).where('id', '=', worn.skin_id).execute();
}

/** Finds a game profile by UUID, name key or offline-mode UUID (stored forms), with what it wears. Compiled once. */
export function playerWearingLookups(db: Kysely<Database>) {
  const query = (filter: 'uuid' | 'name_key' | 'offline_uuid', placeholder: string) => {
    const run = reusableQuery(db, { key: placeholder }, ({ key }) =>
      db
        .selectFrom('profiles')
        .innerJoin('users', 'users.id', 'profiles.user_id')
        .leftJoin('skins', (join) => join.on('skins.id', '=', chosenBy('selected_skin_id')))
        .leftJoin('cape_owners as linked_owner', (join) =>
          join.onRef('linked_owner.cape_id', '=', 'skins.cape_id').onRef('linked_owner.user_id', '=', 'users.id'),
        )
        .leftJoin('capes as linked', 'linked.id', 'linked_owner.cape_id')
        .leftJoin('cape_owners as selected_owner', (join) =>
          join.on('selected_owner.cape_id', '=', chosenBy('selected_cape_id')).onRef('selected_owner.user_id', '=', 'users.id'),
        )
        .leftJoin('capes as selected', 'selected.id', 'selected_owner.cape_id')
        // MOJANG_FALLBACK=skins (src/fallback/premium.ts): the official textures a linked account lends this profile.
        .leftJoin('premium_links as official', 'official.profile_id', 'profiles.id')
        .leftJoin('forced_profile_actions as blocked', (join) =>
          join
            .onRef('blocked.profile_id', '=', 'profiles.id')
            .on('blocked.action', '=', sql.lit('USING_BANNED_SKIN'))
            .onRef('blocked.value', '=', 'skins.texture_digest'),
        )
        .select([
          'users.id',
          'profiles.id as profile_id',
          'profiles.uuid',
          'profiles.name',
          'users.perms',
          'users.banned_until',
          'users.mail_verify',
          'users.mail_verification',
          'skins.texture_digest as skin_digest',
          'skins.slim',
          'linked.texture_digest as linked_cape',
          'selected.texture_digest as selected_cape',
          'official.skin_digest as official_skin',
          'official.skin_slim as official_slim',
          'official.cape_digest as official_cape',
          'blocked.value as blocked_skin',
        ])
        .where(`profiles.${filter}`, '=', key),
    );
    return async (key: string): Promise<PlayerWearing | null> => {
      const [row] = await run({ key });
      if (!row) return null;
      // A profile that wears nothing here wears what its linked official account wears.
      const capeDigest = row.linked_cape ?? row.selected_cape ?? row.official_cape;
      return {
        userId: row.id,
        profileId: row.profile_id,
        uuid: row.uuid,
        username: row.name,
        standing: {
          username: row.name,
          level: row.perms,
          perms: row.perms,
          banned_until: row.banned_until,
          mail_verify: row.mail_verify,
          mail_verification: row.mail_verification,
        },
        blockedSkin: row.blocked_skin,
        skin: row.blocked_skin
          ? null
          : row.skin_digest
            ? { digest: row.skin_digest, slim: row.slim === 1 }
            : row.official_skin
              ? { digest: row.official_skin, slim: row.official_slim === 1 }
              : null,
        cape: capeDigest ? { digest: capeDigest } : null,
      };
    };
  };
  return {
    byUuid: query('uuid', '\u0000player-uuid'),
    byUsernameKey: query('name_key', '\u0000player-name'),
    byOfflineUuid: query('offline_uuid', '\u0000offline-uuid'),
  };
}
