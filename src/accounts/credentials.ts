// The one password check of every way in (the web login, the game's authenticate and signout, the launcher's login
// and a LaunchServer's password check): the same lookup by username or mail, the same argon2id verify, the same
// second factor when the account has two-factor login on (src/two-factor implements it), and the same failure
// counters, so that an account's failures (wrong passwords and wrong codes) count once whichever door they come
// through. An imported account's password (its source's hash, imported-passwords.ts) is verified the same way, and on
// the first success replaced with argon2id (passwords.ts upgradeImported). Where a way in takes them, an account's app
// passwords (src/app-passwords) stand for its password and second factor, on the same limits.
import type { Kysely } from 'kysely';
import { type Clock, systemClock } from '../clock.ts';
import type { Database, UserRow } from '../database/schema.ts';
import { accountFailureKey, type LoginAttempt, type LoginFailures, type ProofRefusal } from './login-failures.ts';
import { NO_PASSWORD, upgradeImported } from './passwords.ts';
import { mailKey, usernameKey } from './rules.ts';
import { totpRequired, unauthorized } from '../http/envelope.ts';

/** An account's second factor (two-factor login, contract section 12); src/two-factor implements it. */
export interface SecondFactor {
  /** Whether the account has two-factor login on. */
  isOn(userId: number): Promise<boolean>;
  /** Whether `code` (a TOTP code or a recovery code) lets the account in now; a code that does is used up. */
  accept(userId: number, code: string): Promise<boolean>;
  /** Whether `text` has the form of a code (what may follow the password's last colon). */
  looksLikeCode(text: string): boolean;
  /**
   * After accept() refused `code`: whether it was a right code already used (a TOTP code of a step at or before the
   * last one taken, a recovery code used before), so that the refusal can say to wait for the next code.
   */
  wasUsed(userId: number, code: string): Promise<boolean>;
}

/**
 * What a logged-in player gives to add a way in (linking Discord, adding a passkey, making an app password; contract
 * sections 15 and 15b): the password, and the two-factor code when that is on.
 */
export interface Reauthentication {
  password: string;
  totp?: string;
}

/** The message keys of one action's refusals of a Reauthentication: wrong password, code not sent, wrong code. */
export interface ProofRefusals {
  passwordWrong: string;
  needsCode: string;
  codeWrong: string;
}

/** An account's app passwords (contract section 18); src/app-passwords implements it. */
export interface AppPasswordCheck {
  /** Whether `given`, whole, is one of the account's app passwords; one that is is marked used now. */
  accept(userId: number, given: string): Promise<boolean>;
}

/**
 * The ways in that launchers speaking only the password login use (the game login's authenticate and signout, the
 * launcher's login) take an app password as well: it lets the account in without the second factor.
 */
export interface CheckOptions {
  appPasswords?: boolean;
}

/**
 * Where a way in carries the second factor: in a field of its own (`code`, undefined when not sent: the web login's
 * `totp`, the launcher's `totpCode`), or after the password's last colon (`password:123456`: the game login and a
 * LaunchServer's password check). Accounts without two-factor login ignore it (the whole string is the password).
 */
export type CodeCarrier = { code: string | undefined } | 'after-colon';

/**
 * Why a login was refused: wrong name or password, a second factor needed but not sent, a wrong code, or a right code
 * already used (the player waits for the next one; it counts as a wrong code).
 */
export type LoginRefusal = 'credentials' | 'code-required' | 'code-wrong' | 'code-used';

/** `namedProfileId`: the profile whose name was the login (contract section 16: a game login by name picks it). */
export type LoginCheck =
  { user: UserRow; refusal?: undefined; namedProfileId?: number } | { user?: undefined; refusal: LoginRefusal; namedProfileId?: undefined };

const NO_CODE: CodeCarrier = { code: undefined };

