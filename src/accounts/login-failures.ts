// The login-failure limits that every check of an account's password or second factor shares (the logins of every
// way in, confirming a change with the password, turning two-factor login on or off): per account and client address,
// per client address, and per account, and the audit entry when an account reaches its limit, so that failures count
// once and alike whichever check they come through.
//
// Each check takes its place on the limits before the secret is checked, in one atomic step of the counter store,
// and gives it back when the secret was right: requests arriving together cannot check more secrets than the limits
// allow (contract section 15). A stranger who guesses from their own address fills the account-and-address limit of
// that address only; the player, from an address with no failures, is kept out only once the per-account limit (ten
// times as large) is used up.
import type { Kysely } from 'kysely';
import { recordAudit, SYSTEM } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../database/schema.ts';
import { ApiError, message, tooManyRequests } from '../http/envelope.ts';
import { limitSubjectOf, RULES, type Limit, type RateLimiter } from '../ratelimit/limiter.ts';
import { ImportedChecksBusy, type ImportedPasswordChecks } from './imported-password-checks.ts';
import { hasPassword, verifyPassword } from './passwords.ts';

/**
 * The refusal of an action that asks for the password, for a password-less account (contract section 26): a 403 with
 * data.password_unset, whose words say to set a password by the reset ("Forgot your password?") first.
 */
export const passwordUnset = () => new ApiError(403, message('accounts.passwordUnset'), {}, { password_unset: true });

/** The key of an account's login-failure counter. */
export const accountFailureKey = (userId: number) => `id:${userId}`;

/** One check's place on the login limits, taken before the secret is checked; says how the check ended. */
export interface LoginAttempt {
  /** The secret was wrong: the place stays taken (a failure); the failure that fills a known account's limit is audited. */
  failed(userId: number | undefined): Promise<void>;
  /** The secret was right: the place is given back. */
  passed(): Promise<void>;
  /** A complete login: the place is given back and the account's failures from this address are forgotten. */
  loggedIn(): Promise<void>;
  /**
   * After a right password, whether `check` accepts the account's two-factor code, on this place and on the account's
   * limit of wrong codes (counted before it runs); a wrong code is this attempt's failure. The code limit's 429 gives
   * this place back (the password was right) and is thrown.
   */
  codeAccepted(userId: number, check: () => Promise<boolean>): Promise<boolean>;
}

/** What a logged-in player's proof lacked: the password, or the two-factor code (not sent, or wrong). */
export type ProofRefusal = 'password' | 'code-required' | 'code-wrong';

/** When a client refused because every imported password check was busy may try again: one check's time. */
const BUSY_RETRY_SECONDS = 1;

