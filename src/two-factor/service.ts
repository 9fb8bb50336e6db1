// Two-factor login (contract section 12), HTTP-free: turning it on (a secret, then a first code), recovery codes,
// turning it off (by the player, or by an admin above them), and the second factor every way in asks for through
// the one credential check (accounts/credentials.ts takes this class as its SecondFactor).
//
// Codes are RFC 6238 (SHA-1, 6 digits, 30-second steps), made and checked by `otpauth` at the service clock, one step
// of drift either way. A code is taken by a conditional update of the account's last used step (`last_step < step`),
// so that of two instances racing with the same code only one succeeds, and no code of that step or an earlier one
// is taken again anywhere.
import { CODE_ALPHABET, randomLetters } from '../crypto/random-letters.ts';
import type { Kysely } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Caller } from '../accounts/authenticate.ts';
import type { SecondFactor } from '../accounts/credentials.ts';
import { accountFailureKey, type LoginFailures } from '../accounts/login-failures.ts';
import { userByIdentifier } from '../accounts/identifiers.ts';
import { LEVELS, levelOfUser } from '../accounts/standing.ts';
import type { Acting } from '../audit/acting.ts';
import { actorOf, recordAudit } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import { isPostgres, isUniqueViolation } from '../database/dialect.ts';
import type { Database, Executor } from '../database/schema.ts';
import { badRequest, conflict, forbidden, unauthorized } from '../http/envelope.ts';
import { queueSecurityMail } from '../mail/outbox.ts';
import type { SecretBox } from './secret-box.ts';

/** RFC 6238 as every authenticator app reads an otpauth:// URI without further parameters. */
export const TOTP_PARAMETERS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
const STEP_MS = TOTP_PARAMETERS.period * 1000;
/** One step of drift either way. */
const WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
// Recovery codes: 10 letters of the code alphabet carry 50 bits; shown as XXXXX-XXXXX.
const RECOVERY_LENGTH = 10;
const TOTP_FORM = /^\s*\d{3}\s?\d{3}\s*$/;
const RECOVERY_FORM = new RegExp(
  `^\\s*[${CODE_ALPHABET}${CODE_ALPHABET.toLowerCase()}]{5}[-\\s]?[${CODE_ALPHABET}${CODE_ALPHABET.toLowerCase()}]{5}\\s*$`,
);

export interface TwoFactorSetup {
  /** The secret in base32, for typing into an app. */
  secret: string;
  /** otpauth://totp/... for apps that scan or open it. */
  uri: string;
  /** The URI as a QR code: a PNG data URL, made here (no third-party request). */
  qr: string;
}

export interface TwoFactorDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** The login-failure counters: wrong passwords and codes here count as failed logins. */
  failures: LoginFailures;
  box: SecretBox;
  /** The issuer authenticator apps show (SERVER_NAME). */
  issuer: string;
  publicUrl: string;
  /** Wakes the mail worker after a transaction that queued mail has committed. */
  mailQueued: () => void;
}

const CODE_WRONG = 'twoFactor.codeWrong';
const NOT_ON = 'twoFactor.notOn';

export class TwoFactorService implements SecondFactor {
  constructor(private readonly deps: TwoFactorDeps) {}

  // ---- the second factor of every way in ----

