// The account flows of interface.md 3 and 4.1 as contract section 2 decides them. HTTP-free: routes call these.
import { sql, type Kysely, type Transaction } from 'kysely';
import { actorOf, recordAudit, SYSTEM, type Actor } from '../audit/audit.ts';
import { unixSeconds, type Clock } from '../clock.ts';
import { isPostgres, isUniqueViolation } from '../database/dialect.ts';
import type { CodePurpose, Database, Executor, UserRow } from '../database/schema.ts';
import { ApiError, badRequest, conflict, forbidden, totpRequired, unauthorized } from '../http/envelope.ts';
import type { AccountSession } from '../http/shapes/account-session.ts';
import type { Params } from '../i18n/i18n.ts';
import { DEFAULT_LANGUAGE, type Language } from '../i18n/languages.ts';
import { languageOfUser, queueMail } from '../mail/outbox.ts';
import { mailChangedMessage, resetPasswordMessage, verifyMailMessage } from '../mail/templates.ts';
import { RULES, type Limit, type RateLimiter, type RateRule } from '../ratelimit/limiter.ts';
import { SESSION_KIND_ENTRIES, SESSION_KINDS } from '../sessions/kinds.ts';
import type { PageAddress } from '../shared/pages.ts';
import { SettingsError, type OwnerSettings, type ProfileSettings } from '../settings.ts';
import type { Caller } from './authenticate.ts';
import { dropOutstandingCodes, groupedCode, normalizedCode, serviceWideCodeRule, type LiveCode, type MailCodes } from './codes.ts';
import type { Credentials } from './credentials.ts';
import type { LoginFailures } from './login-failures.ts';
import { hashPassword } from './passwords.ts';
import { insertProfile, newProfileUuid, usernameColumns } from './profile-rows.ts';
import { LEVELS, STANDING_MESSAGES, standingProblem } from './standing.ts';
import { checkMail, checkNewUsername, checkPassword, checkUsername, isPlausibleMail, mailKey, usernameKey } from './rules.ts';
import type { Tokens } from './tokens.ts';
import { openWebSession } from './web-session.ts';

/** What account creation needs of the profile settings. */
export type ProfileRules = Pick<ProfileSettings, 'nameRule' | 'uuid'>;

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
  admit(trx: Transaction<Database>, invite: string | undefined, account: Actor, nowMs: number): Promise<void>;
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

