// Several game profiles per account (contract section 16): list, add, rename, dress, delete and (admins) transfer.
// The player routes and the admin routes share all of it; who may act is decided before a call reaches here, except
// the limit, which depends on the account's own level.
import { type Kysely, sql, type Transaction } from 'kysely';
import { profileLimit } from '../accounts/profile.ts';
import { checkNewUsername, checkUsername, usernameKey } from '../accounts/rules.ts';
import type { SelectionCheck } from '../accounts/service.ts';
import { levelOfUser } from '../accounts/standing.ts';
import { recordAudit } from '../audit/audit.ts';
import { revokeProfileSessions } from '../sessions/sessions.ts';
import { unixSeconds, type Clock } from '../clock.ts';
import { isPostgres, isUniqueViolation } from '../database/dialect.ts';
import type { Database, Executor } from '../database/schema.ts';
import { badRequest, conflict, forbidden, notFound } from '../http/envelope.ts';
import type { ProfileRecord } from '../http/shapes/profile-record.ts';
import { normalizeUuid, userByIdentifier } from '../accounts/identifiers.ts';
import { checkBelowOwnLevel } from '../accounts/levels.ts';
import type { Acting } from '../audit/acting.ts';
import type { ProfileSettings } from '../settings.ts';
import { chosenBy } from '../textures/worn.ts';
import { insertProfile, newProfileUuid, renameProfile, setWorn } from '../accounts/profile-rows.ts';

export interface ProfileChanges {
  name?: string;
  /** A skin of the account's wardrobe by UUID; "" or null: none. */
  selected_skin?: string | null;
  /** A cape the account owns by UUID; "" or null: none. */
  selected_cape?: string | null;
}

const DAY_MS = 24 * 3600 * 1000;

interface ProfileRow {
  id: number;
  user_id: number;
  uuid: string;
  primary: boolean;
}

/**
 * Whether `acting` acts on another's account (an admin, through the admin paths that check the levels): neither the
 * account's profile limit nor PROFILE_RENAME binds them. The account's owner is bound by both.
 */
const actsForOther = (acting: Acting, userId: number): boolean => acting.accountId !== userId;

