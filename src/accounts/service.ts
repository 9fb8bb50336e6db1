// The account flows of interface.md 3 and 4.1 as contract section 2 decides them. HTTP-free: routes call these.
import type { Kysely, Transaction } from 'kysely';
import { actorOf, recordAudit, type AuditActor } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import { isPostgres, isUniqueViolation } from '../database/dialect.ts';
import type { CodePurpose, Database, UserRow } from '../database/schema.ts';
import { ApiError, badRequest, conflict, forbidden, totpRequired, unauthorized } from '../http/envelope.ts';
import type { AccountSession } from '../http/shapes/account-session.ts';
import type { Params } from '../i18n/i18n.ts';
import { DEFAULT_LANGUAGE, type Language } from '../i18n/languages.ts';
import { languageOfUser, queueMail, queueSecurityMail } from '../mail/outbox.ts';
import { mailChangedMessage, resetPasswordMessage, verifyMailMessage } from '../mail/templates.ts';
import { RULES, type RateLimiter, type RateRule } from '../ratelimit/limiter.ts';
import { listSessions, revokeAllSessions, revokeSession } from '../sessions/sessions.ts';
import type { PageAddress } from '../shared/pages.ts';
import type { Caller } from './authenticate.ts';
import type { ProfileRules } from './create-account.ts';
import { CodeChecks, type CodeBinding } from './code-checks.ts';
import { dropOutstandingCodes, groupedCode, type MailCodes } from './codes.ts';
import type { Credentials } from './credentials.ts';
import type { LoginFailures } from './login-failures.ts';
import { hashPassword } from './passwords.ts';
import { insertProfile, newProfileUuid, usernameColumns } from './profile-rows.ts';
import { anotherOwnerExists } from './levels.ts';
import { LEVELS, standingProblem, accountPerms, standingRefusal } from './standing.ts';
import { checkMail, checkNewUsername, checkPassword, isPlausibleMail, mailKey } from './rules.ts';
import type { Tokens } from './tokens.ts';
import { openWebSession } from './web-session.ts';

/** What account creation needs of the profile settings. */

export interface AccountDeps {
  db: Kysely<Database>;
  clock: Clock;
  tokens: Tokens;
  codes: MailCodes;
  limiter: RateLimiter;
  /** The login-failure counters: a wrong password confirming a change counts as a failed login. */
  failures: LoginFailures;
  credentials: Credentials;
  /** Wakes the mail worker after a transaction that queued mail has committed. */
  mailQueued: () => void;
  /** Called after a change of the textures a player wears has committed (cached images resolve it anew). */
  texturesChanged: () => void;
  /** Runs work that removes texture references in a transaction, then frees the textures nothing refers to any
   * more (TextureLibrary.releasing, which textures/ implements). */
  releaseTextures: TextureRelease;
  publicUrl: string;
  /** The profile rules every new name and every new player UUID follow (contract section 16). */
  profileRules: ProfileRules;
  /** Whether a new account may be created (registration control, which registration/ implements); absent: always. */
  admission?: Admission;
}

/**
 * Decides whether registration step 1 may create a new account (open, by invitation or closed). Only a new account
 * asks: registering again with a mail whose unverified account exists creates nothing, so it takes no invitation.
 */
export interface Admission {
  /** Throws the refusal (an ApiError) before any work is done; an invitation's check counts on the client address. */
  check(invite: string | undefined, clientAddress: string): Promise<void>;
  /** In the transaction that creates the account: checks again and takes the invitation, or throws (nothing is created). */
  admit(trx: Transaction<Database>, invite: string | undefined, account: AuditActor, nowMs: number): Promise<void>;
}

export type TextureRelease = <T>(work: (trx: Transaction<Database>) => Promise<{ result: T; released: string[] }>) => Promise<T>;

/** The columns a change of the worn skin and cape writes, checked by the wardrobe. */
export type SelectionChanges = Partial<Pick<UserRow, 'selected_skin_id' | 'selected_cape_id'>>;

// A type rather than an interface: the audit log takes it as its details record.
export type TextureChoice = {
  selected_skin?: string;
  selected_cape?: string;
};

