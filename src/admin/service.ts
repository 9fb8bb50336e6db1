// User administration (interface.md 4.2, contract sections 3 and 5): the user list and detail, the user patch
// with its level rules, temporary role grants, and the audit log.
import { type Kysely, sql, type Transaction } from 'kysely';
import { effectiveLevel, LEVELS, levelOfUser } from '../accounts/standing.ts';
import { userByIdentifier, normalizeUuid } from '../accounts/identifiers.ts';
import { hashPassword } from '../accounts/passwords.ts';
import type { Profiles } from '../accounts/profile.ts';
import { checkMail, checkPassword, checkUsername, mailKey, usernameColumns } from '../accounts/rules.ts';
import { anotherOwnerExists, revokeAllSessions } from '../accounts/service.ts';
import { recordAudit, type Actor } from '../audit/audit.ts';
import { type Clock, unixSeconds } from '../clock.ts';
import { isPostgres, isUniqueViolation } from '../database/dialect.ts';
import type { Database, UserRow } from '../database/schema.ts';
import { badRequest, conflict, forbidden, notFound } from '../http/envelope.ts';
import type { PageQuery } from '../http/pagination.ts';
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
}

export interface AuditFilter extends PageQuery {
  for?: number;
  iss?: string;
  action?: string;
  since?: number;
  until?: number;
}

/** Who makes an admin change: a signed-in user at their effective level, or the operator CLI. */
export interface Editor {
  actor: Actor;
  level: number;
}

function toRecord(user: UserRow): UserRecord {
  return {
    id: user.id,
    username: user.username ?? '',
    dsid: user.dsid ?? '',
    mail: user.mail,
    mail_verify: user.mail_verify,
    uuid: user.uuid ?? '',
    password: user.password,
    perms: user.perms,
    accessToken: user.access_token,
    serverID: user.server_id,
    hwidId: user.hwid_id === null ? null : String(user.hwid_id),
    discord: user.dsid === null ? null : { username: user.discord_username ?? '', avatar: user.discord_avatar ?? '' },
  };
}

/** Accepts Unix seconds or an ISO 8601 date (contract section 3); returns Unix milliseconds. */
function parseExpiry(value: number | string): number {
  const ms = typeof value === 'number' ? value * 1000 : /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value);
  if (!Number.isFinite(ms)) throw badRequest('admin.expiryFormat', { field: 'expired_at' });
  return ms;
}

