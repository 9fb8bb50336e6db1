// User administration (interface.md 4.2, contract sections 3 and 5): the user list and detail, the user patch
// with its level rules, temporary role grants, and the audit log.
import { type Kysely, sql, type Transaction } from 'kysely';
import { accountPerms, effectiveLevel, LEVELS, levelOfUser } from '../accounts/standing.ts';
import { userByIdentifier, normalizeUuid } from '../accounts/identifiers.ts';
import { hashPassword } from '../accounts/passwords.ts';
import type { Profiles } from '../accounts/profile.ts';
import { checkMail, checkNewUsername, checkPassword, checkUsername, mailKey, usernameKey } from '../accounts/rules.ts';
import { dropOutstandingCodes } from '../accounts/codes.ts';
import { revokeAllSessions } from '../sessions/sessions.ts';
import { recordAudit } from '../audit/audit.ts';
import { languageOfUser, queueMail } from '../mail/outbox.ts';
import { mailChangedMessage } from '../mail/templates.ts';
import { renameProfile, usernameColumns } from '../accounts/profile-rows.ts';
import type { ProfileSettings } from '../settings.ts';
import { anotherOwnerExists, checkBelowOwnLevel, checkMayGrant, checkPermsChange, seesSecrets } from '../accounts/levels.ts';
import type { Acting } from '../audit/acting.ts';
import { type Clock, unixSeconds } from '../clock.ts';
import { isPostgres, isUniqueViolation } from '../database/dialect.ts';
import type { Database, UserRow } from '../database/schema.ts';
import { badRequest, conflict, notFound } from '../http/envelope.ts';
import { LATEST_UNIX_SECONDS, type PageQuery } from '../http/pagination.ts';
import type { AuditEntry } from '../http/shapes/audit-entry.ts';
import type { UserDetail } from '../http/shapes/user-detail.ts';
import type { RoleGrantRecord } from '../http/shapes/role-grant.ts';
import type { UserRecord } from '../http/shapes/user-record.ts';

export interface UserChanges {
  username?: string;
  mail?: string;
  mail_verify?: boolean;
  selected_skin?: string;
  password?: string;
  perms?: number;
  dsid?: boolean;
  mail_verification?: boolean;
  /** The account's own profile limit (-1 unlimited); null: the MAX_PROFILES setting. */
  max_profiles?: number | null;
  /** false: the player's online chat is switched off (player/attributes' privileges.onlineChat, contract section 24). */
  chat?: boolean;
  /** The account's library publications skip LIBRARY_REVIEW (contract section 19). */
  review_exempt?: boolean;
}

export interface AuditFilter extends PageQuery {
  for?: number;
  iss?: string;
  action?: string;
  since?: number;
  until?: number;
}

/** The record of `user`; its password hash and LaunchServer columns only for a viewer who sees secrets (levels.ts). */
function toRecord(user: UserRow, withSecrets: boolean): UserRecord {
  return {
    id: user.id,
    username: user.username ?? '',
    dsid: user.dsid ?? '',
    mail: user.mail,
    mail_verify: user.mail_verify,
    uuid: user.uuid ?? '',
    password: withSecrets ? user.password : '',
    perms: user.perms,
    accessToken: withSecrets ? user.access_token : null,
    serverID: withSecrets ? user.server_id : null,
    hwidId: withSecrets && user.hwid_id !== null ? String(user.hwid_id) : null,
    discord: user.dsid === null ? null : { username: user.discord_username ?? '', avatar: user.discord_avatar ?? '' },
  };
}

/** Accepts Unix seconds or an ISO 8601 date (contract section 3); returns Unix milliseconds. */
function parseExpiry(value: number | string): number {
  const ms = typeof value === 'number' ? value * 1000 : /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value);
  if (!Number.isFinite(ms) || ms > LATEST_UNIX_SECONDS * 1000) throw badRequest('admin.expiryFormat', { field: 'expired_at' });
  return ms;
}