export class Credentials {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly failures: LoginFailures,
    private readonly secondFactor: SecondFactor | null = null,
    private readonly clock: Clock = systemClock,
    private readonly appPasswords: AppPasswordCheck | null = null,
  ) {}

  /**
   * The account `login` (a username or a mail address, in any letter case) names, when `password` is its password
   * and, for an account with two-factor login on, the code `carrier` brings lets it in; otherwise the refusal, for an
   * unknown account as for a wrong password taking the same time and counting alike. Throws the 429 of the login
   * limits, checking nothing, once they are used up. A null `clientAddress` is a login relayed by a server that does
   * not say whose it is (a LaunchServer): only the account's limit applies. With `options.appPasswords`, `password`
   * may also be one of the account's app passwords.
   */
  async check(
    login: string,
    password: string,
    clientAddress: string | null,
    carrier: CodeCarrier = NO_CODE,
    options: CheckOptions = {},
  ): Promise<LoginCheck> {
    const byMail = login.includes('@');
    const loginKey = byMail ? mailKey(login) : usernameKey(login.trim());
    // Any of the account's profile names logs in, as its username does (which is its primary profile's name).
    const found: (UserRow & { named_profile_id?: number }) | undefined = byMail
      ? await this.db.selectFrom('users').selectAll().where('mail_key', '=', loginKey).executeTakeFirst()
      : await this.db
          .selectFrom('profiles')
          .innerJoin('users', 'users.id', 'profiles.user_id')
          .selectAll('users')
          .select('profiles.id as named_profile_id')
          .where('profiles.name_key', '=', loginKey)
          .executeTakeFirst();
    const { named_profile_id: namedProfileId, ...user } = found ?? {};
    const account = found ? (user as UserRow) : undefined;
    // An account's failures count once, whether a name or its mail address was typed; an unknown name's apart.
    const check = await this.verify(
      account,
      account ? accountFailureKey(account.id) : `name:${loginKey}`,
      password,
      clientAddress,
      carrier,
      options,
    );
    return check.user && namedProfileId !== undefined ? { ...check, namedProfileId } : check;
  }

  /**
   * The account whose stored hash `storedHash` is, when `password` is its password (GravitLauncher's json password
   * verifier, for a LaunchServer that reads the users table itself), followed by `:code` when the account has
   * two-factor login on; the refusal otherwise. A hash that is no account's is not verified at all, so this is no
   * password oracle for hashes from elsewhere; an account's failures count on its login limit.
   */
  async checkStoredHash(storedHash: string, password: string): Promise<LoginCheck> {
    // A password-less account's stored value is no hash: nothing verifies against it, and it names no one.
    if (storedHash === NO_PASSWORD) return { refusal: 'credentials' };
    const user = await this.db.selectFrom('users').selectAll().where('password', '=', storedHash).executeTakeFirst();
    return user ? this.verify(user, accountFailureKey(user.id), password, null, 'after-colon') : { refusal: 'credentials' };
  }

  /**
   * The second step alone, for a way in that identified the account otherwise (the Discord login): lets `user` in
   * when two-factor login is off, or when `code` is good; a wrong code counts as a failed login.
   */
  async checkSecondFactor(user: UserRow, code: string | undefined, clientAddress: string | null): Promise<LoginCheck> {
    const attempt = await this.failures.take(accountFailureKey(user.id), clientAddress);
    const on = this.secondFactor !== null && (await this.secondFactor.isOn(user.id));
    return this.secondStep(user, on, code, attempt);
  }

  /**
   * Whether a logged-in player proves to be the account's owner: the password, and the code when two-factor login is
   * on (LoginFailures.confirmOwner: one place on the login limits for both).
   */
  async confirmOwner(userId: number, password: string, code: string | undefined, clientAddress: string): Promise<ProofRefusal | null> {
    const secondFactor = this.secondFactor;
    if (secondFactor === null || !(await secondFactor.isOn(userId))) return this.failures.confirmOwner(userId, password, clientAddress);
    const sent = code !== undefined && code.trim() !== '';
    return this.failures.confirmOwner(userId, password, clientAddress, sent ? () => secondFactor.accept(userId, code) : null);
  }

  /**
   * confirmOwner, refusing in the API's words: a wrong password or code is a 401 about its field, a missing code a
   * 401 with data.totp_required (the page then asks for it). Each counts as a failed login.
   */
  async requireOwner(userId: number, proof: Reauthentication, clientAddress: string, refusals: ProofRefusals): Promise<void> {
    const refusal = await this.confirmOwner(userId, proof.password, proof.totp, clientAddress);
    if (refusal === 'password') throw unauthorized(refusals.passwordWrong, { field: 'password' });
    if (refusal === 'code-required') throw totpRequired(refusals.needsCode);
    if (refusal === 'code-wrong') throw unauthorized(refusals.codeWrong, { field: 'totp' });
  }

  private async verify(
    user: UserRow | undefined,
    accountKey: string,
    given: string,
    clientAddress: string | null,
    carrier: CodeCarrier,
    options: CheckOptions = {},
  ): Promise<LoginCheck> {
    const { failures, secondFactor, appPasswords } = this;
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
    const attempt = await failures.take(accountKey, clientAddress);
    // The whole string, never a part before a colon: an app password with `:code` after it is wrong.
    if (user && options.appPasswords && appPasswords !== null && (await appPasswords.accept(user.id, given))) {
      await attempt.loggedIn();
      return { user };
    }
    if (user && (await failures.passwordMatches(attempt, user.id, user.password, password))) {
      // The password is right (whatever the second factor says): an imported hash becomes argon2id now.
      const upgraded = await upgradeImported(this.db, user, password, this.clock.now());
      return this.secondStep(upgraded === null ? user : { ...user, password: upgraded }, twoFactorOn, code, attempt);
    }
    if (!user) await failures.passwordMatches(attempt, undefined, null, password);
    await attempt.failed(user?.id);
    return { refusal: 'credentials' };
  }

  /** After the password: the code when two-factor login is on, on the place `attempt` took before either check. */
  private async secondStep(user: UserRow, twoFactorOn: boolean, code: string | undefined, attempt: LoginAttempt): Promise<LoginCheck> {
    if (twoFactorOn) {
      if (code === undefined || code.trim() === '') {
        await attempt.passed(); // nothing wrong yet: the code is asked for
        return { refusal: 'code-required' };
      }
      if (!(await attempt.codeAccepted(user.id, () => this.secondFactor!.accept(user.id, code)))) {
        return { refusal: (await this.secondFactor!.wasUsed(user.id, code)) ? 'code-used' : 'code-wrong' };
      }
    }
    await attempt.loggedIn();
    return { user };
  }
}
