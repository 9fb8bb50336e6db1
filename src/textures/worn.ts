// What a player wears: the selected skin, and the skin's own linked cape (cloak_id) or else the selected cape
// ("linking a cape means wear it with this skin"). One rule for the images, the launcher document and the game's
// profile textures.
import type { Kysely } from 'kysely';
import { reusableQuery } from '../database/reusable-query.ts';
import type { Database } from '../database/schema.ts';
import type { StandingFacts } from '../accounts/standing.ts';

export interface WornTextures {
  skin: { digest: string; slim: boolean } | null;
  cape: { digest: string } | null;
}

export interface PlayerWearing extends WornTextures {
  userId: number;
  uuid: string;
  username: string;
  /** Whether the account may log in (a banned player's textures are still served; their logins are not). */
  standing: StandingFacts;
}

/** Finds a finished player by UUID, username key or offline-mode UUID (stored forms), with what they wear. Compiled once. */
export function playerWearingLookups(db: Kysely<Database>) {
  const query = (filter: 'uuid' | 'username_key' | 'offline_uuid', placeholder: string) => {
    const run = reusableQuery(db, { key: placeholder }, ({ key }) =>
      db
        .selectFrom('users')
        .leftJoin('skins', 'skins.id', 'users.selected_skin_id')
        .leftJoin('capes as linked', 'linked.id', 'skins.cape_id')
        .leftJoin('capes as selected', 'selected.id', 'users.selected_cape_id')
        .select([
          'users.id',
          'users.uuid',
          'users.username',
          'users.perms',
          'users.mail_verify',
          'users.mail_verification',
          'skins.texture_digest as skin_digest',
          'skins.slim',
          'linked.texture_digest as linked_cape',
          'selected.texture_digest as selected_cape',
        ])
        .where(`users.${filter}`, '=', key)
        .where('users.uuid', 'is not', null),
    );
    return async (key: string): Promise<PlayerWearing | null> => {
      const [row] = await run({ key });
      if (!row || row.uuid === null || row.username === null) return null;
      const capeDigest = row.linked_cape ?? row.selected_cape;
      return {
        userId: row.id,
        uuid: row.uuid,
        username: row.username,
        standing: { username: row.username, level: row.perms, mail_verify: row.mail_verify, mail_verification: row.mail_verification },
        skin: row.skin_digest ? { digest: row.skin_digest, slim: row.slim === 1 } : null,
        cape: capeDigest ? { digest: capeDigest } : null,
      };
    };
  };
  return {
    byUuid: query('uuid', '\u0000player-uuid'),
    byUsernameKey: query('username_key', '\u0000player-name'),
    byOfflineUuid: query('offline_uuid', '\u0000offline-uuid'),
  };
}
