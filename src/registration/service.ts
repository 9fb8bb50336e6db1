// Registration control (issue 14, item 10): who may create an account (open, by invitation, closed), and the
// invitations. The REGISTRATION setting gives the mode; an owner's choice in the console, kept in the database,
// overrides it on every instance at once. An invitation is a random code shown once as a link, stored as its
// hash, single use, expiring and revocable. The account flows ask `admission` before creating an account.
import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Admission } from '../accounts/service.ts';
import type { Acting } from '../audit/acting.ts';
import { recordAudit } from '../audit/audit.ts';
import { unixSeconds, type Clock } from '../clock.ts';
import type { Database, Executor } from '../database/schema.ts';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../http/envelope.ts';
import { render, t } from '../i18n/i18n.ts';
import { DEFAULT_LANGUAGE, type Language } from '../i18n/languages.ts';
import type { PageQuery } from '../http/pagination.ts';
import { tokenHash } from '../http/secrets.ts';
import type { RateLimiter, RateRule } from '../ratelimit/limiter.ts';
import {
  REGISTRATION_MODES,
  type InviteRecord,
  type InviteStatus,
  type NewInvite,
  type PublicRegistration,
  type RegistrationModeName,
  type RegistrationState,
} from '../http/shapes/registration.ts';

/** The console_settings row that holds the console's choice of mode. */
const MODE_SETTING = 'registration';
const DAY_MS = 86_400_000;
export const DEFAULT_INVITE_DAYS = 7;
export const MAX_INVITE_DAYS = 365;
export const MAX_NOTE_LENGTH = 200;

/** 18 random bytes: 144 bits, 24 characters of base64url, short enough for a link and beyond any guessing. */
const CODE_BYTES = 18;
const CODE_PATTERN = /^[A-Za-z0-9_-]{24}$/;

/**
 * Invitations looked up per client address (contract section 15: a kind of code of its own, counted apart from mail
 * codes). Counted before the lookup and given back for a usable invitation.
 */
const INVITE_CHECKS: RateRule = {
  name: 'invite-fail-ip',
  limit: 10,
  windowMs: 15 * 60_000,
  message: 'limits.inviteFailuresPerAddress',
  perClientAddress: true,
};

/** The message keys of the refusals (locales/<language>/server.json). */
const REFUSAL_KEYS = {
  closed: 'registration.closed',
  inviteOnly: 'registration.inviteOnly',
  malformed: 'registration.malformed',
  unknown: 'registration.unknown',
  used: 'registration.used',
  expired: 'registration.expired',
  revoked: 'registration.revoked',
} as const;

/** The refusals' English texts (the register page shows the one of its invitation, GET /api/auth/registration). */
export const REFUSALS = Object.fromEntries(Object.entries(REFUSAL_KEYS).map(([name, key]) => [name, t('en', key)])) as Record<
  keyof typeof REFUSAL_KEYS,
  string
>;

type InviteRow = {
  id: number;
  note: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
  used_by: number | null;
  creator: string | null;
  creator_mail: string | null;
  user_name: string | null;
  user_mail: string | null;
};

