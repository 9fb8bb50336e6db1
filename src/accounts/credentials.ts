// The one password check of every way in (the web login, the game's authenticate and signout, the launcher's login
// and a LaunchServer's password check): the same lookup by username or mail, the same argon2id verify, and the same
// failure counters, so that an account's failures count once whichever door they come through.
import type { Kysely } from 'kysely';
import { recordAudit, SYSTEM } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import type { Database, UserRow } from '../database/schema.ts';
import { RULES, type RateLimiter } from '../ratelimit/limiter.ts';
import { verifyPassword } from './passwords.ts';
import { mailKey, usernameKey } from './rules.ts';

/** The key of an account's login-failure counter, shared by every check of its password. */
export const accountFailureKey = (userId: number) => `id:${userId}`;

export class Credentials {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly limiter: RateLimiter,
  ) {}

  /**
   * The account `login` (a username or a mail address, in any letter case) names, when `password` is its password;
   * null otherwise, for an unknown account as for a wrong password, taking the same time. Throws the 429 of the
   * login limits before checking anything once the address or the account has failed too often. A null
   * `clientAddress` is a login relayed by a server that does not say whose it is (a LaunchServer): only the
   * account's limit applies.
   */
  async check(login: string, password: string, clientAddress: string | null): Promise<UserRow | null> {
    const byMail = login.includes('@');
    const loginKey = byMail ? mailKey(login) : usernameKey(login.trim());
    if (clientAddress !== null) await this.limiter.ensureAllowed(RULES.loginFailuresPerAddress, clientAddress);
    const user = await this.db
      .selectFrom('users')
      .selectAll()
      .where(byMail ? 'mail_key' : 'username_key', '=', loginKey)
      .executeTakeFirst();
    // An account's failures count once, whether its name or its mail address was typed; an unknown name's apart.
    return this.verify(user, user ? accountFailureKey(user.id) : `name:${loginKey}`, password, clientAddress);
  }

  /**
   * The account whose stored hash `storedHash` is, when `password` is its password (GravitLauncher's json password
   * verifier, for a LaunchServer that reads the users table itself); null otherwise. A hash that is no account's is
   * not verified at all, so this is no password oracle for hashes from elsewhere; an account's failures count on its
   * login limit.
   */
  async checkStoredHash(storedHash: string, password: string): Promise<UserRow | null> {
    const user = await this.db.selectFrom('users').selectAll().where('password', '=', storedHash).executeTakeFirst();
    return user ? this.verify(user, accountFailureKey(user.id), password, null) : null;
  }

  private async verify(user: UserRow | undefined, accountKey: string, password: string, clientAddress: string | null) {
    const { limiter } = this;
    await limiter.ensureAllowed(RULES.loginFailuresPerAccount, accountKey);
    if (user && (await verifyPassword(user.password, password))) {
      await limiter.forget(RULES.loginFailuresPerAccount, accountKey);
      return user;
    }
    if (!user) await verifyPassword(null, password);
    if (clientAddress !== null) await limiter.count(RULES.loginFailuresPerAddress, clientAddress);
    const failures = await limiter.count(RULES.loginFailuresPerAccount, accountKey);
    if (user && failures === RULES.loginFailuresPerAccount.limit) {
      await recordAudit(this.db, this.clock.now(), {
        actor: SYSTEM,
        action: 'auth.login_failures',
        target: user.id,
        details: { failures, address: clientAddress },
      });
    }
    return null;
  }
}
