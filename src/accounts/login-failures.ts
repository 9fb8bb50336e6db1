// The login-failure counters that every check of an account's password or second factor shares (the logins of every
// way in, and turning two-factor login on or off): per client address and per account, and the audit entry when an
// account reaches its limit, so that failures count once and alike whichever check they come through.
import type { Kysely } from 'kysely';
import { recordAudit, SYSTEM } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../database/schema.ts';
import { RULES, type RateLimiter } from '../ratelimit/limiter.ts';
import { verifyPassword } from './passwords.ts';

/** The key of an account's login-failure counter. */
export const accountFailureKey = (userId: number) => `id:${userId}`;

export class LoginFailures {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly limiter: RateLimiter,
  ) {}

  /**
   * Throws the 429 once the client address or the account has failed too often. `accountKey` is accountFailureKey()
   * of a known account, or another key for a name no account has (null: not known yet); a null `clientAddress` (a
   * login relayed by a server that does not say whose it is) checks the account alone.
   */
  async ensureAllowed(accountKey: string | null, clientAddress: string | null): Promise<void> {
    if (clientAddress !== null) await this.limiter.ensureAllowed(RULES.loginFailuresPerAddress, clientAddress);
    if (accountKey !== null) await this.limiter.ensureAllowed(RULES.loginFailuresPerAccount, accountKey);
  }

  /**
   * Whether `given` is the account's own password, for a logged-in player confirming a change (the password or mail,
   * turning two-factor login off); a wrong one counts as a failed login, as at the login itself.
   */
  async confirmOwnPassword(userId: number, given: string, clientAddress: string | null): Promise<boolean> {
    const accountKey = accountFailureKey(userId);
    await this.ensureAllowed(accountKey, clientAddress);
    const { password } = await this.db.selectFrom('users').select('password').where('id', '=', userId).executeTakeFirstOrThrow();
    if (await verifyPassword(password, given)) return true;
    await this.count(userId, accountKey, clientAddress);
    return false;
  }

  /** Counts a failure; the one that brings a known account (`userId`) to its limit is audited. */
  async count(userId: number | undefined, accountKey: string, clientAddress: string | null): Promise<void> {
    const { limiter } = this;
    if (clientAddress !== null) await limiter.count(RULES.loginFailuresPerAddress, clientAddress);
    const failures = await limiter.count(RULES.loginFailuresPerAccount, accountKey);
    if (userId !== undefined && failures === RULES.loginFailuresPerAccount.limit) {
      await recordAudit(this.db, this.clock.now(), {
        actor: SYSTEM,
        action: 'auth.login_failures',
        target: userId,
        details: { failures, address: clientAddress },
      });
    }
  }

  /** Forgets an account's failures after a complete login. */
  forget(accountKey: string): Promise<void> {
    return this.limiter.forget(RULES.loginFailuresPerAccount, accountKey);
  }
}