export class AccountProfiles {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly settings: ProfileSettings,
    private readonly wardrobe: SelectionCheck,
    /** Told after a change that alters what a name or UUID shows (cached images resolve it anew). */
    private readonly texturesChanged: () => void,
  ) {}

  /** The account an admin path names, when it is below the editor's level (contract sections 3 and 15). */
  async editableAccount(editor: Acting, identifier: string): Promise<number> {
    const user = await userByIdentifier(this.db, identifier);
    checkBelowOwnLevel(editor, await levelOfUser(this.db, user, this.clock.now()), 'admin.atOrAboveOwnLevel');
    return user.id;
  }

  /** The account's profiles in creation order. */
  async list(userId: number): Promise<ProfileRecord[]> {
    return this.records(this.db, userId);
  }

  /** Checked in the contract's order: 400 a name against the rule, 403 at the limit, 409 a name taken. */
  async create(acting: Acting, userId: number, rawName: string): Promise<ProfileRecord> {
    // Not the names the audit log gives the service itself (`system`, `cli`), as for a username.
    const name = checkNewUsername(rawName, this.settings.nameRule, 'name');
    const uuid = await this.nameTakenOr409(async () =>
      this.db.transaction().execute(async (trx) => {
        const account = await this.lockedAccount(trx, userId);
        if (!actsForOther(acting, userId)) {
          const limit = profileLimit(account.max_profiles, this.settings.maxProfiles, await levelOfUser(trx, account, this.clock.now()));
          const { count } = await trx
            .selectFrom('profiles')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('user_id', '=', userId)
            .executeTakeFirstOrThrow();
          if (limit !== -1 && Number(count) >= limit) throw forbidden('profiles.limit', { limit });
        }
        const now = this.clock.now();
        const uuid = await newProfileUuid(trx, this.settings.uuid, name);
        await insertProfile(trx, { userId, name, uuid, now });
        await recordAudit(trx, now, { actor: acting.actor, action: 'profile.create', target: userId, details: { uuid, name } });
        return uuid;
      }),
    );
    this.texturesChanged();
    return this.record(userId, uuid);
  }

  /** Renames (the primary profile renames the account) and dresses a profile, all or nothing. */
  async update(acting: Acting, userId: number, rawUuid: string, changes: ProfileChanges): Promise<ProfileRecord> {
    const name = changes.name === undefined ? undefined : checkUsername(changes.name, this.settings.nameRule, 'name');
    if (name !== undefined && !actsForOther(acting, userId) && !this.settings.rename) throw forbidden('profiles.renameOff');
    const selection = await this.wardrobe.selectionChanges(userId, {
      selected_skin: changes.selected_skin === undefined ? undefined : (changes.selected_skin ?? ''),
      selected_cape: changes.selected_cape === undefined ? undefined : (changes.selected_cape ?? ''),
    });
    const profile = await this.nameTakenOr409(async () =>
      this.db.transaction().execute(async (trx) => {
        const profile = await this.profileOf(trx, userId, rawUuid);
        const now = this.clock.now();
        const current = await trx
          .selectFrom('profiles')
          .select(['name', 'name_changed_at'])
          .where('id', '=', profile.id)
          .executeTakeFirstOrThrow();
        if (name !== undefined && name !== current.name) {
          if (!actsForOther(acting, userId)) this.checkRenameWait(current.name_changed_at, now);
          // A reserved name stays with a profile that had it before the reservation (a change of letter case), but no
          // other profile takes it.
          if (usernameKey(name) !== usernameKey(current.name)) checkNewUsername(name, this.settings.nameRule, 'name');
          await renameProfile(trx, profile, name, now);
          await recordAudit(trx, now, {
            actor: acting.actor,
            action: 'profile.rename',
            target: userId,
            details: { uuid: profile.uuid, from: current.name, to: name },
          });
        }
        if (Object.keys(selection).length > 0) await setWorn(trx, profile.uuid, selection);
        return profile;
      }),
    );
    this.texturesChanged();
    return this.record(userId, profile.uuid);
  }

  /** Deletes a profile other than the primary one; its game tokens, launcher sessions and joins go with it. */
  async remove(acting: Acting, userId: number, rawUuid: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const profile = await this.profileOf(trx, userId, rawUuid);
      if (profile.primary) throw conflict('profiles.primaryStays');
      const { name } = await trx.selectFrom('profiles').select('name').where('id', '=', profile.id).executeTakeFirstOrThrow();
      await this.endProfileSessions(trx, profile);
      await trx.deleteFrom('profiles').where('id', '=', profile.id).execute();
      await recordAudit(trx, this.clock.now(), {
        actor: acting.actor,
        action: 'profile.delete',
        target: userId,
        details: { uuid: profile.uuid, name },
      });
    });
    this.texturesChanged();
  }

  /**
   * Moves a profile other than the primary one to the account `toUserId`; what it wore stays with the old account's
   * wardrobe, and the sessions that acted for it end. Who may do this is checked by the caller (both owners' levels).
   */
  async transfer(acting: Acting, fromUserId: number, rawUuid: string, toUserId: number): Promise<ProfileRecord> {
    if (toUserId === fromUserId) throw badRequest('profiles.sameAccount', { field: 'to' });
    const profile = await this.db.transaction().execute(async (trx) => {
      const profile = await this.profileOf(trx, fromUserId, rawUuid);
      if (profile.primary) throw conflict('profiles.primaryStays');
      const target = await this.lockedAccount(trx, toUserId);
      if (target.uuid === null) throw conflict('profiles.targetUnfinished', { field: 'to' });
      await this.endProfileSessions(trx, profile);
      await trx
        .updateTable('profiles')
        .set({ user_id: toUserId, selected_skin_id: null, selected_cape_id: null })
        .where('id', '=', profile.id)
        .execute();
      await recordAudit(trx, this.clock.now(), {
        actor: acting.actor,
        action: 'profile.transfer',
        target: fromUserId,
        details: { uuid: profile.uuid, to: target.username ?? String(toUserId) },
      });
      return profile;
    });
    this.texturesChanged();
    return this.record(toUserId, profile.uuid);
  }

  /** NAME_CHANGE_DAYS: when a player may next rename a profile last renamed at `changedAt` (null: whenever). */
  renameAllowedFrom(changedAt: number | null): number | null {
    if (this.settings.nameChangeDays === 0 || changedAt === null) return null;
    return Number(changedAt) + this.settings.nameChangeDays * DAY_MS;
  }

  private checkRenameWait(changedAt: number | null, now: number) {
    const allowedFrom = this.renameAllowedFrom(changedAt);
    if (allowedFrom === null || now >= allowedFrom) return;
    const date = new Date(allowedFrom).toISOString().slice(0, 16).replace('T', ' ');
    throw forbidden('profiles.renameTooSoon', { days: this.settings.nameChangeDays, date });
  }

  /** The sessions acting as the profile end (sessions/sessions.ts); its join and chat-signing keys are forgotten. */
  private async endProfileSessions(trx: Transaction<Database>, profile: ProfileRow) {
    await revokeProfileSessions(trx, profile.id, this.clock.now());
    await trx.deleteFrom('game_joins').where('profile_id', '=', profile.id).execute();
    await trx.deleteFrom('player_certificates').where('profile_uuid', '=', profile.uuid).execute();
  }

  /** The account's profile named by `rawUuid`; another account's, or none, is a 404 (it tells nothing about others). */
  private async profileOf(db: Executor, userId: number, rawUuid: string): Promise<ProfileRow> {
    const uuid = normalizeUuid(rawUuid);
    const row = uuid
      ? await db
          .selectFrom('profiles')
          .innerJoin('users', 'users.id', 'profiles.user_id')
          .select([
            'profiles.id',
            'profiles.user_id',
            'profiles.uuid',
            sql<number>`case when users.uuid = profiles.uuid then 1 else 0 end`.as('primary'),
          ])
          .where('profiles.uuid', '=', uuid)
          .where('profiles.user_id', '=', userId)
          .executeTakeFirst()
      : undefined;
    if (!row) throw notFound('profiles.notFound', { uuid: rawUuid });
    return { ...row, primary: Number(row.primary) === 1 };
  }

  /** The account row, locked on PostgreSQL so that two additions cannot both pass the limit (SQLite runs one writer). */
  private async lockedAccount(trx: Transaction<Database>, userId: number) {
    let query = trx
      .selectFrom('users')
      .select(['id', 'perms', 'banned_until', 'uuid', 'username', 'max_profiles'])
      .where('id', '=', userId);
    if (isPostgres(trx)) query = query.forUpdate();
    const account = await query.executeTakeFirst();
    if (!account) throw notFound('accounts.noUser', { identifier: String(userId) });
    return account;
  }

  private async nameTakenOr409<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('profiles.nameTaken');
      throw error;
    }
  }

  private async record(userId: number, uuid: string): Promise<ProfileRecord> {
    const [record] = await this.records(this.db, userId, uuid);
    return record!;
  }

  private async records(db: Executor, userId: number, uuid?: string): Promise<ProfileRecord[]> {
    let query = db
      .selectFrom('profiles')
      .innerJoin('users', 'users.id', 'profiles.user_id')
      .leftJoin('skins', (join) => join.on('skins.id', '=', chosenBy('selected_skin_id')))
      .leftJoin('capes', (join) => join.on('capes.id', '=', chosenBy('selected_cape_id')))
      .select([
        'profiles.uuid',
        'profiles.name',
        sql<number>`case when users.uuid = profiles.uuid then 1 else 0 end`.as('primary'),
        'skins.uuid as skin_uuid',
        'capes.uuid as cape_uuid',
        'profiles.created_at',
        'profiles.name_changed_at',
      ])
      .where('profiles.user_id', '=', userId)
      .orderBy('profiles.id');
    if (uuid !== undefined) query = query.where('profiles.uuid', '=', uuid);
    return (await query.execute()).map((row) => ({
      uuid: row.uuid,
      name: row.name,
      primary: Number(row.primary) === 1,
      selected_skin: row.skin_uuid,
      selected_cape: row.cape_uuid,
      created: unixSeconds(Number(row.created_at)),
      name_changed: row.name_changed_at === null ? null : unixSeconds(Number(row.name_changed_at)),
    }));
  }
}
