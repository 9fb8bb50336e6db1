// Bans with a scope, a reason and an optional end (contract section 24). A multiplayer ban refuses the game's join
// and shows in the game's attributes; an account ban is today's ban (perms -1). A ban ends by itself: every check
// compares its end with the clock when it reads it, so it ends at the same moment on every instance, with no timer.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { userByIdentifier, normalizeUuid } from '../accounts/identifiers.ts';
import { checkMayBan } from '../accounts/levels.ts';
import type { Acting } from '../audit/acting.ts';
import { revokeAllSessions } from '../sessions/sessions.ts';
import { accountPerms, LEVELS, longestBan } from '../accounts/standing.ts';
import { recordAudit } from '../audit/audit.ts';
import { type Clock, unixSeconds } from '../clock.ts';
import type { Database, Executor } from '../database/schema.ts';
import { badRequest, conflict, forbidden, notFound } from '../http/envelope.ts';
import { LATEST_UNIX_SECONDS } from '../http/pagination.ts';
import { languageOfUser, queueMail } from '../mail/outbox.ts';
import { type BanReason, type BanScope } from '../shared/ban-reasons.ts';
import { banLiftedMessage, banMessage } from '../mail/templates.ts';
import type { BanRecord, PlayerBan } from '../http/shapes/ban.ts';

export interface NewBan {
  scope: BanScope;
  reason: BanReason;
  message?: string;
  /** Unix seconds; absent: permanent. */
  expires?: number;
}

/** A ban that holds now, as the game is told of it. */
export interface ActiveBan {
  uuid: string;
  reason: BanReason;
  message: string | null;
  /** Unix milliseconds; null: permanent. */
  expiresAt: number | null;
}

type BanRow = Awaited<ReturnType<typeof banRows>>[number];