/** Checks a change of the worn skin and cape without writing it; the wardrobe (textures/) does it. */
export interface SelectionCheck {
  selectionChanges(userId: number, choice: TextureChoice): Promise<SelectionChanges>;
}

export interface HomeChange {
  password?: string;
  mail?: string;
  currentPassword?: string;
  /** The columns checked beforehand (Wardrobe.selectionChanges), written in the same transaction as the rest, and
   * what the player asked for (for the audit log). */
  selection?: { columns: SelectionChanges; choice: TextureChoice };
  /** The language of the account's mails (contract section 14). */
  language?: Language;
}

/** What a mailed code is for: a registration (carrying the password hash of the first registration of the address,
 * or none), a changed mail address, or a password reset. Each has its page, where the mail's link leads. */
type CodeErrand = { kind: 'registration'; passwordHash: string | null } | { kind: 'mail-change' } | { kind: 'reset' };

const ERRAND_PAGES = {
  registration: '/register/confirm',
  'mail-change': '/mail/confirm',
  reset: '/reset/confirm',
} as const satisfies Record<CodeErrand['kind'], PageAddress>;

const WRONG_CREDENTIALS = 'accounts.wrongCredentials';
const TOTP_REQUIRED = 'accounts.totpRequired';
const TOTP_WRONG = 'accounts.totpWrong';
const TOTP_USED = 'accounts.totpUsed';

/** Registering a mail that has a verified account (a 409, which tells that the account exists; contract section 15). */
const TAKEN_MAIL_REGISTRATIONS: RateRule = {
  name: 'register-taken-ip',
  limit: 10,
  windowMs: 60 * 60_000,
  message: 'limits.takenMailRegistrationsPerAddress',
  perClientAddress: true,
};

export class AccountService {
  private readonly codeChecks: CodeChecks;

  constructor(private readonly deps: AccountDeps) {
    this.codeChecks = new CodeChecks(deps);
  }

  private link(path: PageAddress) {
    return `${this.deps.publicUrl}${path}`;
  }