export class UserAdmin {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profiles: Profiles,
    private readonly clock: Clock,
    /** Told after a change that may alter what an image path shows (a username or selected skin). */
    private readonly texturesChanged: () => void,
    private readonly profileSettings: Pick<ProfileSettings, 'nameRule'>,
    /** Wakes the mail worker after a transaction that queued mail has committed. */
    private readonly mailQueued: () => void = () => {},
  ) {}

  async list(viewer: Acting, query: PageQuery & { search?: string }): Promise<{ records: UserRecord[]; total: number }> {
    let filtered = this.db.selectFrom('users');
    if (query.search) {
      // The key columns are lower case already; the escape clause makes % and _ in the search literal on both databases.
      const pattern = `%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      // Any of the account's profiles' names and UUIDs finds it (contract section 16); the username is one of them.
      const uuid = normalizeUuid(query.search);
      filtered = filtered.where(({ or, exists, selectFrom }) =>
        or([
          sql<boolean>`mail_key like ${pattern} escape '\\'`,
          exists(
            selectFrom('profiles')
              .select('profiles.id')
              .whereRef('profiles.user_id', '=', 'users.id')
              .where(uuid ? sql<boolean>`profiles.uuid = ${uuid}` : sql<boolean>`profiles.name_key like ${pattern} escape '\\'`),
          ),
        ]),
      );
    }
    const [rows, { total }] = await Promise.all([
      filtered.selectAll().orderBy('id').limit(query.limit).offset(query.offset).execute(),
      filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    const grants = await this.grantsOf(rows.map((row) => row.id));
    return {
      records: rows.map((row) => {
        const grant = grants.get(row.id) ?? null;
        return {
          ...toRecord({ ...row, perms: accountPerms(row, this.clock.now()) }, seesSecrets(viewer)),
          level: this.levelWith(accountPerms(row, this.clock.now()), grant),
          role_grant: grant,
        };
      }),
      total: Number(total),
    };
  }

  /** The user detail, with the id, stored perms, own profile limit and passkey count beyond it (the admin view only). */
  async detail(identifier: string): Promise<UserDetail> {
    const user = await userByIdentifier(this.db, identifier);
    const detail = await this.profiles.detail(user, await levelOfUser(this.db, user, this.clock.now()));
    const { passkeys } = await this.db
      .selectFrom('passkeys')
      .select((eb) => eb.fn.countAll<number>().as('passkeys'))
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    return {
      ...detail,
      Id: user.id,
      Perms: accountPerms(user, this.clock.now()),
      OwnMaxProfiles: user.max_profiles,
      Passkeys: Number(passkeys),
      Chat: user.online_chat === 1,
      ReviewExempt: user.review_exempt === 1,
    };
  }

  /** The user's role grants (at most one: granting again replaces it), expired or not. */
  async roleGrants(identifier: string): Promise<RoleGrantRecord[]> {
    const user = await userByIdentifier(this.db, identifier);
    const grant = (await this.grantsOf([user.id])).get(user.id);
    return grant ? [grant] : [];
  }

  /** Takes the user's role grant away (404 when there is none); their level falls back to their perms at once. */
  async revokeRole(editor: Acting, identifier: string): Promise<{ id: number; level: number }> {
    const user = await userByIdentifier(this.db, identifier);
    checkMayGrant(editor, user);
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      const grant = await trx
        .deleteFrom('role_grants')
        .where('user_id', '=', user.id)
        .returning(['role_level', 'expires_at'])
        .executeTakeFirst();
      if (!grant) throw notFound('admin.noRoleGrant', { user: user.username ?? user.mail });
      await recordAudit(trx, now, {
        actor: editor.actor,
        action: 'role.revoke',
        target: user.id,
        details: { role_level: grant.role_level, expired_at: grant.expires_at === null ? null : unixSeconds(grant.expires_at) },
      });
    });
    return { id: user.id, level: user.perms };
  }

  /**
   * Applies `changes` to the user `identifier` names, all or nothing, in one transaction that locks the row, so
   * that two concurrent patches cannot interleave their checks and writes.
   */
  async update(editor: Acting, identifier: string, changes: UserChanges): Promise<UserDetail> {
    // Checked before the transaction: hashing takes tens of milliseconds and must not hold the row.
    const { nameRule } = this.profileSettings;
    if (changes.username !== undefined) checkUsername(changes.username, nameRule);
    const mail = changes.mail === undefined ? undefined : checkMail(changes.mail);
    let passwordHash: string | undefined;
    if (changes.password !== undefined) {
      // Neither the account's mail nor its name, as they are or as this edit sets them.
      const user = await userByIdentifier(this.db, identifier);
      passwordHash = await hashPassword(checkPassword(changes.password, [user.mail, user.username, mail, changes.username]));
    }
    if (
      changes.perms !== undefined &&
      (!Number.isInteger(changes.perms) || changes.perms < LEVELS.banned || changes.perms > LEVELS.owner)
    ) {
      throw badRequest('admin.permsRange');
    }
    if (changes.dsid === true) throw badRequest('admin.dsidFalseOnly');

    let userId: number;
    let mailed = false;
    try {
      userId = await this.db.transaction().execute(async (trx) => {
        const user = await this.lockedUser(trx, identifier);
        // A reserved name stays with an account that had it before the reservation, but no other account takes it.
        if (changes.username !== undefined && usernameKey(changes.username) !== user.username_key)
          checkNewUsername(changes.username, nameRule);
        await this.checkMayChange(trx, editor, user, changes);
        const now = this.clock.now();
        const values: Partial<UserRow> = { updated_at: now };
        // A finished account's username is its primary profile's name: the profile is renamed with it.
        if (changes.username !== undefined && user.uuid !== null && changes.username !== user.username) {
          const primary = await trx
            .selectFrom('profiles')
            .select(['id', 'uuid', 'user_id'])
            .where('uuid', '=', user.uuid)
            .executeTakeFirstOrThrow();
          await renameProfile(trx, primary, changes.username, now);
        } else if (changes.username !== undefined && user.uuid === null) Object.assign(values, usernameColumns(changes.username));
        if (changes.max_profiles !== undefined) values.max_profiles = changes.max_profiles;
        if (mail !== undefined && mailKey(mail) !== user.mail_key) Object.assign(values, { mail, mail_key: mailKey(mail), mail_verify: 0 });
        if (changes.mail_verify !== undefined) values.mail_verify = changes.mail_verify ? 1 : 0;
        if (changes.mail_verification !== undefined) values.mail_verification = changes.mail_verification ? 1 : 0;
        if (changes.review_exempt !== undefined) values.review_exempt = changes.review_exempt ? 1 : 0;
        if (passwordHash !== undefined) values.password = passwordHash;
        // perms set by hand: a ban from the editor is permanent, an unban ends any end.
        if (changes.perms !== undefined) Object.assign(values, { perms: changes.perms, banned_until: null });
        if (changes.chat !== undefined) values.online_chat = changes.chat ? 1 : 0;
        if (changes.dsid === false) Object.assign(values, { dsid: null, discord_username: null, discord_avatar: null });
        if (changes.selected_skin !== undefined) values.selected_skin_id = await this.skinOfUser(trx, user.id, changes.selected_skin);
        await trx.updateTable('users').set(values).where('id', '=', user.id).execute();
        if (passwordHash !== undefined || changes.perms === LEVELS.banned)
          await revokeAllSessions(trx, user.id, now, 'credentials-changed');
        if (passwordHash !== undefined || values.mail_key !== undefined) await dropOutstandingCodes(trx, user.id);
        if (values.mail_key !== undefined) {
          // The former address hears of it (issue 31), in the player's language, naming the administrator.
          const language = await languageOfUser(trx, user.id);
          const content = mailChangedMessage(language, {
            account: user.username ?? user.mail,
            newMail: mail!,
            by: editor.actor.name,
            when: new Date(now),
          });
          await queueMail(trx, now, user.mail, content);
          mailed = true;
        }
        const { password: _omitted, ...loggable } = changes;
        await recordAudit(trx, now, {
          actor: editor.actor,
          action:
            changes.perms === LEVELS.banned
              ? 'user.ban'
              : Object.keys(changes).every((field) => field === 'chat')
                ? 'user.chat'
                : 'user.update',
          target: user.id,
          details: { ...loggable, ...(passwordHash !== undefined ? { password: 'changed' } : {}) },
        });
        return user.id;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('admin.usernameOrMailTaken');
      throw error;
    }
    if (mailed) this.mailQueued();
    this.texturesChanged();
    return this.detail(String(userId));
  }

  /** Grants `role_level` until `expired_at` (permanent when absent), replacing any earlier grant. */
  async grantRole(editor: Acting, identifier: string, body: { user?: number; role_level: number; expired_at?: number | string }) {
    const user = await userByIdentifier(this.db, identifier);
    if (body.user !== undefined && body.user !== user.id) throw badRequest('admin.userMismatch', { given: body.user, id: user.id });
    if (body.role_level < LEVELS.moderator || body.role_level > LEVELS.owner || !Number.isInteger(body.role_level)) {
      throw badRequest('admin.roleLevelRange', { moderator: LEVELS.moderator, admin: LEVELS.admin, owner: LEVELS.owner });
    }
    checkMayGrant(editor, user);
    const now = this.clock.now();
    const expiresAt = body.expired_at === undefined ? null : parseExpiry(body.expired_at);
    if (expiresAt !== null && expiresAt <= now) throw badRequest('admin.expiryPast', { field: 'expired_at' });
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('role_grants').where('user_id', '=', user.id).execute();
      await trx
        .insertInto('role_grants')
        .values({
          user_id: user.id,
          role_level: body.role_level,
          expires_at: expiresAt,
          granted_by: editor.actor.id,
          granted_at: now,
          expiry_recorded: 0,
        })
        .execute();
      await recordAudit(trx, now, {
        actor: editor.actor,
        action: 'role.grant',
        target: user.id,
        details: { role_level: body.role_level, expired_at: expiresAt === null ? null : unixSeconds(expiresAt) },
      });
    });
    return { id: user.id, new_role_level: body.role_level, ...(expiresAt !== null ? { expired_at: unixSeconds(expiresAt) } : {}) };
  }

  async audit(filter: AuditFilter): Promise<{ records: AuditEntry[]; total: number }> {
    let filtered = this.db.selectFrom('audit_log');
    if (filter.for !== undefined) filtered = filtered.where('target_id', '=', filter.for);
    if (filter.iss !== undefined) filtered = filtered.where('iss', '=', filter.iss);
    if (filter.action !== undefined) filtered = filtered.where('action', '=', filter.action);
    if (filter.since !== undefined) filtered = filtered.where('time', '>=', filter.since);
    if (filter.until !== undefined) filtered = filtered.where('time', '<=', filter.until);
    const [rows, { total }] = await Promise.all([
      filtered.selectAll().orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute(),
      filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    const names = await this.usernamesOf(rows.flatMap((row) => (row.target_id === null ? [] : [row.target_id])));
    return {
      records: rows.map((row) => ({
        id: row.id,
        iss: row.iss,
        action: row.action,
        for: row.target_id ?? 0,
        time: row.time,
        details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null,
        for_name: row.target_id === null ? '' : (names.get(row.target_id) ?? ''),
        iss_id: row.actor_id,
      })),
      total: Number(total),
    };
  }

  /** The current usernames of the given users (the mail address before registration step 3); deleted ones are missing. */
  private async usernamesOf(userIds: number[]): Promise<Map<number, string>> {
    const ids = [...new Set(userIds)];
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('users').select(['id', 'username', 'mail']).where('id', 'in', ids).execute();
    return new Map(rows.map((row) => [row.id, row.username ?? row.mail]));
  }

  /** The role grant of each of the given users that has one, with the granting owner's name. */
  private async grantsOf(userIds: number[]): Promise<Map<number, RoleGrantRecord>> {
    if (userIds.length === 0) return new Map();
    const now = this.clock.now();
    const rows = await this.db
      .selectFrom('role_grants')
      .leftJoin('users as granter', 'granter.id', 'role_grants.granted_by')
      .select([
        'role_grants.user_id',
        'role_grants.role_level',
        'role_grants.expires_at',
        'role_grants.granted_at',
        'granter.username as granter_name',
      ])
      .where('role_grants.user_id', 'in', userIds)
      .execute();
    return new Map(
      rows.map((row) => [
        row.user_id,
        {
          role_level: row.role_level,
          expired_at: row.expires_at === null ? null : unixSeconds(row.expires_at),
          active: row.expires_at === null || row.expires_at > now,
          granted_at: unixSeconds(row.granted_at),
          granted_by: row.granter_name ?? '',
        },
      ]),
    );
  }

  /** effectiveLevel for a grant as the admin API shows it. */
  private levelWith(perms: number, grant: RoleGrantRecord | null): number {
    return effectiveLevel(perms, grant?.active ? { role_level: grant.role_level, expires_at: null } : null, this.clock.now());
  }

  private async lockedUser(trx: Transaction<Database>, identifier: string): Promise<UserRow> {
    const { id } = await userByIdentifier(trx, identifier);
    let query = trx.selectFrom('users').selectAll().where('id', '=', id);
    // SQLite serialises write transactions by itself; PostgreSQL needs the row lock.
    if (isPostgres(trx)) query = query.forUpdate();
    return query.executeTakeFirstOrThrow();
  }

  /**
   * Contract sections 3 and 15: a change of perms alone (a ban, say) goes by the perms rules only; any other field
   * needs the user below the editor's level.
   */
  private async checkMayChange(trx: Transaction<Database>, editor: Acting, user: UserRow, changes: UserChanges) {
    const newPerms = changes.perms !== undefined && changes.perms !== user.perms ? changes.perms : undefined;
    const permsOnly = newPerms !== undefined && Object.keys(changes).every((field) => field === 'perms');
    if (!permsOnly) checkBelowOwnLevel(editor, await levelOfUser(trx, user, this.clock.now()), 'admin.atOrAboveOwnLevel');
    if (newPerms !== undefined) await checkPermsChange(editor, user, newPerms, () => anotherOwnerExists(trx, user.id));
  }

  private async skinOfUser(trx: Transaction<Database>, userId: number, skinUuid: string): Promise<number | null> {
    if (skinUuid === '') return null;
    const uuid = normalizeUuid(skinUuid);
    const skin =
      uuid && (await trx.selectFrom('skins').select('id').where('uuid', '=', uuid).where('user_id', '=', userId).executeTakeFirst());
    if (!skin) throw badRequest('admin.selectedSkinNotTheirs', { field: 'selected_skin' });
    return skin.id;
  }
}
