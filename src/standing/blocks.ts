// The players an account blocked (contract section 24): the player blocks and unblocks them by name on the profile
// page, and the game reads them from privacy/blocklist (it then hides their chat). Kept per account, so every profile
// of the account blocks the same players.
import type { ActingAccount } from '../audit/acting.ts';
import type { Kysely } from 'kysely';
import { normalizeUuid } from '../accounts/identifiers.ts';
import { usernameKey } from '../accounts/rules.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../database/schema.ts';
import { badRequest, conflict, notFound } from '../http/envelope.ts';

/** A blocked player as the profile page shows them. */
export interface BlockedPlayer {
  uuid: string;
  name: string;
}

/** At most this many blocked players per account: the game's list stays small. */
export const MAX_BLOCKS = 500;

export class PlayerBlocks {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /** The account's blocked players, in the order they were blocked. */
  async list(userId: number): Promise<BlockedPlayer[]> {
    return this.db
      .selectFrom('player_blocks')
      .innerJoin('profiles', 'profiles.id', 'player_blocks.profile_id')
      .select(['profiles.uuid', 'profiles.name'])
      .where('player_blocks.user_id', '=', userId)
      .orderBy('player_blocks.created_at')
      .orderBy('profiles.id')
      .execute();
  }

  /** Blocks the player `name` names (any letter case): not one's own profile, not twice, not an unknown name. */
  async block(acting: ActingAccount, name: string): Promise<BlockedPlayer> {
    const userId = acting.accountId;
    const profile = await this.db
      .selectFrom('profiles')
      .select(['id', 'uuid', 'name', 'user_id'])
      .where('name_key', '=', usernameKey(name.trim()))
      .executeTakeFirst();
    if (!profile) throw notFound('blocks.unknownName', { name });
    if (profile.user_id === userId) throw badRequest('blocks.ownProfile', { field: 'name' });
    return this.db.transaction().execute(async (trx) => {
      const existing = await trx.selectFrom('player_blocks').select(['profile_id']).where('user_id', '=', userId).execute();
      if (existing.some((row) => row.profile_id === profile.id)) throw conflict('blocks.alreadyBlocked', { name: profile.name });
      if (existing.length >= MAX_BLOCKS) throw badRequest('blocks.tooMany', { max: MAX_BLOCKS });
      await trx.insertInto('player_blocks').values({ user_id: userId, profile_id: profile.id, created_at: this.clock.now() }).execute();
      return { uuid: profile.uuid, name: profile.name };
    });
  }

  /** Unblocks the player of that profile UUID (dashed or not). */
  async unblock(acting: ActingAccount, uuid: string): Promise<void> {
    const userId = acting.accountId;
    const normalized = normalizeUuid(uuid);
    const profile = normalized && (await this.db.selectFrom('profiles').select('id').where('uuid', '=', normalized).executeTakeFirst());
    const removed = profile
      ? await this.db.deleteFrom('player_blocks').where('user_id', '=', userId).where('profile_id', '=', profile.id).executeTakeFirst()
      : null;
    if (!removed || Number(removed.numDeletedRows) === 0) throw notFound('blocks.notBlocked', { uuid });
  }
}