  /**
   * Step 1: creates an unverified account, or mails another code for one, and returns the next step's URL. Only the
   * first registration of an address keeps its password: a later one's code carries none and confirms only with a
   * password chosen then (contract section 15b), so registering someone else's address leaves no password they would
   * confirm unawares. A new account needs the admission's consent (`invite`: the code of an invitation link).
   */
  async register(
    rawMail: string,
    password: string,
    clientAddress: string,
    invite?: string,
    language: Language = DEFAULT_LANGUAGE,
  ): Promise<{ next: string; continuation: string }> {
    const { db, clock, limiter, admission } = this.deps;
    const mail = checkMail(rawMail);
    checkPassword(password, [mail]);
    const key = mailKey(mail);
    const taken = (user: { mail_verify: number; username: string | null } | undefined) =>
      user && (user.mail_verify === 1 || user.username !== null);
    // Counted before the lookup, given back when the mail is free: the 409 tells that an account exists.
    await limiter.take(TAKEN_MAIL_REGISTRATIONS, clientAddress);
    const found = await db.selectFrom('users').select(['mail_verify', 'username']).where('mail_key', '=', key).executeTakeFirst();
    if (taken(found)) throw conflict('accounts.mailExists');
    await limiter.refund(TAKEN_MAIL_REGISTRATIONS, clientAddress);
    if (!found) await admission?.check(invite, clientAddress);
    await this.takeMailLimits(clientAddress, `verify_mail:${key}`);
    // Hashed whether or not it is kept, so that the answer's timing does not tell a first registration from a later one.
    const passwordHash = await hashPassword(password);
    let continuation = '';
    await this.writeOrConflict(async (trx) => {
      const now = clock.now();
      const existing = await trx
        .selectFrom('users')
        .select(['id', 'mail_verify', 'username'])
        .where('mail_key', '=', key)
        .executeTakeFirst();
      if (taken(existing)) throw conflict('accounts.mailExists');
      let userId: number;
      let kept: string | null = null;
      if (existing) {
        userId = existing.id;
        await trx.updateTable('users').set({ mail, language, updated_at: now }).where('id', '=', userId).execute();
      } else {
        const inserted = await trx
          .insertInto('users')
          .values({
            mail,
            mail_key: key,
            password: passwordHash,
            perms: 0,
            mail_verify: 0,
            mail_verification: 1,
            language,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        userId = inserted.id;
        kept = passwordHash;
        await admission?.admit(trx, invite, { id: userId, name: mail }, now);
      }
      const codeId = await this.sendCode(trx, userId, mail, now, { kind: 'registration', passwordHash: kept });
      continuation = this.deps.codes.continuation(codeId, userId, now);
      await recordAudit(trx, now, { actor: { id: userId, name: mail }, action: 'auth.register', target: userId });
    }, 'accounts.mailExists');
    this.deps.mailQueued();
    return { next: this.link('/register/confirm'), continuation };
  }

  /**
   * "Send the mail again" (issue 31): a new registration code, within the mail limits, for the browser that
   * registered (its `continuation`: the new code carries what that registration's code carries, its password or
   * none), or for a player whose login was refused because the mail is not confirmed (`login`: the same proof as a
   * login, counted on the login limits; the new code carries the password just proven). Answers a continuation for
   * the new code.
   */
  async resendConfirmation(
    proof: { continuation: string } | { login: string; password: string; totp?: string },
    clientAddress: string,
  ): Promise<{ next: string; continuation: string; mail: string }> {
    const { db, clock, credentials } = this.deps;
    let target: { userId: number; mail: string; errand: CodeErrand };
    if ('continuation' in proof) {
      const claim = this.deps.codes.continuationClaim(proof.continuation, clock.now());
      const row =
        claim &&
        (await db
          .selectFrom('mail_codes')
          .innerJoin('users', 'users.id', 'mail_codes.user_id')
          .select(['mail_codes.user_id', 'mail_codes.mail', 'mail_codes.password_hash', 'users.mail_key', 'users.mail_verify'])
          .where('mail_codes.id', '=', claim.codeId)
          .where('mail_codes.purpose', '=', 'verify_mail')
          .executeTakeFirst());
      if (!row || row.mail_key !== mailKey(row.mail)) throw badRequest('accounts.continuationEnded');
      if (row.mail_verify === 1) throw conflict('accounts.alreadyConfirmed');
      target = { userId: row.user_id, mail: row.mail, errand: { kind: 'registration', passwordHash: row.password_hash } };
    } else {
      const { user, refusal } = await credentials.check(proof.login, proof.password, clientAddress, { code: proof.totp });
      if (refusal === 'code-required') throw totpRequired(TOTP_REQUIRED);
      if (refusal === 'code-wrong') throw unauthorized(TOTP_WRONG, { field: 'totp' });
      if (refusal === 'code-used') throw unauthorized(TOTP_USED, { field: 'totp' });
      if (!user) throw unauthorized(WRONG_CREDENTIALS);
      if (standingProblem({ ...user, level: accountPerms(user, clock.now()) }, ['unfinished', 'unverified']) === 'banned')
        throw new ApiError(403, await standingRefusal(db, user, 'banned', clock.now()));
      if (standingProblem({ ...user, level: accountPerms(user, clock.now()) }, ['unfinished']) !== 'unverified')
        throw conflict('accounts.alreadyConfirmed');
      // A registration's code carries the password just proven (it stands beside the codes of other requests); a
      // changed address's code carries none, as the one the change mailed.
      const errand: CodeErrand = user.username === null ? { kind: 'registration', passwordHash: user.password } : { kind: 'mail-change' };
      target = { userId: user.id, mail: user.mail, errand };
    }
    await this.takeMailLimits(clientAddress, `verify_mail:${mailKey(target.mail)}`);
    const continuation = await db.transaction().execute(async (trx) => {
      const now = clock.now();
      const codeId = await this.sendCode(trx, target.userId, target.mail, now, target.errand);
      await recordAudit(trx, now, { actor: { id: target.userId, name: target.mail }, action: 'auth.register', target: target.userId });
      return this.deps.codes.continuation(codeId, target.userId, now);
    });
    this.deps.mailQueued();
    return { next: this.link('/register/confirm'), continuation, mail: target.mail };
  }

  /**
   * Step 2 (or a mail change): the mailed code proves the address. A registration's code sets a password: `password`
   * when given (chosen now, under section 2's rules), else the one its registration kept, but only when no
   * continuation came or the continuation's browser proved that very password; otherwise 400 naming `password`
   * (contract section 15b). The account's other codes end. The browser that proved the password, or chose one now,
   * is logged in too (`jwt`) while the registration is unfinished. Returns where to go next.
   */
  async confirmMail(
    code: string,
    clientAddress: string,
    given: CodeBinding & { password?: string } = {},
  ): Promise<{ next: string; jwt?: string }> {
    // The rules that need no account first, and the slow hash, so that a refused password spends no code attempt.
    const chosenHash = given.password === undefined ? undefined : await hashPassword(checkPassword(given.password));
    const confirmed = await this.codeChecks.check(code, 'verify_mail', clientAddress, given, async (trx, found, now) => {
      if (!(await this.deps.codes.use(trx, found.id, now))) return undefined;
      const user = await trx
        .selectFrom('users')
        .select(['id', 'username', 'mail', 'perms', 'banned_until'])
        .where('id', '=', found.user_id)
        .executeTakeFirstOrThrow();
      const registering = user.username === null;
      let password: string | undefined;
      if (!registering) {
        // A changed address: the account has its password (a change of it needs the current one).
        if (chosenHash !== undefined) throw badRequest('accounts.confirmSetsNoPassword', { field: 'password' });
      } else if (chosenHash !== undefined) {
        checkPassword(given.password!, [user.mail]);
        password = chosenHash;
      } else if (found.password_hash !== null && (!found.continued || found.passwordKnown)) {
        password = found.password_hash;
      } else {
        // A later registration's code, or a browser that proved another password: a refusal rolls the use back.
        throw badRequest('accounts.confirmPasswordNeeded', { field: 'password' });
      }
      await trx
        .updateTable('users')
        .set({ mail_verify: 1, ...(password === undefined ? {} : { password }), updated_at: now })
        .where('id', '=', user.id)
        .execute();
      await dropOutstandingCodes(trx, user.id, password === undefined ? 'verify_mail' : undefined);
      await recordAudit(trx, now, { actor: actorOf(user), action: 'auth.confirm_mail', target: user.id });
      // Whoever chose the password now, or proved the kept one in the browser that registered (docs/security.md,
      // "Registration in one browser"), is logged in. Only while the registration is unfinished (no second factor
      // can be on yet), never banned.
      const logsIn = registering && (chosenHash !== undefined || found.passwordKnown) && accountPerms(user, now) !== LEVELS.banned;
      if (!logsIn) return { user };
      const { jwt } = await openWebSession(trx, this.deps.tokens, this.deps.clock, this.deps.publicUrl, user);
      return { user, jwt };
    });
    const next = this.link(confirmed.user.username === null ? '/register/finish' : '/home');
    return confirmed.jwt === undefined ? { next } : { next, jwt: confirmed.jwt };
  }

  /**
   * For the browser that registered, while it waits (issue 38): whether its registration's address was confirmed
   * since, wherever that happened; `ended` when the continuation is no longer genuine or its account is gone.
   */
  async registrationState(continuation: string): Promise<'waiting' | 'confirmed' | 'ended'> {
    const claim = this.deps.codes.continuationClaim(continuation, this.deps.clock.now());
    if (!claim) return 'ended';
    const user = await this.deps.db.selectFrom('users').select('mail_verify').where('id', '=', claim.userId).executeTakeFirst();
    if (!user) return 'ended';
    return user.mail_verify === 1 ? 'confirmed' : 'waiting';
  }

  /**
   * Returns a token and where the client goes next (step 3 while registration is unfinished). With two-factor login
   * on, `totp` (a code or a recovery code) is needed too: without it a 401 whose data says `totp_required`.
   */
  async login(login: string, password: string, clientAddress: string, totp?: string): Promise<{ jwt: string; url: string }> {
    const { db, clock, tokens, credentials } = this.deps;
    const { user, refusal } = await credentials.check(login, password, clientAddress, { code: totp });
    if (refusal === 'code-required') throw totpRequired(TOTP_REQUIRED);
    if (refusal === 'code-wrong') throw unauthorized(TOTP_WRONG, { field: 'totp' });
    if (refusal === 'code-used') throw unauthorized(TOTP_USED, { field: 'totp' });
    if (!user) throw unauthorized(WRONG_CREDENTIALS);
    const problem = standingProblem({ ...user, level: accountPerms(user, clock.now()) }, ['unfinished']);
    if (problem) throw new ApiError(403, await standingRefusal(db, user, problem, clock.now()));
    return openWebSession(db, tokens, clock, this.deps.publicUrl, user);
  }

  /**
   * Step 3: sets the username and assigns the player UUID. A password, when sent, becomes the account's password
   * (contract section 2: optional, so that the web app need not ask for it again).
   */
  async finishRegistration(caller: Caller, rawUsername: string, password: string | undefined): Promise<void> {
    const { clock } = this.deps;
    if (caller.user.username !== null) throw conflict('accounts.registrationFinished');
    const username = checkNewUsername(rawUsername, this.deps.profileRules.nameRule);
    const passwordHash = password === undefined ? undefined : await hashPassword(checkPassword(password, [caller.user.mail, username]));
    await this.writeOrConflict(
      async (trx) => {
        const now = clock.now();
        const uuid = await newProfileUuid(trx, this.deps.profileRules.uuid, username);
        const result = await trx
          .updateTable('users')
          .set({
            ...usernameColumns(username),
            ...(passwordHash === undefined ? {} : { password: passwordHash }),
            uuid,
            updated_at: now,
          })
          .where('id', '=', caller.user.id)
          .where('username', 'is', null)
          .executeTakeFirst();
        if (result.numUpdatedRows !== 1n) throw conflict('accounts.registrationFinished');
        await insertProfile(trx, { userId: caller.user.id, name: username, uuid, now });
        if (passwordHash !== undefined) await dropOutstandingCodes(trx, caller.user.id);
        await recordAudit(trx, now, {
          actor: { id: caller.user.id, name: username },
          action: 'auth.register_finish',
          target: caller.user.id,
        });
      },
      'accounts.usernameTaken',
      // On the name's field in the page, where the player types another.
      { username, field: 'username' },
    );
  }

  /** Ends the session the request came through. */
  async logout(caller: Caller): Promise<void> {
    await revokeSession(this.deps.db, caller.session, this.deps.clock.now());
  }

  /**
   * Reset step 1. Answers the same whether or not an account has the address (no account enumeration);
   * mails a code only when one does.
   */
  async requestPasswordReset(rawMail: string, clientAddress: string): Promise<string> {
    const { db, clock } = this.deps;
    if (!isPlausibleMail(rawMail.trim())) throw badRequest('accounts.resetMailInvalid', { field: 'mail' });
    const key = mailKey(rawMail);
    await this.takeMailLimits(clientAddress, `reset_password:${key}`);
    const sent = await db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom('users').select(['id', 'mail', 'username']).where('mail_key', '=', key).executeTakeFirst();
      if (!user) return false;
      const now = clock.now();
      await this.sendCode(trx, user.id, user.mail, now, { kind: 'reset' });
      await recordAudit(trx, now, { actor: actorOf(user), action: 'auth.password_reset_request', target: user.id });
      return true;
    });
    if (sent) this.deps.mailQueued();
    return this.link('/reset/confirm');
  }

