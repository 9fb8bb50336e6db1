// The one password check of every way in (the web login, the game's authenticate and signout, the launcher's login
// and a LaunchServer's password check): the same lookup by username or mail, the same argon2id verify, the same
// second factor when the account has two-factor login on (src/two-factor implements it), and the same failure
// counters, so that an account's failures (wrong passwords and wrong codes) count once whichever door they come
// through.
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../database/schema.ts';
import { accountFailureKey, type LoginFailures } from './login-failures.ts';
import { verifyPassword } from './passwords.ts';
import { mailKey, usernameKey } from './rules.ts';

/** An account's second factor (two-factor login, contract section 12); src/two-factor implements it. */
export interface SecondFactor {
  /** Whether the account has two-factor login on. */
  isOn(userId: number): Promise<boolean>;
  /** Whether `code` (a TOTP code or a recovery code) lets the account in now; a code that does is used up. */
  accept(userId: number, code: string): Promise<boolean>;
  /** Whether `text` has the form of a code (what may follow the password's last colon). */
  looksLikeCode(text: string): boolean;
}

/**
 * Where a way in carries the second factor: in a field of its own (`code`, undefined when not sent: the web login's
 * `totp`, the launcher's `totpCode`), or after the password's last colon (`password:123456`: the game login and a
 * LaunchServer's password check). Accounts without two-factor login ignore it (the whole string is the password).
 */
export type CodeCarrier = { code: string | undefined } | 'after-colon';

/** Why a login was refused: wrong name or password, a second factor needed but not sent, or a wrong code. */
export type LoginRefusal = 'credentials' | 'code-required' | 'code-wrong';

export type LoginCheck = { user: UserRow; refusal?: undefined } | { user?: undefined; refusal: LoginRefusal };

const NO_CODE: CodeCarrier = { code: undefined };

export class Credentials {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly failures: LoginFailures,
    private readonly secondFactor: SecondFactor | null = null,
  ) {}

  /**
   * The account `login` (a username or a mail address, in any letter case) names, when `password` is its password
   * and, for an account with two-factor login on, the code `carrier` brings lets it in; otherwise the refusal, for an
   * unknown account as for a wrong password taking the same time. Throws the 429 of the login limits before checking
   * anything once the address or the account has failed too often. A null `clientAddress` is a login relayed by a
   * server that does not say whose it is (a LaunchServer): only the account's limit applies.
   */
  async check(login: string, password: string, clientAddress: string | null, carrier: CodeCarrier = NO_CODE): Promise<LoginCheck> {
    const byMail = login.includes('@');
    const loginKey = byMail ? mailKey(login) : usernameKey(login.trim());
    if (clientAddress !== null) await this.failures.ensureAllowed(null, clientAddress);
    const user = await this.db
      .selectFrom('users')
      .selectAll()
      .where(byMail ? 'mail_key' : 'username_key', '=', loginKey)
      .executeTakeFirst();
    // An account's failures count once, whether its name or its mail address was typed; an unknown name's apart.
    return this.verify(user, user ? accountFailureKey(user.id) : `name:${loginKey}`, password, clientAddress, carrier);
  }

  /**
   * The account whose stored hash `storedHash` is, when `password` is its password (GravitLauncher's json password
   * verifier, for a LaunchServer that reads the users table itself), followed by `:code` when the account has
   * two-factor login on; the refusal otherwise. A hash that is no account's is not verified at all, so this is no
   * password oracle for hashes from elsewhere; an account's failures count on its login limit.
   */
  async checkStoredHash(storedHash: string, password: string): Promise<LoginCheck> {
    const user = await this.db.selectFrom('users').selectAll().where('password', '=', storedHash).executeTakeFirst();
    return user ? this.verify(user, accountFailureKey(user.id), password, null, 'after-colon') : { refusal: 'credentials' };
  }

  /**
   * The second step alone, for a way in that identified the account otherwise (the Discord login): lets `user` in
   * when two-factor login is off, or when `code` is good; a wrong code counts as a failed login.
   */
  async checkSecondFactor(user: UserRow, code: string | undefined, clientAddress: string | null): Promise<LoginCheck> {
    const accountKey = accountFailureKey(user.id);
    await this.failures.ensureAllowed(accountKey, clientAddress);
    const on = this.secondFactor !== null && (await this.secondFactor.isOn(user.id));
    return this.secondStep(user, on, code, accountKey, clientAddress);
  }

  private async verify(
    user: UserRow | undefined,
    accountKey: string,
    given: string,
    clientAddress: string | null,
    carrier: CodeCarrier,
  ): Promise<LoginCheck> {
    const { failures, secondFactor } = this;
    await failures.ensureAllowed(accountKey, null);
    const twoFactorOn = user !== undefined && secondFactor !== null && (await secondFactor.isOn(user.id));
    let password = given;
    let code = carrier === 'after-colon' ? undefined : carrier.code;
    if (twoFactorOn && carrier === 'after-colon') {
      // password:123456 when what follows the last colon is a code; otherwise the whole string is the password
      // (and the code is missing), so that a password with colons of its own still works.
      const colon = given.lastIndexOf(':');
      if (colon >= 0 && secondFactor.looksLikeCode(given.slice(colon + 1))) {
        password = given.slice(0, colon);
        code = given.slice(colon + 1);
      }
    }
    if (user && (await verifyPassword(user.password, password))) {
      return this.secondStep(user, twoFactorOn, code, accountKey, clientAddress);
    }
    if (!user) await verifyPassword(null, password);
    await failures.count(user?.id, accountKey, clientAddress);
    return { refusal: 'credentials' };
  }

  /** After the password: the code when two-factor login is on. The failure counter is forgotten only once all passed. */
  private async secondStep(
    user: UserRow,
    twoFactorOn: boolean,
    code: string | undefined,
    accountKey: string,
    clientAddress: string | null,
  ): Promise<LoginCheck> {
    if (twoFactorOn) {
      if (code === undefined || code.trim() === '') return { refusal: 'code-required' };
      if (!(await this.secondFactor!.accept(user.id, code))) {
        await this.failures.count(user.id, accountKey, clientAddress);
        return { refusal: 'code-wrong' };
      }
    }
    await this.failures.forget(accountKey);
    return { user };
  }
}