  async isOn(userId: number): Promise<boolean> {
    const row = await this.deps.db
      .selectFrom('two_factor')
      .select('user_id')
      .where('user_id', '=', userId)
      .where('enabled_at', 'is not', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  looksLikeCode(text: string): boolean {
    return TOTP_FORM.test(text) || RECOVERY_FORM.test(text);
  }

  async accept(userId: number, code: string): Promise<boolean> {
    if (TOTP_FORM.test(code)) return this.takeTotp(this.deps.db, userId, code.replace(/\s/g, ''), 'enabled');
    const recovery = normalizeRecovery(code);
    if (recovery === null) return false;
    const { db, clock, box } = this.deps;
    return db.transaction().execute(async (trx) => {
      const now = clock.now();
      // Only the request that marks it used gets in: a recovery code works once, also on two instances at once.
      const used = await trx
        .updateTable('two_factor_recovery')
        .set({ used_at: now })
        .where('user_id', '=', userId)
        .where('code_hash', '=', box.hash(recovery))
        .where('used_at', 'is', null)
        .where((eb) =>
          eb.exists(eb.selectFrom('two_factor').select('user_id').where('user_id', '=', userId).where('enabled_at', 'is not', null)),
        )
        .executeTakeFirst();
      if (used.numUpdatedRows !== 1n) return false;
      const { left } = await trx
        .selectFrom('two_factor_recovery')
        .select((eb) => eb.fn.countAll<number>().as('left'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      const user = await trx.selectFrom('users').select(['id', 'username', 'mail']).where('id', '=', userId).executeTakeFirstOrThrow();
      await recordAudit(trx, now, {
        actor: actorOf(user),
        action: 'user.2fa_recovery_used',
        target: userId,
        details: { left: Number(left) },
      });
      return true;
    });
  }

  async wasUsed(userId: number, code: string): Promise<boolean> {
    const { db, clock, box } = this.deps;
    if (TOTP_FORM.test(code)) {
      const row = await db
        .selectFrom('two_factor')
        .select(['secret', 'last_step'])
        .where('user_id', '=', userId)
        .where('enabled_at', 'is not', null)
        .executeTakeFirst();
      if (!row) return false;
      const now = clock.now();
      const secret = new Secret({ buffer: new Uint8Array(box.open(row.secret, userId)).buffer });
      const delta = TOTP.validate({ ...TOTP_PARAMETERS, token: code.replace(/\s/g, ''), secret, timestamp: now, window: WINDOW });
      return delta !== null && Math.floor(now / STEP_MS) + delta <= row.last_step;
    }
    const recovery = normalizeRecovery(code);
    if (recovery === null) return false;
    const used = await db
      .selectFrom('two_factor_recovery')
      .select('user_id')
      .where('user_id', '=', userId)
      .where('code_hash', '=', box.hash(recovery))
      .where('used_at', 'is not', null)
      .executeTakeFirst();
    return used !== undefined;
  }

  // ---- the player's own switch ----

  /**
   * A new secret, not yet asked for at login: the player confirms a first code to turn two-factor login on. Asks for
   * the password (a wrong one counts as a failed login): whoever holds the secret decides who can log in, so a stolen
   * session alone must not get one. The confirmation needs a code of this secret, which only this answer gave out.
   */
  async begin(caller: Caller, password: string, clientAddress: string): Promise<TwoFactorSetup> {
    const { db, clock, box } = this.deps;
    const userId = caller.user.id;
    if (await this.isOn(userId)) throw conflict('twoFactor.alreadyOnSetup');
    if (!(await this.deps.failures.confirmOwnPassword(userId, password, clientAddress))) {
      throw unauthorized('twoFactor.passwordWrong', { field: 'password' });
    }
    const secret = new Secret({ size: 20 });
    const now = clock.now();
    try {
      await db.transaction().execute(async (trx) => {
        // Starting again replaces a setup that was never confirmed.
        await trx.deleteFrom('two_factor').where('user_id', '=', userId).where('enabled_at', 'is', null).execute();
        await trx
          .insertInto('two_factor')
          .values({ user_id: userId, secret: box.seal(Buffer.from(secret.bytes), userId), created_at: now, enabled_at: null })
          .execute();
      });
    } catch (error) {
      // A first code confirmed (in another tab) between the check above and this insert: it is on now.
      if (isUniqueViolation(error)) throw conflict('twoFactor.alreadyOnSetup');
      throw error;
    }
    const totp = new TOTP({ ...TOTP_PARAMETERS, issuer: this.deps.issuer, label: caller.user.username ?? caller.user.mail, secret });
    const uri = totp.toString();
    const qr = await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 256 });
    return { secret: secret.base32, uri, qr };
  }

  /** Turns two-factor login on with a first code of the new secret; answers the recovery codes, shown this once. Mailed. */
  async confirm(caller: Caller, code: string, clientAddress: string): Promise<string[]> {
    const userId = caller.user.id;
    const pending = await this.deps.db.selectFrom('two_factor').select('enabled_at').where('user_id', '=', userId).executeTakeFirst();
    if (!pending) throw conflict('twoFactor.startFirst');
    if (pending.enabled_at !== null) throw conflict('twoFactor.alreadyOn');
    const attempt = await this.deps.failures.take(accountFailureKey(userId), clientAddress);
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
    // Turned on, its recovery codes and its audit entry in one transaction: all of them or none.
    const turnedOn = await this.deps.db.transaction().execute(async (trx) => {
      if (!TOTP_FORM.test(code) || !(await this.takeTotp(trx, userId, code.replace(/\s/g, ''), 'pending'))) return false;
      const now = this.deps.clock.now();
      await trx.deleteFrom('two_factor_recovery').where('user_id', '=', userId).execute();
      await trx
        .insertInto('two_factor_recovery')
        .values(codes.map((recovery) => ({ user_id: userId, code_hash: this.deps.box.hash(normalizeRecovery(recovery)!), used_at: null })))
        .execute();
      await recordAudit(trx, now, { actor: caller.actor, action: 'user.2fa_on', target: userId });
      await queueSecurityMail(trx, now, caller.user, { kind: 'twoFactorOn' }, this.deps.publicUrl);
      return true;
    });
    if (!turnedOn) {
      await attempt.failed(userId);
      // 400, not 401: the player is logged in, only this code is wrong.
      throw badRequest('twoFactor.setupCodeWrong', { field: 'code' });
    }
    await attempt.passed();
    this.deps.mailQueued();
    return codes;
  }

  /**
   * The player turns it off with the password and a code (or a recovery code); wrong ones count as a failed login.
   * The player is mailed, as when turning it on: a change of the account's ways in.
   */
  async turnOff(caller: Caller, password: string, code: string, clientAddress: string): Promise<void> {
    const userId = caller.user.id;
    if (!(await this.isOn(userId))) throw conflict(NOT_ON);
    const refusal = await this.deps.failures.confirmOwner(userId, password, clientAddress, () => this.accept(userId, code));
    if (refusal === 'password') throw unauthorized('twoFactor.passwordWrong', { field: 'password' });
    if (refusal !== null) throw unauthorized(CODE_WRONG, { field: 'code' });
    await this.remove(userId, async (trx, now) => {
      await recordAudit(trx, now, { actor: caller.actor, action: 'user.2fa_off', target: userId, details: { by: 'player' } });
      await queueSecurityMail(trx, now, caller.user, { kind: 'twoFactorOff', by: 'player' }, this.deps.publicUrl);
    });
    this.deps.mailQueued();
  }

  /**
   * An admin turns it off for a player below their own level (a lost phone without recovery codes), or the operator
   * through the CLI for anyone (above every level, so also for an owner); the player is mailed.
   */
  async turnOffFor(acting: Acting, identifier: string): Promise<{ id: number }> {
    const { db, clock } = this.deps;
    const target = await userByIdentifier(db, identifier);
    const targetLevel = await levelOfUser(db, target, clock.now());
    if (!acting.operator && (acting.level < LEVELS.admin || targetLevel >= acting.level)) {
      throw forbidden('twoFactor.belowOwnLevel');
    }
    if (!(await this.isOn(target.id))) throw conflict('twoFactor.notOnFor', { user: target.username ?? target.mail });
    await this.remove(target.id, async (trx, now) => {
      await recordAudit(trx, now, {
        actor: acting.actor,
        action: 'user.2fa_off',
        target: target.id,
        details: { by: acting.operator ? 'operator' : 'admin' },
      });
      // In the player's language, not the administrator's (contract section 14).
      const who = acting.operator ? 'operator' : { admin: acting.actor.name };
      await queueSecurityMail(trx, now, target, { kind: 'twoFactorOff', by: who }, this.deps.publicUrl);
    });
    this.deps.mailQueued();
    return { id: target.id };
  }

  // ---- internals ----

  /**
   * Whether `token` is a code of the account's secret within one step of now at a step after the last one used;
   * takes that step when it is. `state` says whether the secret must be on already (a login) or still pending (the
   * first code, which turns it on in the same update).
   */
  private async takeTotp(db: Executor, userId: number, token: string, state: 'enabled' | 'pending'): Promise<boolean> {
    const { clock, box } = this.deps;
    const row = await db.selectFrom('two_factor').select(['secret', 'enabled_at']).where('user_id', '=', userId).executeTakeFirst();
    if (!row || (row.enabled_at === null) !== (state === 'pending')) return false;
    const now = clock.now();
    const secret = new Secret({ buffer: new Uint8Array(box.open(row.secret, userId)).buffer });
    const delta = TOTP.validate({ ...TOTP_PARAMETERS, token, secret, timestamp: now, window: WINDOW });
    if (delta === null) return false;
    const step = Math.floor(now / STEP_MS) + delta;
    let update = db.updateTable('two_factor').set({ last_step: step }).where('user_id', '=', userId).where('last_step', '<', step);
    if (state === 'pending') update = update.set({ enabled_at: now }).where('enabled_at', 'is', null);
    else update = update.where('enabled_at', 'is not', null);
    const taken = await update.executeTakeFirst();
    return taken.numUpdatedRows === 1n;
  }

  private async remove(userId: number, alsoDo: (trx: Executor, now: number) => Promise<void>) {
    await this.deps.db.transaction().execute(async (trx) => {
      const now = this.deps.clock.now();
      let lock = trx.selectFrom('two_factor').select('user_id').where('user_id', '=', userId).where('enabled_at', 'is not', null);
      if (isPostgres(trx)) lock = lock.forUpdate();
      // Two switch-offs at once: one does it (and mails), the other finds nothing left.
      if (!(await lock.executeTakeFirst())) throw conflict(NOT_ON);
      await trx.deleteFrom('two_factor_recovery').where('user_id', '=', userId).execute();
      await trx.deleteFrom('two_factor').where('user_id', '=', userId).execute();
      await alsoDo(trx, now);
    });
  }
}

function recoveryCode(): string {
  const letters = randomLetters(RECOVERY_LENGTH);
  return `${letters.slice(0, 5)}-${letters.slice(5)}`;
}

/** A recovery code as stored (upper case, no dash or spaces), or null when `code` cannot be one. */
function normalizeRecovery(code: string): string | null {
  const normalized = code.toUpperCase().replace(/[\s-]/g, '');
  if (normalized.length !== RECOVERY_LENGTH || [...normalized].some((letter) => !CODE_ALPHABET.includes(letter))) return null;
  return normalized;
}