export class LoginFailures {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly limiter: RateLimiter,
    /** Where imported passwords are checked (worker threads, at most two at once). */
    private readonly imported: ImportedPasswordChecks,
  ) {}

  /**
   * Whether `password` is the stored one (null: no such account, checked against a dummy of the same cost), on the
   * place `attempt` took. When the imported password checks are all busy, nothing is checked: the attempt counts as a
   * failure and their 429 is thrown (contract section 15b).
   */
  async passwordMatches(attempt: LoginAttempt, userId: number | undefined, stored: string | null, password: string): Promise<boolean> {
    try {
      return await verifyPassword(stored, password, this.imported);
    } catch (error) {
      if (!(error instanceof ImportedChecksBusy)) throw error;
      await attempt.failed(userId);
      throw tooManyRequests('limits.importedPasswordChecks', BUSY_RETRY_SECONDS);
    }
  }

  /**
   * Takes one check's place on the limits of `accountKey` (accountFailureKey() of a known account, or another key for
   * a name no account has) and `clientAddress`, or throws their 429 without checking anything. A null `clientAddress`
   * is a login relayed by a server that does not say whose it is (a LaunchServer): it counts on the account's limit
   * alone, which is why that limit is the large one, so that such guesses cannot lock the player out of other ways in.
   */
  async take(accountKey: string, clientAddress: string | null): Promise<LoginAttempt> {
    const { limiter } = this;
    const limits: Limit[] =
      clientAddress === null
        ? []
        : [
            [RULES.loginFailuresPerAccountAndAddress, accountAndAddress(accountKey, clientAddress)],
            [RULES.loginFailuresPerAddress, clientAddress],
          ];
    limits.push([RULES.loginFailuresPerAccount, accountKey]);
    const counts = await limiter.takeAll(limits);
    const accountFailures = counts.at(-1)!;
    const giveBack = async () => {
      for (const [rule, subject] of limits) await limiter.refund(rule, subject);
    };
    const attempt: LoginAttempt = {
      failed: async (userId) => {
        if (userId === undefined || accountFailures !== RULES.loginFailuresPerAccount.limit) return;
        await this.auditLimitReached(userId, { failures: accountFailures, address: clientAddress });
      },
      passed: giveBack,
      loggedIn: async () => {
        await giveBack();
        if (clientAddress !== null) {
          await limiter.forget(RULES.loginFailuresPerAccountAndAddress, accountAndAddress(accountKey, clientAddress));
        }
      },
      codeAccepted: async (userId, check) => {
        const accepted = await this.checkSecondFactorCode(userId, check).catch(async (refusal: unknown) => {
          await giveBack();
          throw refusal;
        });
        if (!accepted) await attempt.failed(userId);
        return accepted;
      },
    };
    return attempt;
  }

  /**
   * Whether `check` accepts a two-factor code (or recovery code) of the account: counted, before it runs, on the
   * account's limit of wrong codes besides the login limits; a right code gives its place back. Throws that limit's
   * 429 without checking anything once it is used up.
   */
  private async checkSecondFactorCode(userId: number, check: () => Promise<boolean>): Promise<boolean> {
    const rule = RULES.secondFactorFailuresPerAccount;
    const key = accountFailureKey(userId);
    const [failures] = await this.limiter.takeAll([[rule, key]]);
    if (await check()) {
      await this.limiter.refund(rule, key);
      return true;
    }
    // Someone who has the password is guessing codes: worth an entry when the account's code limit fills.
    if (failures === rule.limit) await this.auditLimitReached(userId, { failures, secondFactor: true });
    return false;
  }

  private async auditLimitReached(userId: number, details: Record<string, unknown>): Promise<void> {
    await recordAudit(this.db, this.clock.now(), { actor: SYSTEM, action: 'auth.login_failures', target: userId, details });
  }

  /**
   * Whether `given` is the account's own password, for a logged-in player confirming a change (the password or mail,
   * deleting the account, turning two-factor login on); a wrong one counts as a failed login, as at the login itself.
   */
  async confirmOwnPassword(userId: number, given: string, clientAddress: string | null): Promise<boolean> {
    return (await this.confirmOwner(userId, given, clientAddress)) === null;
  }

  /**
   * Whether a logged-in player proves to be the account's owner for a change that adds or removes a way in (linking
   * Discord, turning two-factor login off): the password, then, where `code` is given, the two-factor code it checks
   * (null: one is needed and none was sent). Both on one place on the login limits, as a login's password and code.
   */
  async confirmOwner(
    userId: number,
    password: string,
    clientAddress: string | null,
    code?: (() => Promise<boolean>) | null,
  ): Promise<ProofRefusal | null> {
    const stored = await this.db.selectFrom('users').select('password').where('id', '=', userId).executeTakeFirstOrThrow();
    // A password-less account has none to prove: every action that asks for it says how to set one (the reset).
    if (!hasPassword(stored.password)) throw passwordUnset();
    const attempt = await this.take(accountFailureKey(userId), clientAddress);
    if (!(await this.passwordMatches(attempt, userId, stored.password, password))) {
      await attempt.failed(userId);
      return 'password';
    }
    if (code === null) {
      await attempt.passed(); // nothing wrong yet: the code is asked for
      return 'code-required';
    }
    if (code !== undefined && !(await attempt.codeAccepted(userId, code))) return 'code-wrong';
    await attempt.passed();
    return null;
  }
}

/** The subject of the account-and-address limit: an IPv6 address counts by its /64, as on the per-address limit. */
const accountAndAddress = (accountKey: string, clientAddress: string) => `${accountKey}@${limitSubjectOf(clientAddress)}`;