const WRONG_CODE = 'accounts.wrongCode';
const MALFORMED_CODE = 'accounts.codeMalformed';
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
  constructor(private readonly deps: AccountDeps) {}

  private link(path: PageAddress) {
    return `${this.deps.publicUrl}${path}`;
  }

  /**
   * Step 1: creates an unverified account, or mails another code for one, and returns the next step's URL. Each code
   * carries the password of its request: confirming it sets that password, so registering again takes nothing over
   * (contract section 15). A new account needs the admission's consent (`invite`: the code of an invitation link).
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
        await admission?.admit(trx, invite, { id: userId, name: mail }, now);
      }
      const codeId = await this.sendCode(trx, userId, 'verify_mail', mail, now, passwordHash);
      continuation = this.deps.codes.continuation(codeId, now);
      await recordAudit(trx, now, { actor: { id: userId, name: mail }, action: 'auth.register', target: userId });
    }, 'accounts.mailExists');
    this.deps.mailQueued();
    return { next: this.link('/register/confirm'), continuation };
  }

  /**
   * "Send the mail again" (issue 31): a new registration code, within the mail limits, for the browser tab that
   * registered (its `continuation`, which carries the password of that request: the new code carries it too), or for
   * a player whose login was refused because the mail is not confirmed (`login`: the same proof as a login, counted
   * on the login limits; the new code carries the password just proven). Answers a continuation for the new code.
   */
  async resendConfirmation(
    proof: { continuation: string } | { login: string; password: string; totp?: string },
    clientAddress: string,
  ): Promise<{ next: string; continuation: string; mail: string }> {
    const { db, clock, credentials } = this.deps;
    let target: { userId: number; mail: string; passwordHash: string | null };
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
      target = { userId: row.user_id, mail: row.mail, passwordHash: row.password_hash };
    } else {
      const { user, refusal } = await credentials.check(proof.login, proof.password, clientAddress, { code: proof.totp });
      if (refusal === 'code-required') throw totpRequired(TOTP_REQUIRED);
      if (refusal === 'code-wrong') throw unauthorized(TOTP_WRONG, { field: 'totp' });
      if (refusal === 'code-used') throw unauthorized(TOTP_USED, { field: 'totp' });
      if (!user) throw unauthorized(WRONG_CREDENTIALS);
      if (standingProblem({ ...user, level: user.perms }, ['unfinished', 'unverified']) === 'banned')
        throw forbidden(STANDING_MESSAGES.banned);
      if (standingProblem({ ...user, level: user.perms }, ['unfinished']) !== 'unverified') throw conflict('accounts.alreadyConfirmed');
      // A registration's code carries the password just proven (it stands beside the codes of other requests); a
      // changed address's code carries none, as the one the change mailed.
      target = { userId: user.id, mail: user.mail, passwordHash: user.username === null ? user.password : null };
    }
    await this.takeMailLimits(clientAddress, `verify_mail:${mailKey(target.mail)}`);
    const continuation = await db.transaction().execute(async (trx) => {
      const now = clock.now();
      const codeId = await this.sendCode(trx, target.userId, 'verify_mail', target.mail, now, target.passwordHash);
      await recordAudit(trx, now, { actor: { id: target.userId, name: target.mail }, action: 'auth.register', target: target.userId });
      return this.deps.codes.continuation(codeId, now);
    });
    this.deps.mailQueued();
    return { next: this.link('/register/confirm'), continuation, mail: target.mail };
  }

  /**
   * Step 2: the mailed code proves the address; a registration code also sets the password of the request that made
   * it, and the account's other codes end (none of them may set a password later). Returns where to go next.
   */
  async confirmMail(code: string, clientAddress: string, continuation?: string): Promise<{ next: string; jwt?: string }> {
    const claim = this.deps.codes.continuationClaim(continuation, this.deps.clock.now());
    const confirmed = await this.checkingCode(code, 'verify_mail', clientAddress, async (trx, found, now) => {
      if (!(await this.deps.codes.use(trx, found.id, now))) return undefined;
      const user = await trx
        .selectFrom('users')
        .select(['id', 'username', 'mail', 'perms'])
        .where('id', '=', found.user_id)
        .executeTakeFirstOrThrow();
      const password = found.password_hash === null ? {} : { password: found.password_hash };
      await trx
        .updateTable('users')
        .set({ mail_verify: 1, ...password, updated_at: now })
        .where('id', '=', user.id)
        .execute();
      await dropOutstandingCodes(trx, user.id, found.password_hash === null ? 'verify_mail' : undefined);
      await recordAudit(trx, now, { actor: actorOf(user), action: 'auth.confirm_mail', target: user.id });
      // The tab that had this very code mailed proved the password then (docs/security.md, "Registration in one tab"):
      // it is logged in now. Only while the registration is unfinished (no second factor can be on yet), never banned.
      const sameTab = claim?.codeId === found.id && user.username === null && user.perms !== LEVELS.banned;
      if (!sameTab) return { user };
      const { jwt } = await openWebSession(trx, this.deps.tokens, this.deps.clock, this.deps.publicUrl, user);
      return { user, jwt };
    });
    const next = this.link(confirmed.user.username === null ? '/register/finish' : '/home');
    return confirmed.jwt === undefined ? { next } : { next, jwt: confirmed.jwt };
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
    const problem = standingProblem({ ...user, level: user.perms }, ['unfinished']);
    if (problem) throw forbidden(STANDING_MESSAGES[problem]);
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
        const uuid = newProfileUuid(this.deps.profileRules.uuid, username);
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
      { username },
    );
  }

  /** Ends the session the request came through. */
  async logout(caller: Caller): Promise<void> {
    const { kind, id } = caller.session;
    await this.deps.db.updateTable(SESSION_KINDS[kind].table).set({ revoked_at: this.deps.clock.now() }).where('id', '=', id).execute();
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
      await this.sendCode(trx, user.id, 'reset_password', user.mail, now);
      await recordAudit(trx, now, { actor: actorOf(user), action: 'auth.password_reset_request', target: user.id });
      return true;
    });
    if (sent) this.deps.mailQueued();
    return this.link('/reset/confirm');
  }

  /** Reset step 2: tells whether the code is good, without using it up. */
  async checkResetCode(code: string, clientAddress: string): Promise<void> {
    await this.checkingCode(code, 'reset_password', clientAddress, async () => true);
  }

  /** Reset step 3: sets the new password, revokes every session of the account and ends its other codes. */
  async resetPassword(code: string, password: string, clientAddress: string): Promise<string> {
    // The rules that need no account first, so that a refused password spends no code attempt.
    checkPassword(password);
    const passwordHash = await hashPassword(password);
    await this.checkingCode(code, 'reset_password', clientAddress, async (trx, found, now) => {
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
      await revokeSessionsAndAppPasswords(trx, user.id, now);
      await dropOutstandingCodes(trx, user.id);
      await recordAudit(trx, now, { actor: actorOf(user), action: 'auth.password_reset', target: user.id });
      return true;
    });
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
    const actor = actorOf(caller.user);
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
        await this.sendCode(trx, userId, 'verify_mail', newMail, now);
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
        await revokeSessionsAndAppPasswords(trx, userId, now);
        await recordAudit(trx, now, { actor, action: 'user.password_change', target: userId });
      }
    }, 'accounts.mailTaken');
    if (newMail !== undefined) this.deps.mailQueued();
    if (change.selection) this.deps.texturesChanged();
    return this.reload(userId);
  }

  /**
   * The account's live sessions of every kind, oldest first within a kind: web sessions and game tokens neither
   * revoked nor past their end, launcher sessions neither revoked nor past their refresh token's end (an access
   * token past its life is refreshed by the launcher, so the session still lasts).
   */
  async sessions(caller: Caller): Promise<AccountSession[]> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const userId = caller.user.id;
    const listed: AccountSession[] = [];
    for (const [kind, { table, ends: endColumn }] of SESSION_KIND_ENTRIES) {
      const ends = sql.ref<number>(`${table}.${endColumn}`);
      const rows = await db
        .selectFrom(table)
        .select(['id', 'created_at', ends.as('ends_at')])
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where(ends, '>', now)
        // An OAuth grant's access tokens are listed as the grant (kind oauth).
        .$if(table === 'game_tokens', (query) => query.where(sql.ref('oauth_grant_id'), 'is', null))
        .orderBy('id')
        .execute();
      for (const row of rows) {
        listed.push({
          kind,
          id: row.id,
          created: unixSeconds(row.created_at),
          expires: unixSeconds(row.ends_at),
          current: kind === caller.session.kind && row.id === caller.session.id,
        });
      }
    }
    return listed;
  }

  /** Log out everywhere: every session of every kind, the caller's own included. */
  async logoutEverywhere(caller: Caller): Promise<string> {
    await this.deps.db.transaction().execute(async (trx) => {
      const now = this.deps.clock.now();
      await revokeAllSessions(trx, caller.user.id, now);
      await recordAudit(trx, now, { actor: actorOf(caller.user), action: 'user.logout_everywhere', target: caller.user.id });
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
        actor: actorOf(caller.user),
        action: 'user.delete',
        target: userId,
        details: { skins: skins.length },
      });
      return { result: undefined, released: skins.map((skin) => skin.texture_digest) };
    });
    this.deps.texturesChanged();
    return this.link('/');
  }

  /** Creates the owner account named by the settings, unless an account has that mail already. */
  async ensureOwner(owner: OwnerSettings): Promise<'created' | 'exists'> {
    const { db, clock } = this.deps;
    const { nameRule } = this.deps.profileRules;
    // Every bad value at once, as the other settings are refused (the password's message never holds the password).
    const problems: string[] = [];
    const username = settingChecked('OWNER_USERNAME', () => checkUsername(owner.username, nameRule), problems);
    const mail = settingChecked('OWNER_MAIL', () => checkMail(owner.mail), problems);
    settingChecked('OWNER_PASSWORD', () => checkPassword(owner.password, [mail ?? owner.mail, username ?? owner.username]), problems);
    if (problems.length > 0 || username === undefined || mail === undefined) throw new SettingsError(problems);
    const ownerExists = async () =>
      (await db.selectFrom('users').select('id').where('mail_key', '=', mailKey(mail)).executeTakeFirst()) !== undefined;
    if (await ownerExists()) return 'exists';
    // A name the audit gives the service itself is refused for a new owner as for anyone (an existing one keeps it).
    settingChecked('OWNER_USERNAME', () => checkNewUsername(username, nameRule), problems);
    if (problems.length > 0) throw new SettingsError(problems);
    // Another instance starting at the same moment may have made the owner since: only an account with another mail
    // address holding the name refuses the start.
    const nameHolder = await db
      .selectFrom('profiles')
      .innerJoin('users', 'users.id', 'profiles.user_id')
      .select('users.mail_key')
      .where('profiles.name_key', '=', usernameKey(username))
      .executeTakeFirst();
    if (nameHolder && nameHolder.mail_key !== mailKey(mail)) {
      throw new SettingsError([`OWNER_USERNAME: ${username} is taken by an account with another mail address (${owner.mail} has none)`]);
    }
    try {
      await createAccount(db, clock, { username, mail, password: owner.password, perms: LEVELS.owner }, SYSTEM, this.deps.profileRules);
    } catch (error) {
      // Instances that start together race to create the owner; the ones that lose find it made by the winner.
      if (error instanceof ApiError && error.status === 409 && (await ownerExists())) return 'exists';
      throw error;
    }
    return 'created';
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

  /** Mails a code in the account's language (stored with the account, contract section 14). */
  private async sendCode(
    trx: Transaction<Database>,
    userId: number,
    purpose: CodePurpose,
    mail: string,
    now: number,
    passwordHash: string | null = null,
  ): Promise<number> {
    const { code, id } = await this.deps.codes.issueRow(trx, userId, purpose, mail, now, passwordHash);
    const language = await languageOfUser(trx, userId);
    const message =
      purpose === 'verify_mail'
        ? verifyMailMessage(language, groupedCode(code), this.link(`/register/confirm?code=${code}`))
        : resetPasswordMessage(language, groupedCode(code), this.link(`/reset/confirm?code=${code}`));
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

  /**
   * Checks a mail code within the limits (contract section 15): its place in the client address's count and in the
   * service-wide budget of its purpose is taken before the check, in one step of the limiter's store, and given back
   * when the code was right, so that requests arriving together check no more codes than the limits allow. `use`
   * runs in the transaction that found the code and answers undefined when the code turns out spent.
   */
  private async checkingCode<T>(
    given: string,
    purpose: CodePurpose,
    clientAddress: string,
    use: (trx: Transaction<Database>, found: LiveCode, now: number) => Promise<T | undefined>,
  ): Promise<T> {
    const { db, clock, codes, limiter } = this.deps;
    const code = normalizedCode(given);
    if (code === undefined) {
      // Of the wrong shape, it cannot match any code: it costs the address but not the service-wide budget.
      await limiter.take(RULES.codeFailuresPerAddress, clientAddress);
      throw badRequest(MALFORMED_CODE, { field: 'code' });
    }
    const limits: Limit[] = [
      [RULES.codeFailuresPerAddress, clientAddress],
      [serviceWideCodeRule(await codes.liveCount(db, purpose, clock.now())), purpose],
    ];
    await limiter.takeAll(limits);
    const giveBack = () => Promise.all(limits.map(([rule, subject]) => limiter.refund(rule, subject)));
    const result = await db
      .transaction()
      .execute(async (trx) => {
        const now = clock.now();
        const found = await codes.find(trx, code, purpose, now);
        return found && (await use(trx, found, now));
      })
      .catch(async (refusal: unknown) => {
        // The code was right, something else was refused (the new password's rules): no wrong guess to count.
        await giveBack();
        throw refusal;
      });
    if (result === undefined) throw badRequest(WRONG_CODE, { field: 'code' });
    await giveBack();
    return result;
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

/**
 * Creates a finished, verified account (the owner from the settings, the operator CLI): no mail, no code, the
 * username and UUID set at once. A taken username or mail is a 409.
 */
export async function createAccount(
  db: Kysely<Database>,
  clock: Clock,
  input: { username: string; mail: string; password: string; perms: number },
  actor: Actor,
  profileRules: ProfileRules,
): Promise<number> {
  const username = checkNewUsername(input.username, profileRules.nameRule);
  const mail = checkMail(input.mail);
  checkPassword(input.password, [mail, username]);
  if (!Number.isInteger(input.perms) || input.perms < LEVELS.banned || input.perms > LEVELS.owner)
    throw badRequest('accounts.permsRange', { min: LEVELS.banned, max: LEVELS.owner });
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction().execute(async (trx) => {
      const now = clock.now();
      const uuid = newProfileUuid(profileRules.uuid, username);
      const { id } = await trx
        .insertInto('users')
        .values({
          ...usernameColumns(username),
          mail,
          mail_key: mailKey(mail),
          mail_verify: 1,
          mail_verification: 1,
          password: passwordHash,
          uuid,
          perms: input.perms,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await insertProfile(trx, { userId: id, name: username, uuid, now });
      await recordAudit(trx, now, { actor, action: 'user.create', target: id, details: { username, perms: input.perms } });
      return id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('accounts.usernameOrMailExists');
    throw error;
  }
}

/** Runs a field rule on a setting: its result, or undefined with the problem, naming the setting, added to `problems`. */
function settingChecked<T>(setting: string, check: () => T, problems: string[]): T | undefined {
  try {
    return check();
  } catch (error) {
    problems.push(`${setting}: ${(error as Error).message}`);
    return undefined;
  }
}

/**
 * Whether an owner other than `userId` remains (the last owner stays: it cannot leave, be demoted or be banned).
 * On PostgreSQL the owners' rows are locked, so that two owners leaving at the same moment do not both see the other
 * one still there; SQLite runs one write transaction at a time by itself.
 */
export async function anotherOwnerExists(trx: Transaction<Database>, userId: number): Promise<boolean> {
  let owners = trx.selectFrom('users').select('id').where('perms', '=', LEVELS.owner).where('id', '!=', userId);
  if (isPostgres(trx)) owners = owners.forUpdate();
  return (await owners.execute()).length > 0;
}

/**
 * A password change or reset, a ban: every session of the user ends, and so does every app password (contract section
 * 18: made under the old password, or by the banned player). Logging out everywhere ends the sessions only.
 */
export async function revokeSessionsAndAppPasswords(db: Executor, userId: number, nowMs: number) {
  await revokeAllSessions(db, userId, nowMs);
  // Here rather than in app-passwords/, which sits above accounts (it uses the caller and the credential check).
  await db.deleteFrom('app_passwords').where('user_id', '=', userId).execute();
}

/** Ends every session of the user, of every kind in SESSION_KINDS (log out everywhere; see also above). */
export async function revokeAllSessions(db: Executor, userId: number, nowMs: number) {
  for (const [, { table }] of SESSION_KIND_ENTRIES) {
    await db.updateTable(table).set({ revoked_at: nowMs }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
  }
}

/** Ends the user's game sessions only (the game's signout), and with them the Yggdrasil Connect grants. */
export async function revokeGameTokens(db: Executor, userId: number, nowMs: number) {
  for (const table of ['game_tokens', 'oauth_grants'] as const) {
    await db.updateTable(table).set({ revoked_at: nowMs }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
  }
}