  /** Reset step 2: tells whether the code is good, without using it up (a typed code with its mail address). */
  async checkResetCode(code: string, clientAddress: string, mail?: string): Promise<void> {
    await this.codeChecks.check(code, 'reset_password', clientAddress, { mail }, async () => true);
  }

  /**
   * Reset step 3: sets the new password, revokes every session of the account and ends its other codes; the account
   * is mailed that its password was reset.
   */
  async resetPassword(code: string, password: string, clientAddress: string, mail?: string): Promise<string> {
    // The rules that need no account first, so that a refused password spends no code attempt.
    checkPassword(password);
    const passwordHash = await hashPassword(password);
    await this.codeChecks.check(code, 'reset_password', clientAddress, { mail }, async (trx, found, now) => {
      if (!(await this.deps.codes.use(trx, found.id, now))) return undefined;
      const user = await trx
        .selectFrom('users')
        .select(['id', 'username', 'mail'])
        .where('id', '=', found.user_id)
        .executeTakeFirstOrThrow();
      // The code names the account, whose mail and name the password must not be (a refusal rolls the use back).
      checkPassword(password, [user.mail, user.username]);
      // Reading the code proves the mail address (find() checks it is still the account's), so it becomes verified.
      await trx.updateTable('users').set({ password: passwordHash, mail_verify: 1, updated_at: now }).where('id', '=', user.id).execute();
      await revokeAllSessions(trx, user.id, now, 'credentials-changed');
      await dropOutstandingCodes(trx, user.id);
      await recordAudit(trx, now, { actor: actorOf(user), action: 'auth.password_reset', target: user.id });
      await queueSecurityMail(trx, now, user, { kind: 'passwordReset' }, this.deps.publicUrl);
      return true;
    });
    this.deps.mailQueued();
    return this.link('/login');
  }