const banRows = (db: Executor, userId: number) =>
  db
    .selectFrom('game_bans')
    .select(['uuid', 'scope', 'reason', 'message', 'created_at', 'expires_at', 'created_by_name', 'lifted_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute();

const holds = (row: Pick<BanRow, 'lifted_at' | 'expires_at'>, now: number) =>
  row.lifted_at === null && (row.expires_at === null || Number(row.expires_at) > now);

export class Bans {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    /** Wakes the mail worker after a transaction that queued mail has committed. */
    private readonly mailQueued: () => void,
  ) {}

  /** Bans the user `identifier` names; section 15's rules: an admin by perms, above the user's perms, not oneself. */
  async create(acting: Acting, identifier: string, ban: NewBan): Promise<BanRecord> {
    const message = ban.message?.trim() || null;
    if (ban.reason === 'other' && message === null) throw badRequest('bans.otherNeedsMessage', { field: 'message' });
    const now = this.clock.now();
    if (ban.expires !== undefined && (!Number.isInteger(ban.expires) || ban.expires > LATEST_UNIX_SECONDS))
      throw badRequest('bans.expiresFormat', { field: 'expires' });
    if (ban.expires !== undefined && ban.expires * 1000 <= now) throw badRequest('bans.expiresPast', { field: 'expires' });
    const user = await userByIdentifier(this.db, identifier);
    if (user.id === acting.actor.id) throw forbidden('bans.ownBan');
    checkMayBan(acting, accountPerms(user, now));
    const record: BanRecord = {
      id: randomUUID(),
      scope: ban.scope,
      reason: ban.reason,
      message,
      created: unixSeconds(now),
      expires: ban.expires ?? null,
      by: acting.actor.name,
      lifted: null,
      active: true,
    };
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('game_bans')
        .values({
          uuid: record.id,
          user_id: user.id,
          scope: ban.scope,
          reason: ban.reason,
          message,
          created_at: now,
          expires_at: ban.expires === undefined ? null : ban.expires * 1000,
          created_by: acting.actor.id,
          created_by_name: acting.actor.name,
          lifted_at: null,
          lifted_by_name: null,
        })
        .execute();
      if (ban.scope === 'account') {
        // perms -1 until the longest account ban ends: a permanent ban (or perms -1 set by hand) is never shortened.
        const current = accountPerms(user, now) === LEVELS.banned ? (user.banned_until === null ? null : Number(user.banned_until)) : 0;
        const end = ban.expires === undefined ? null : ban.expires * 1000;
        const bannedUntil = current === null || end === null ? null : Math.max(current, end);
        await trx
          .updateTable('users')
          .set({ perms: LEVELS.banned, banned_until: bannedUntil, updated_at: now })
          .where('id', '=', user.id)
          .execute();
        await revokeAllSessions(trx, user.id, now, 'credentials-changed');
      }
      await recordAudit(trx, now, {
        actor: acting.actor,
        action: 'ban.create',
        target: user.id,
        details: { ban: record.id, scope: ban.scope, reason: ban.reason, message, expires: record.expires },
      });
      const language = await languageOfUser(trx, user.id);
      await queueMail(trx, now, user.mail, banMessage(language, { ...record, account: user.username ?? user.mail }));
    });
    this.mailQueued();
    return record;
  }

  /** Every ban of the user, newest first, ended and lifted ones too. */
  async list(identifier: string): Promise<BanRecord[]> {
    const user = await userByIdentifier(this.db, identifier);
    const now = this.clock.now();
    return (await banRows(this.db, user.id)).map((row) => toRecord(row, now));
  }

  /** The bans of the user that hold now, as the player's profile shows them (without who banned), the longest first. */
  async current(userId: number): Promise<PlayerBan[]> {
    const now = this.clock.now();
    return (await banRows(this.db, userId))
      .filter((row) => holds(row, now))
      .map((row) => toRecord(row, now))
      .sort((a, b) => (b.expires ?? Infinity) - (a.expires ?? Infinity))
      .map(({ id, scope, reason, message, created, expires }) => ({ id, scope, reason, message, created, expires }));
  }

  /** Lifts a ban that holds; an account ban gives the account back its player level when no other holds. */
  async lift(acting: Acting, identifier: string, banId: string): Promise<BanRecord> {
    const user = await userByIdentifier(this.db, identifier);
    const uuid = normalizeUuid(banId);
    const found = uuid && (await banRows(this.db, user.id)).find((row) => row.uuid === uuid);
    if (!found) throw notFound('bans.noSuchBan', { id: banId });
    if (user.id === acting.actor.id) throw forbidden('bans.ownBan');
    const now = this.clock.now();
    checkMayBan(acting, found.scope === 'account' ? LEVELS.player : accountPerms(user, now));
    if (!holds(found, now)) throw conflict('bans.banOver');
    await this.db.transaction().execute(async (trx) => {
      const lifted = await trx
        .updateTable('game_bans')
        .set({ lifted_at: now, lifted_by_name: acting.actor.name })
        .where('uuid', '=', found.uuid)
        .where('lifted_at', 'is', null)
        .executeTakeFirst();
      if (Number(lifted.numUpdatedRows) === 0) throw conflict('bans.banOver');
      if (found.scope === 'account' && accountPerms(user, now) === LEVELS.banned) {
        // The account bans that still hold decide: none, a player again; else banned until the longest of them ends.
        const left = await this.activeBan(trx, user.id, 'account');
        await trx
          .updateTable('users')
          .set(
            left === null
              ? { perms: LEVELS.player, banned_until: null, updated_at: now }
              : { banned_until: left.expiresAt, updated_at: now },
          )
          .where('id', '=', user.id)
          .execute();
      }
      await recordAudit(trx, now, {
        actor: acting.actor,
        action: 'ban.lift',
        target: user.id,
        details: { ban: found.uuid, scope: found.scope, reason: found.reason },
      });
      const language = await languageOfUser(trx, user.id);
      await queueMail(
        trx,
        now,
        user.mail,
        banLiftedMessage(language, { account: user.username ?? user.mail, scope: found.scope as BanScope }),
      );
    });
    this.mailQueued();
    return toRecord({ ...found, lifted_at: now }, now);
  }

  /** The ban of `scope` that holds now and ends last (a permanent one first), or null. */
  async activeBan(db: Executor, userId: number, scope: BanScope): Promise<ActiveBan | null> {
    const longest = await longestBan(db, userId, scope, this.clock.now());
    if (!longest) return null;
    return {
      uuid: longest.uuid,
      reason: longest.reason as BanReason,
      message: longest.message,
      expiresAt: longest.expires_at === null ? null : Number(longest.expires_at),
    };
  }
}

function toRecord(row: BanRow, now: number): BanRecord {
  return {
    id: row.uuid,
    scope: row.scope as BanScope,
    reason: row.reason as BanReason,
    message: row.message,
    created: unixSeconds(Number(row.created_at)),
    expires: row.expires_at === null ? null : unixSeconds(Number(row.expires_at)),
    by: row.created_by_name,
    lifted: row.lifted_at === null ? null : unixSeconds(Number(row.lifted_at)),
    active: holds(row, now),
  };
}
