// Forced actions (contract section 24): a moderator forces a profile to rename (the game disables multiplayer and
// `join` refuses until then) or blocks the skin it wears (left out of its textures; the game says "Skin Not Allowed").
// Each holds while the profile keeps that name or wears that skin, so the player's own rename or skin change ends it on
// every instance at once, with no hook in the rename or wardrobe code; a row found ended is removed when read.
import type { Kysely } from 'kysely';
import type { Acting } from '../audit/acting.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import type { Database, Executor } from '../database/schema.ts';
import { badRequest, forbidden, notFound } from '../http/envelope.ts';
import { normalizeUuid } from '../accounts/identifiers.ts';
import { chosenBy, type PlayerWearing } from '../textures/worn.ts';
import { usernameKey } from '../accounts/rules.ts';
import { GameServiceError } from '../yggdrasil/errors.ts';
import type { ProfileActionType } from '../yggdrasil/shapes.ts';
import { JOIN_PATH } from './join.ts';

export const FORCED_ACTIONS = ['FORCED_NAME_CHANGE', 'USING_BANNED_SKIN'] as const satisfies readonly ProfileActionType[];

/** A forced action as the admin API answers it. */
export interface ForcedAction {
  action: ProfileActionType;
  /** The name that must change, or the digest of the skin that is blocked. */
  value: string;
  created: number;
  by: string;
}

type ProfileFacts = { profileId: number; nameKey: string; skinDigest: string | null };