export class Registration implements Admission {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly publicUrl: string,
    /** The REGISTRATION setting. */
    private readonly setting: RegistrationModeName,
    private readonly limiter: RateLimiter,
  ) {}

  /** The mode in force: the console's choice, else the setting. Read from the database each time, so every instance agrees. */
  async mode(db: Executor = this.db): Promise<RegistrationModeName> {
    const row = await db.selectFrom('console_settings').select('value').where('name', '=', MODE_SETTING).executeTakeFirst();
    return storedMode(row?.value) ?? this.setting;
  }

  async state(): Promise<RegistrationState> {
    const row = await this.db
      .selectFrom('console_settings')
      .leftJoin('users', 'users.id', 'console_settings.changed_by')
      .select(['console_settings.value', 'console_settings.changed_at', 'users.username', 'users.mail'])
      .where('console_settings.name', '=', MODE_SETTING)
      .executeTakeFirst();
    const chosen = storedMode(row?.value);
    return {
      mode: chosen ?? this.setting,
      setting: this.setting,
      chosen,
      changed_at: row ? unixSeconds(row.changed_at) : null,
      changed_by: row ? (row.username ?? row.mail ?? '') : null,
    };
  }

  /** An owner's choice; null goes back to following the setting. Audited as `registration.mode`. */
  async setMode(acting: Acting, mode: RegistrationModeName | null): Promise<RegistrationState> {
    await this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const before = await this.mode(trx);
      if (mode === null) await trx.deleteFrom('console_settings').where('name', '=', MODE_SETTING).execute();
      else {
        await trx
          .insertInto('console_settings')
          .values({ name: MODE_SETTING, value: mode, changed_at: now, changed_by: acting.actor.id })
          .onConflict((oc) => oc.column('name').doUpdateSet({ value: mode, changed_at: now, changed_by: acting.actor.id }))
          .execute();
      }
      const after = mode ?? this.setting;
      await recordAudit(trx, now, {
        actor: acting.actor,
        action: 'registration.mode',
        details: { mode: after, previous: before, source: mode === null ? 'setting' : 'console' },
      });
    });
    return this.state();
  }

  /** What the register page shows: the mode, and whether the invitation it was opened with can be used. */
  async publicState(invite: string | undefined, clientAddress: string, language: Language = DEFAULT_LANGUAGE): Promise<PublicRegistration> {
    const mode = await this.mode();
    if (invite === undefined || invite === '') return { mode, invite: null };
    const problem = await this.countedInviteProblem(invite, clientAddress);
    const words = problem === null ? null : problem.text ? render(language, problem.text) : problem.message;
    return { mode, invite: { usable: problem === null, problem: words } };
  }

  /** Refuses before any work when the mode lets no new account in with this invitation (Admission). */
  async check(invite: string | undefined, clientAddress: string): Promise<void> {
    const mode = await this.mode();
    if (mode === 'closed') throw forbidden(REFUSAL_KEYS.closed);
    if (mode === 'invite') {
      if (invite === undefined || invite === '') throw forbidden(REFUSAL_KEYS.inviteOnly);
      const problem = await this.countedInviteProblem(invite, clientAddress);
      if (problem) throw problem;
    }
  }

  /**
   * In the transaction that creates the account: checks the mode again and takes the invitation, so that two
   * registrations with one link cannot both succeed (Admission). In open mode a usable invitation sent along is
   * taken too (the console then shows who came by it); an unusable one is ignored there.
   */
  async admit(trx: Transaction<Database>, invite: string | undefined, account: { id: number; name: string }, nowMs: number) {
    const mode = await this.mode(trx);
    if (mode === 'closed') throw forbidden(REFUSAL_KEYS.closed);
    if (invite === undefined || invite === '') {
      if (mode === 'invite') throw forbidden(REFUSAL_KEYS.inviteOnly);
      return;
    }
    const problem = await this.inviteProblem(trx, invite);
    if (problem) {
      if (mode === 'invite') throw problem;
      return;
    }
    const taken = await trx
      .updateTable('invites')
      .set({ used_at: nowMs, used_by: account.id })
      .where('code_hash', '=', tokenHash(invite.trim()))
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', nowMs)
      .returning(['id', 'created_by'])
      .executeTakeFirst();
    if (!taken) {
      // Another registration took it between the check and now.
      if (mode === 'invite') throw forbidden(REFUSAL_KEYS.used);
      return;
    }
    await recordAudit(trx, nowMs, {
      actor: account,
      action: 'invite.use',
      target: account.id,
      details: { invite: taken.id, created_by: taken.created_by },
    });
  }

  async createInvite(acting: Acting, input: { note?: string; days?: number }): Promise<NewInvite> {
    const note = input.note?.trim() ?? '';
    if (note.length > MAX_NOTE_LENGTH) throw badRequest('registration.noteTooLong', { count: MAX_NOTE_LENGTH });
    const days = input.days ?? DEFAULT_INVITE_DAYS;
    const code = randomBytes(CODE_BYTES).toString('base64url');
    const id = await this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const expiresAt = now + days * DAY_MS;
      const { id } = await trx
        .insertInto('invites')
        .values({ code_hash: tokenHash(code), note: note || null, created_by: acting.actor.id, created_at: now, expires_at: expiresAt })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordAudit(trx, now, {
        actor: acting.actor,
        action: 'invite.create',
        details: { invite: id, note: note || null, expires_at: unixSeconds(expiresAt) },
      });
      return id;
    });
    return { link: `${this.publicUrl}/register?invite=${code}`, invite: await this.invite(id) };
  }

  /** Newest first. */
  async listInvites(page: PageQuery): Promise<{ records: InviteRecord[]; total: number }> {
    const [rows, { total }] = await Promise.all([
      this.inviteRows().orderBy('invites.id', 'desc').limit(page.limit).offset(page.offset).execute(),
      this.db
        .selectFrom('invites')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow(),
    ]);
    const now = this.clock.now();
    return { records: rows.map((row) => inviteRecord(row, now)), total: Number(total) };
  }

  /** Withdraws an unused invitation; audited as `invite.revoke`. One already withdrawn stays as it is. */
  async revokeInvite(acting: Acting, id: number): Promise<InviteRecord> {
    await this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const row = await trx.selectFrom('invites').select(['id', 'used_at', 'revoked_at']).where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound('registration.noInvite', { id });
      if (row.used_at !== null) throw conflict('registration.inviteUsed', { id });
      if (row.revoked_at !== null) return;
      const revoked = await trx
        .updateTable('invites')
        .set({ revoked_at: now })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      // A registration took it meanwhile (SQLite runs one write at a time; PostgreSQL may interleave).
      if (revoked.numUpdatedRows !== 1n) throw conflict('registration.inviteUsed', { id });
      await recordAudit(trx, now, { actor: acting.actor, action: 'invite.revoke', details: { invite: id } });
    });
    return this.invite(id);
  }

  private async invite(id: number): Promise<InviteRecord> {
    const row = await this.inviteRows().where('invites.id', '=', id).executeTakeFirstOrThrow();
    return inviteRecord(row, this.clock.now());
  }

  private inviteRows() {
    return this.db
      .selectFrom('invites')
      .leftJoin('users as creator', 'creator.id', 'invites.created_by')
      .leftJoin('users as newcomer', 'newcomer.id', 'invites.used_by')
      .select([
        'invites.id',
        'invites.note',
        'invites.created_at',
        'invites.expires_at',
        'invites.used_at',
        'invites.revoked_at',
        'invites.used_by',
        'creator.username as creator',
        'creator.mail as creator_mail',
        'newcomer.username as user_name',
        'newcomer.mail as user_mail',
      ]);
  }

  /**
   * inviteProblem as a check of a secret (contract section 15): its place in the client address's count is taken
   * first, so that requests arriving together look up no more invitations than the limit allows, and given back when
   * the invitation is usable.
   */
  private async countedInviteProblem(invite: string, clientAddress: string): Promise<ApiError | null> {
    await this.limiter.take(INVITE_CHECKS, clientAddress);
    const problem = await this.inviteProblem(this.db, invite);
    if (problem === null) await this.limiter.refund(INVITE_CHECKS, clientAddress);
    return problem;
  }

  /** Why this invitation cannot make an account now (a 400 or 403 to throw), or null when it can. */
  private async inviteProblem(db: Executor, invite: string): Promise<ApiError | null> {
    const code = invite.trim();
    if (!CODE_PATTERN.test(code)) return badRequest(REFUSAL_KEYS.malformed);
    const row = await db
      .selectFrom('invites')
      .select(['used_at', 'revoked_at', 'expires_at'])
      .where('code_hash', '=', tokenHash(code))
      .executeTakeFirst();
    if (!row) return forbidden(REFUSAL_KEYS.unknown);
    const status = statusOf(row, this.clock.now());
    return status === 'usable' ? null : forbidden(REFUSAL_KEYS[status]);
  }
}

function statusOf(row: { used_at: number | null; revoked_at: number | null; expires_at: number }, nowMs: number): InviteStatus {
  if (row.used_at !== null) return 'used';
  if (row.revoked_at !== null) return 'revoked';
  return row.expires_at <= nowMs ? 'expired' : 'usable';
}

function inviteRecord(row: InviteRow, nowMs: number): InviteRecord {
  return {
    id: row.id,
    note: row.note ?? '',
    status: statusOf(row, nowMs),
    created_by: row.creator ?? row.creator_mail ?? '',
    created_at: unixSeconds(row.created_at),
    expires_at: unixSeconds(row.expires_at),
    used_at: row.used_at === null ? null : unixSeconds(row.used_at),
    used_by: row.used_by === null ? null : { id: row.used_by, name: row.user_name ?? row.user_mail ?? '' },
    revoked_at: row.revoked_at === null ? null : unixSeconds(row.revoked_at),
  };
}

/** The console's stored choice when it is a mode (anything else counts as none). */
function storedMode(value: string | undefined): RegistrationModeName | null {
  return (REGISTRATION_MODES as readonly string[]).includes(value ?? '') ? (value as RegistrationModeName) : null;
}