  async reload(userId: number): Promise<UserRow> {
    return this.deps.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  }

  /**
   * PATCH /api/home, all or nothing: every part is checked first (fields, the selection, the current password once,
   * a mail address taken), then everything is written in one transaction. A password change revokes every session;
   * a new mail address must be confirmed again.
   */
  async updateHome(caller: Caller, change: HomeChange, clientAddress: string): Promise<UserRow> {
    const { db, clock } = this.deps;
    const mail = change.mail === undefined ? undefined : checkMail(change.mail);
    const newPassword =
      change.password === undefined ? undefined : checkPassword(change.password, [caller.user.mail, mail, caller.user.username]);
    if (newPassword !== undefined || mail !== undefined) await this.checkCurrentPassword(caller, change.currentPassword, clientAddress);
    const newMail = mail !== undefined && mailKey(mail) !== caller.user.mail_key ? mail : undefined;
    if (newMail !== undefined) {
      if (await db.selectFrom('users').select('id').where('mail_key', '=', mailKey(newMail)).executeTakeFirst()) {
        throw conflict('accounts.mailTaken');
      }
      await this.takeMailLimits(clientAddress, `verify_mail:${mailKey(newMail)}`);
    }
    const passwordHash = newPassword === undefined ? undefined : await hashPassword(newPassword);
    const userId = caller.user.id;
    const actor = caller.actor;
    await this.writeOrConflict(async (trx) => {
      const now = clock.now();
      await trx
        .updateTable('users')
        .set({
          ...change.selection?.columns,
          ...(passwordHash === undefined ? {} : { password: passwordHash }),
          ...(newMail === undefined ? {} : { mail: newMail, mail_key: mailKey(newMail), mail_verify: 0 }),
          ...(change.language === undefined ? {} : { language: change.language }),
          updated_at: now,
        })
        .where('id', '=', userId)
        .execute();
      if (change.selection) {
        await recordAudit(trx, now, { actor, action: 'user.select_textures', target: userId, details: change.selection.choice });
      }
      if (passwordHash !== undefined || newMail !== undefined) await dropOutstandingCodes(trx, userId);
      if (newMail !== undefined) {
        await this.sendCode(trx, userId, newMail, now, { kind: 'mail-change' });
        // The former address hears of it, in case it was not the player (issue 31): no code, no link that acts.
        const language = await languageOfUser(trx, userId);
        await queueMail(
          trx,
          now,
          caller.user.mail,
          mailChangedMessage(language, { account: caller.user.username ?? caller.user.mail, newMail, by: null, when: new Date(now) }),
        );
        await recordAudit(trx, now, { actor, action: 'user.mail_change', target: userId, details: { mail: newMail } });
      }
      if (passwordHash !== undefined) {
        await revokeAllSessions(trx, userId, now, 'credentials-changed');
        await recordAudit(trx, now, { actor, action: 'user.password_change', target: userId });
      }
    }, 'accounts.mailTaken');
    if (newMail !== undefined) this.deps.mailQueued();
    if (change.selection) this.deps.texturesChanged();
    return this.reload(userId);
  }