export class ForcedActions {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    /** Told after a skin is blocked or let again: the images forget what they resolved. */
    private readonly texturesChanged: () => void,
  ) {}

  /** The actions that hold for the profile now; ended ones are removed. */
  async holding(db: Executor, profile: ProfileFacts): Promise<ForcedAction[]> {
    const rows = await db
      .selectFrom('forced_profile_actions')
      .select(['id', 'action', 'value', 'created_at', 'created_by_name'])
      .where('profile_id', '=', profile.profileId)
      .orderBy('id')
      .execute();
    const ended = rows.filter((row) => !stillHolds(row, profile));
    if (ended.length > 0)
      await db
        .deleteFrom('forced_profile_actions')
        .where(
          'id',
          'in',
          ended.map((row) => row.id),
        )
        .execute();
    return rows
      .filter((row) => stillHolds(row, profile))
      .map((row) => ({
        action: row.action as ProfileActionType,
        value: row.value,
        created: Math.floor(Number(row.created_at) / 1000),
        by: row.created_by_name,
      }));
  }

  /** What the session profile and hasJoined carry for the player, and which (a banned skin) changes their textures. */
  async forPlayer(player: PlayerWearing): Promise<ProfileActionType[]> {
    const held = await this.holding(this.db, {
      profileId: player.profileId,
      nameKey: usernameKey(player.username),
      skinDigest: player.blockedSkin ?? player.skin?.digest ?? null,
    });
    return held.map((action) => action.action);
  }

  /** `join` refuses a profile that must rename first, with the error the game shows as a ban from online play. */
  async joinRefusal(profileId: number): Promise<GameServiceError | null> {
    const facts = await this.factsById(profileId);
    if (!facts) return null;
    const held = await this.holding(this.db, facts);
    if (!held.some((action) => action.action === 'FORCED_NAME_CHANGE')) return null;
    return new GameServiceError(403, 'FORCED_USERNAME_CHANGE', 'You must change your name before you can play online', JOIN_PATH);
  }

  /** The forced actions of the profile `uuid`. */
  async list(uuid: string): Promise<ForcedAction[]> {
    const facts = await this.factsByUuid(uuid);
    return this.holding(this.db, facts);
  }

  /**
   * Forces `action` on the profile `uuid`: a rename of its current name, or the skin it wears now blocked. Nobody acts
   * on a profile of their own or of an account at or above their level. Audited.
   */
  async force(acting: Acting, uuid: string, action: ProfileActionType, db: Executor = this.db): Promise<ForcedAction> {
    const facts = await this.factsByUuid(uuid, db);
    if (!acting.operator && (facts.userId === acting.accountId || facts.perms >= acting.level))
      throw forbidden('forcedActions.targetLevel');
    const value = action === 'FORCED_NAME_CHANGE' ? facts.nameKey : facts.skinDigest;
    if (value === null) throw badRequest('forcedActions.noSkin', { field: 'action' });
    const now = this.clock.now();
    const record: ForcedAction = { action, value, created: Math.floor(now / 1000), by: acting.actor.name };
    const write = async (trx: Executor) => {
      await trx.deleteFrom('forced_profile_actions').where('profile_id', '=', facts.profileId).where('action', '=', action).execute();
      await trx
        .insertInto('forced_profile_actions')
        .values({ profile_id: facts.profileId, action, value, created_at: now, created_by_name: acting.actor.name })
        .execute();
      await recordAudit(trx, now, {
        actor: acting.actor,
        action: action === 'FORCED_NAME_CHANGE' ? 'profile.force_rename' : 'profile.block_skin',
        target: facts.userId,
        details: { profile: facts.uuid, name: facts.name, ...(action === 'USING_BANNED_SKIN' && { skin: value }) },
      });
    };
    if (db === this.db) await this.db.transaction().execute(write);
    else await write(db);
    this.texturesChanged();
    return record;
  }

  /** Lifts a forced action before the player acted. Audited. */
  async lift(acting: Acting, uuid: string, action: ProfileActionType): Promise<void> {
    const facts = await this.factsByUuid(uuid);
    if (!acting.operator && (facts.userId === acting.accountId || facts.perms >= acting.level))
      throw forbidden('forcedActions.targetLevel');
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      const removed = await trx
        .deleteFrom('forced_profile_actions')
        .where('profile_id', '=', facts.profileId)
        .where('action', '=', action)
        .executeTakeFirst();
      if (Number(removed.numDeletedRows) === 0) throw notFound('forcedActions.notForced', { action });
      await recordAudit(trx, now, {
        actor: acting.actor,
        action: 'profile.forced_action_lift',
        target: facts.userId,
        details: { profile: facts.uuid, name: facts.name, forced: action },
      });
    });
    this.texturesChanged();
  }

  private async factsByUuid(uuid: string, db: Executor = this.db) {
    const normalized = normalizeUuid(uuid);
    const row = normalized ? await profileFacts(db).where('profiles.uuid', '=', normalized).executeTakeFirst() : undefined;
    if (!row) throw notFound('forcedActions.noSuchProfile', { uuid });
    return toFacts(row);
  }

  private async factsById(profileId: number) {
    const row = await profileFacts(this.db).where('profiles.id', '=', profileId).executeTakeFirst();
    return row ? toFacts(row) : null;
  }
}

const stillHolds = (row: { action: string; value: string }, profile: ProfileFacts) =>
  row.action === 'FORCED_NAME_CHANGE' ? row.value === profile.nameKey : row.value === profile.skinDigest;

/** A profile's name and the digest of the skin it wears (the account's choice for its primary profile). */
const profileFacts = (db: Executor) =>
  db
    .selectFrom('profiles')
    .innerJoin('users', 'users.id', 'profiles.user_id')
    .leftJoin('skins', (join) => join.on('skins.id', '=', chosenBy('selected_skin_id')))
    .select([
      'profiles.id',
      'profiles.uuid',
      'profiles.name',
      'profiles.name_key',
      'profiles.user_id',
      'users.perms',
      'skins.texture_digest',
    ]);

const toFacts = (row: {
  id: number;
  uuid: string;
  name: string;
  name_key: string;
  user_id: number;
  perms: number;
  texture_digest: string | null;
}) => ({
  profileId: row.id,
  uuid: row.uuid,
  name: row.name,
  nameKey: row.name_key,
  skinDigest: row.texture_digest,
  userId: row.user_id,
  perms: row.perms,
});