export class UserAdmin {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profiles: Profiles,
    private readonly clock: Clock,
    /** Told after a change that may alter what an image path shows (a username or selected skin). */
    private readonly texturesChanged: () => void,
  ) {}

  async list(query: PageQuery & { search?: string }): Promise<{ records: UserRecord[]; total: number }> {
    let filtered = this.db.selectFrom('users');
    if (query.search) {
      // The key columns are lower case already; the escape clause makes % and _ in the search literal on both databases.
      const pattern = `%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      filtered = filtered.where(({ or }) =>
        or([sql<boolean>`username_key like ${pattern} escape '\\'`, sql<boolean>`mail_key like ${pattern} escape '\\'`]),
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
        return { ...toRecord(row), level: this.levelWith(row.perms, grant), role_grant: grant };
      }),
      total: Number(total),
    };
  }

  /** The user detail, with the id and stored perms beyond it (the admin view only). */
  async detail(identifier: string): Promise<UserDetail> {
    const user = await userByIdentifier(this.db, identifier);
    return { ...(await this.profiles.detail(user, await levelOfUser(this.db, user, this.clock.now()))), Id: user.id, Perms: user.perms };
  }

  /** The user's role grants (at most one: granting again replaces it), expired or not. */
  async roleGrants(identifier: string): Promise<RoleGrantRecord[]> {
    const user = await userByIdentifier(this.db, identifier);
    const grant = (await this.grantsOf([user.id])).get(user.id);
    return grant ? [grant] : [];
  }

  /** Takes the user's role grant away (404 when there is none); their level falls back to their perms at once. */
  async revokeRole(editor: Editor, identifier: string): Promise<{ id: number; level: number }> {
    const user = await userByIdentifier(this.db, identifier);
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
  async update(editor: Editor, identifier: string, changes: UserChanges): Promise<UserDetail> {
    // Checked before the transaction: hashing takes tens of milliseconds and must not hold the row.
    if (changes.username !== undefined) checkUsername(changes.username);
    const mail = changes.mail === undefined ? undefined : checkMail(changes.mail);
    const passwordHash = changes.password === undefined ? undefined : await hashPassword(checkPassword(changes.password));
    if (
      changes.perms !== undefined &&
      (!Number.isInteger(changes.perms) || changes.perms < LEVELS.banned || changes.perms > LEVELS.owner)
    ) {
      throw badRequest('admin.permsRange');
    }
    if (changes.dsid === true) throw badRequest('admin.dsidFalseOnly');

    let userId: number;
    try {
      userId = await this.db.transaction().execute(async (trx) => {
        const user = await this.lockedUser(trx, identifier);
        await this.checkMayChange(trx, editor, user, changes);
        const now = this.clock.now();
        const values: Partial<UserRow> = { updated_at: now };
        if (changes.username !== undefined) Object.assign(values, usernameColumns(changes.username));
        if (mail !== undefined && mailKey(mail) !== user.mail_key) Object.assign(values, { mail, mail_key: mailKey(mail), mail_verify: 0 });
        if (changes.mail_verify !== undefined) values.mail_verify = changes.mail_verify ? 1 : 0;
        if (changes.mail_verification !== undefined) values.mail_verification = changes.mail_verification ? 1 : 0;
        if (passwordHash !== undefined) values.password = passwordHash;
        if (changes.perms !== undefined) values.perms = changes.perms;
        if (changes.dsid === false) Object.assign(values, { dsid: null, discord_username: null, discord_avatar: null });
        if (changes.selected_skin !== undefined) values.selected_skin_id = await this.skinOfUser(trx, user.id, changes.selected_skin);
        await trx.updateTable('users').set(values).where('id', '=', user.id).execute();
        if (passwordHash !== undefined || changes.perms === LEVELS.banned) await revokeAllSessions(trx, user.id, now);
        const { password: _omitted, ...loggable } = changes;
        await recordAudit(trx, now, {
          actor: editor.actor,
          action: changes.perms === LEVELS.banned ? 'user.ban' : 'user.update',
          target: user.id,
          details: { ...loggable, ...(passwordHash !== undefined ? { password: 'changed' } : {}) },
        });
        return user.id;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('admin.usernameOrMailTaken');
      throw error;
    }
    this.texturesChanged();
    return this.detail(String(userId));
  }

  /** Grants `role_level` until `expired_at` (permanent when absent), replacing any earlier grant. */
  async grantRole(editor: Editor, identifier: string, body: { user?: number; role_level: number; expired_at?: number | string }) {
    const user = await userByIdentifier(this.db, identifier);
    if (body.user !== undefined && body.user !== user.id) throw badRequest('admin.userMismatch', { given: body.user, id: user.id });
    if (body.role_level < LEVELS.moderator || body.role_level > LEVELS.owner || !Number.isInteger(body.role_level)) {
      throw badRequest('admin.roleLevelRange', { moderator: LEVELS.moderator, admin: LEVELS.admin, owner: LEVELS.owner });
    }
    if (body.role_level > editor.level) throw forbidden('admin.roleAboveOwn');
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

  /** Contract section 3 and issue 4: who may change whom, and what. */
  private async checkMayChange(trx: Transaction<Database>, editor: Editor, user: UserRow, changes: UserChanges) {
    const targetLevel = await levelOfUser(trx, user, this.clock.now());
    const callerIsOwner = editor.level >= LEVELS.owner;
    // Owners have no higher level to turn to, so they may change other owners and themselves.
    if (targetLevel >= editor.level && !callerIsOwner) throw forbidden('admin.atOrAboveOwnLevel');
    if (changes.perms !== undefined && changes.perms !== user.perms) {
      if (!callerIsOwner) throw forbidden('admin.onlyOwnerPerms');
      if (user.perms === LEVELS.owner && changes.perms < LEVELS.owner && !(await anotherOwnerExists(trx, user.id))) {
        throw forbidden('admin.lastOwner');
      }
    }
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