  /** The account's live sessions of every kind (sessions/sessions.ts), the caller's own marked current. */
  async sessions(caller: Caller): Promise<AccountSession[]> {
    return listSessions(this.deps.db, caller.accountId, this.deps.clock.now(), caller.session);
  }

  /** Log out everywhere: every session of every kind, the caller's own included. */
  async logoutEverywhere(caller: Caller): Promise<string> {
    await this.deps.db.transaction().execute(async (trx) => {
      const now = this.deps.clock.now();
      await revokeAllSessions(trx, caller.accountId, now, 'logout-everywhere');
      await recordAudit(trx, now, { actor: caller.actor, action: 'user.logout_everywhere', target: caller.user.id });
    });
    return this.link('/login');
  }

  /**
   * Deletes the caller's account after checking the password: its skins (their textures freed when nothing else
   * refers to them) and its row, which takes its sessions, tokens, codes, role grant, cape ownership and hardware
   * links with it (ON DELETE CASCADE). The audit log keeps its entries (plain ids, no foreign key) and gains
   * `user.delete`, which names the account by its username only. The last owner stays, as the admin rules keep one.
   */
  async deleteAccount(caller: Caller, password: string, clientAddress: string): Promise<string> {
    await this.confirmPassword(caller, password, 'password', clientAddress);
    const userId = caller.user.id;
    await this.deps.releaseTextures(async (trx) => {
      const now = this.deps.clock.now();
      let user = trx.selectFrom('users').select('perms').where('id', '=', userId);
      if (isPostgres(trx)) user = user.forUpdate();
      const { perms } = await user.executeTakeFirstOrThrow();
      if (perms === LEVELS.owner && !(await anotherOwnerExists(trx, userId))) {
        throw forbidden('accounts.lastOwnerDelete');
      }
      const skins = await trx.deleteFrom('skins').where('user_id', '=', userId).returning(['uuid', 'texture_digest']).execute();
      await trx.deleteFrom('users').where('id', '=', userId).execute();
      await recordAudit(trx, now, {
        actor: caller.actor,
        action: 'user.delete',
        target: userId,
        details: { skins: skins.length },
      });
      return { result: undefined, released: skins.map((skin) => skin.texture_digest) };
    });
    this.deps.texturesChanged();
    return this.link('/');
  }

  private async checkCurrentPassword(caller: Caller, currentPassword: string | undefined, clientAddress: string) {
    if (currentPassword === undefined) throw badRequest('accounts.currentPasswordRequired', { field: 'current_password' });
    await this.confirmPassword(caller, currentPassword, 'current_password', clientAddress);
  }

  /** Checks the account's own password, counting a wrong one on the login limits of the account and the address. */
  private async confirmPassword(caller: Caller, given: string, field: string, clientAddress: string) {
    if (!(await this.deps.failures.confirmOwnPassword(caller.user.id, given, clientAddress)))
      throw unauthorized('accounts.passwordWrong', { field });
  }

  /**
   * Mails a code in the account's language (stored with the account, contract section 14): the short code for typing,
   * in two groups of five, and the link to the errand's page carrying the token, which confirms by itself.
   */
  private async sendCode(trx: Transaction<Database>, userId: number, mail: string, now: number, errand: CodeErrand): Promise<number> {
    const purpose: CodePurpose = errand.kind === 'reset' ? 'reset_password' : 'verify_mail';
    const registration = errand.kind === 'registration' ? { passwordHash: errand.passwordHash } : undefined;
    const { code, token, id } = await this.deps.codes.issue(trx, userId, purpose, mail, now, registration);
    const language = await languageOfUser(trx, userId);
    const link = this.link(`${ERRAND_PAGES[errand.kind]}?code=${token}`);
    const message =
      purpose === 'verify_mail'
        ? verifyMailMessage(language, groupedCode(code), link)
        : resetPasswordMessage(language, groupedCode(code), link);
    await queueMail(trx, now, mail, message);
    return id;
  }

  /** A mail's place on the address's and the recipient's mail limits, both or neither (one purpose: `purpose:mail key`). */
  private async takeMailLimits(clientAddress: string, recipient: string): Promise<void> {
    await this.deps.limiter.takeAll([
      [RULES.mailsPerAddress, clientAddress],
      [RULES.mailsPerRecipient, recipient],
    ]);
  }

  /** Runs a write transaction; a unique-index refusal (a race on mail or username) becomes a 409. */
  private async writeOrConflict(work: (trx: Transaction<Database>) => Promise<void>, conflictKey: string, params?: Params) {
    try {
      await this.deps.db.transaction().execute(work);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(conflictKey, params);
      throw error;
    }
  }
}
