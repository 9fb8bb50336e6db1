// The account flows of interface.md 3 and 4.1 as contract section 2 decides them. HTTP-free: routes call these.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { actorOf, recordAudit, SYSTEM, type Actor } from '../audit/audit.ts';
import { unixSeconds, type Clock } from '../clock.ts';
import { isPostgres, isUniqueViolation } from '../database/dialect.ts';
import type { Database, Executor, UserRow } from '../database/schema.ts';
import { ApiError, badRequest, conflict, forbidden, totpRequired, unauthorized } from '../http/envelope.ts';
import type { AccountSession } from '../http/shapes/account-session.ts';
import type { Params } from '../i18n/i18n.ts';
import { DEFAULT_LANGUAGE, type Language } from '../i18n/languages.ts';
import { languageOfUser, queueMail } from '../mail/outbox.ts';
import { resetPasswordMessage, verifyMailMessage } from '../mail/templates.ts';
import { RULES, type RateLimiter } from '../ratelimit/limiter.ts';
import { SettingsError, type OwnerSettings } from '../settings.ts';
import type { Caller } from './authenticate.ts';
import type { MailCodes } from './codes.ts';
import type { Credentials } from './credentials.ts';
import type { LoginFailures } from './login-failures.ts';
import { hashPassword } from './passwords.ts';
import { LEVELS, STANDING_MESSAGES, standingProblem } from './standing.ts';
import { checkMail, checkPassword, checkUsername, isPlausibleMail, mailKey, usernameColumns, usernameKey } from './rules.ts';
import type { Tokens } from './tokens.ts';
import { openWebSession } from './web-session.ts';

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
  /** Whether a new account may be created (registration control, which registration/ implements); absent: always. */
  admission?: Admission;
}

/**
 * Decides whether registration step 1 may create a new account (open, by invitation or closed). Only a new account
 * asks: registering again with a mail whose unverified account exists creates nothing, so it takes no invitation.
 */
export interface Admission {
  /** Throws the refusal (an ApiError) before any work is done. */
  check(invite: string | undefined): Promise<void>;
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
  selectionChanges(caller: Caller, choice: TextureChoice): Promise<SelectionChanges>;
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

/** Each kind of session: its table, and the column holding when it ends unless renewed. */
const SESSION_TABLES = [
  ['web', 'sessions', 'expires_at'],
  ['game', 'game_tokens', 'expires_at'],
  ['launcher', 'launcher_sessions', 'refresh_expires_at'],
] as const;

const WRONG_CODE = 'accounts.wrongCode';
const WRONG_CREDENTIALS = 'accounts.wrongCredentials';
const TOTP_REQUIRED = 'accounts.totpRequired';
const TOTP_WRONG = 'accounts.totpWrong';

export class AccountService {
  constructor(private readonly deps: AccountDeps) {}

  private link(path: string) {
    return `${this.deps.publicUrl}${path}`;
  }

  /**
   * Step 1: creates (or restarts) an unverified account and mails a code. Returns the next step's URL. A new account
   * needs the admission's consent (`invite`: the code of an invitation link); restarting one does not.
   */
  async register(
    rawMail: string,
    password: string,
    clientAddress: string,
    invite?: string,
    language: Language = DEFAULT_LANGUAGE,
  ): Promise<string> {
    const { db, clock, limiter, admission } = this.deps;
    const mail = checkMail(rawMail);
    checkPassword(password);
    const key = mailKey(mail);
    const taken = (user: { mail_verify: number; username: string | null } | undefined) =>
      user && (user.mail_verify === 1 || user.username !== null);
    const found = await db.selectFrom('users').select(['mail_verify', 'username']).where('mail_key', '=', key).executeTakeFirst();
    if (taken(found)) {
      throw conflict('accounts.mailExists');
    }
    if (!found) await admission?.check(invite);
    await limiter.take(RULES.mailsPerAddress, clientAddress);
    await limiter.take(RULES.mailsPerRecipient, `verify_mail:${key}`);
    const passwordHash = await hashPassword(password);
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
        await trx.updateTable('users').set({ mail, password: passwordHash, language, updated_at: now }).where('id', '=', userId).execute();
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
      await this.sendCode(trx, userId, 'verify_mail', mail, now);
      await recordAudit(trx, now, { actor: { id: userId, name: mail }, action: 'auth.register', target: userId });
    }, 'accounts.mailExists');
    this.deps.mailQueued();
    return this.link('/register/confirm');
  }

  /** Step 2: the mailed code proves the address. Returns where to go next. */
  async confirmMail(code: string, clientAddress: string): Promise<string> {
    const { db, clock, codes } = this.deps;
    await this.deps.limiter.ensureAllowed(RULES.codeFailuresPerAddress, clientAddress);
    const user = await db.transaction().execute(async (trx) => {
      const now = clock.now();
      const found = await codes.find(trx, code, 'verify_mail', now);
      if (!found) return undefined;
      const user = await trx
        .selectFrom('users')
        .select(['id', 'username', 'mail', 'mail_key'])
        .where('id', '=', found.user_id)
        .executeTakeFirstOrThrow();
      // The code proves the address it was sent to; after a later mail change it proves nothing.
      if (user.mail_key !== mailKey(found.mail) || !(await codes.use(trx, found.id, now))) return undefined;
      await trx.updateTable('users').set({ mail_verify: 1, updated_at: now }).where('id', '=', user.id).execute();
      await recordAudit(trx, now, { actor: actorOf(user), action: 'auth.confirm_mail', target: user.id });
      return user;
    });
    if (!user) return this.wrongCode(clientAddress);
    return this.link(user.username === null ? '/register/finish' : '/home');
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
    const username = checkUsername(rawUsername);
    const passwordHash = password === undefined ? undefined : await hashPassword(checkPassword(password));
    await this.writeOrConflict(
      async (trx) => {
        const now = clock.now();
        const result = await trx
          .updateTable('users')
          .set({
            ...usernameColumns(username),
            ...(passwordHash === undefined ? {} : { password: passwordHash }),
            uuid: randomUUID(),
            updated_at: now,
          })
          .where('id', '=', caller.user.id)
          .where('username', 'is', null)
          .executeTakeFirst();
        if (result.numUpdatedRows !== 1n) throw conflict('accounts.registrationFinished');
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

  async logout(caller: Caller): Promise<void> {
    await this.deps.db.updateTable('sessions').set({ revoked_at: this.deps.clock.now() }).where('id', '=', caller.sessionId).execute();
  }

  /**
   * Reset step 1. Answers the same whether or not an account has the address (no account enumeration);
   * mails a code only when one does.
   */
  async requestPasswordReset(rawMail: string, clientAddress: string): Promise<string> {
    const { db, clock, limiter } = this.deps;
    if (!isPlausibleMail(rawMail.trim())) throw badRequest('accounts.resetMailInvalid', { field: 'mail' });
    const key = mailKey(rawMail);
    await limiter.take(RULES.mailsPerAddress, clientAddress);
    await limiter.take(RULES.mailsPerRecipient, `reset_password:${key}`);
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
    await this.deps.limiter.ensureAllowed(RULES.codeFailuresPerAddress, clientAddress);
    if (!(await this.deps.codes.find(this.deps.db, code, 'reset_password', this.deps.clock.now()))) return this.wrongCode(clientAddress);
  }

  /** Reset step 3: sets the new password and revokes every session of the account. */
  async resetPassword(code: string, password: string, clientAddress: string): Promise<string> {
    const { db, clock, codes } = this.deps;
    checkPassword(password);
    await this.deps.limiter.ensureAllowed(RULES.codeFailuresPerAddress, clientAddress);
    const passwordHash = await hashPassword(password);
    const done = await db.transaction().execute(async (trx) => {
      const now = clock.now();
      const found = await codes.find(trx, code, 'reset_password', now);
      if (!found || !(await codes.use(trx, found.id, now))) return false;
      const user = await trx
        .selectFrom('users')
        .select(['id', 'username', 'mail', 'mail_key'])
        .where('id', '=', found.user_id)
        .executeTakeFirstOrThrow();
      // Reading the code proves the mail address, so a still-unverified address becomes verified.
      const provesMail = user.mail_key === mailKey(found.mail);
      await trx
        .updateTable('users')
        .set({ password: passwordHash, updated_at: now, ...(provesMail ? { mail_verify: 1 } : {}) })
        .where('id', '=', user.id)
        .execute();
      await revokeAllSessions(trx, user.id, now);
      await recordAudit(trx, now, { actor: actorOf(user), action: 'auth.password_reset', target: user.id });
      return true;
    });
    if (!done) return this.wrongCode(clientAddress);
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
    const { db, clock, limiter } = this.deps;
    const newPassword = change.password === undefined ? undefined : checkPassword(change.password);
    const mail = change.mail === undefined ? undefined : checkMail(change.mail);
    if (newPassword !== undefined || mail !== undefined) await this.checkCurrentPassword(caller, change.currentPassword);
    const newMail = mail !== undefined && mailKey(mail) !== caller.user.mail_key ? mail : undefined;
    if (newMail !== undefined) {
      if (await db.selectFrom('users').select('id').where('mail_key', '=', mailKey(newMail)).executeTakeFirst()) {
        throw conflict('accounts.mailTaken');
      }
      await limiter.take(RULES.mailsPerAddress, clientAddress);
      await limiter.take(RULES.mailsPerRecipient, `verify_mail:${mailKey(newMail)}`);
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
      if (newMail !== undefined) {
        await this.sendCode(trx, userId, 'verify_mail', newMail, now);
        await recordAudit(trx, now, { actor, action: 'user.mail_change', target: userId, details: { mail: newMail } });
      }
      if (passwordHash !== undefined) {
        await revokeAllSessions(trx, userId, now);
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
    for (const [kind, table, endColumn] of SESSION_TABLES) {
      const ends = sql.ref<number>(`${table}.${endColumn}`);
      const rows = await db
        .selectFrom(table)
        .select(['id', 'created_at', ends.as('ends_at')])
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where(ends, '>', now)
        .orderBy('id')
        .execute();
      for (const row of rows) {
        listed.push({
          kind,
          id: row.id,
          created: unixSeconds(row.created_at),
          expires: unixSeconds(row.ends_at),
          current: kind === 'web' && row.id === caller.sessionId,
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
  async deleteAccount(caller: Caller, password: string): Promise<string> {
    await this.confirmPassword(caller, password, 'password');
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
    const username = settingChecked('OWNER_USERNAME', () => checkUsername(owner.username));
    const mail = settingChecked('OWNER_MAIL', () => checkMail(owner.mail));
    settingChecked('OWNER_PASSWORD', () => checkPassword(owner.password));
    const ownerExists = async () =>
      (await db.selectFrom('users').select('id').where('mail_key', '=', mailKey(mail)).executeTakeFirst()) !== undefined;
    if (await ownerExists()) return 'exists';
    // Another instance starting at the same moment may have made the owner since: only an account with another mail
    // address holding the name refuses the start.
    const nameHolder = await db.selectFrom('users').select('mail_key').where('username_key', '=', usernameKey(username)).executeTakeFirst();
    if (nameHolder && nameHolder.mail_key !== mailKey(mail)) {
      throw new SettingsError([`OWNER_USERNAME: ${username} is taken by an account with another mail address (${owner.mail} has none)`]);
    }
    try {
      await createAccount(db, clock, { username, mail, password: owner.password, perms: LEVELS.owner }, SYSTEM);
    } catch (error) {
      // Instances that start together race to create the owner; the ones that lose find it made by the winner.
      if (error instanceof ApiError && error.status === 409 && (await ownerExists())) return 'exists';
      throw error;
    }
    return 'created';
  }

  private async checkCurrentPassword(caller: Caller, currentPassword: string | undefined) {
    if (currentPassword === undefined) throw badRequest('accounts.currentPasswordRequired', { field: 'current_password' });
    await this.confirmPassword(caller, currentPassword, 'current_password');
  }

  /** Checks the account's own password, counting a wrong one on the account's login-failure limit. */
  private async confirmPassword(caller: Caller, given: string, field: string) {
    if (!(await this.deps.failures.confirmOwnPassword(caller.user.id, given, null)))
      throw unauthorized('accounts.passwordWrong', { field });
  }

  /** Mails a code in the account's language (stored with the account, contract section 14). */
  private async sendCode(trx: Transaction<Database>, userId: number, purpose: 'verify_mail' | 'reset_password', mail: string, now: number) {
    const code = await this.deps.codes.issue(trx, userId, purpose, mail, now);
    const language = await languageOfUser(trx, userId);
    const message =
      purpose === 'verify_mail'
        ? verifyMailMessage(language, code, this.link(`/register/confirm?code=${code}`))
        : resetPasswordMessage(language, code, this.link(`/reset/confirm?code=${code}`));
    await queueMail(trx, now, mail, message);
  }

  private async wrongCode(clientAddress: string): Promise<never> {
    await this.deps.limiter.count(RULES.codeFailuresPerAddress, clientAddress);
    throw badRequest(WRONG_CODE, { field: 'code' });
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
): Promise<number> {
  const username = checkUsername(input.username);
  const mail = checkMail(input.mail);
  checkPassword(input.password);
  if (!Number.isInteger(input.perms) || input.perms < LEVELS.banned || input.perms > LEVELS.owner)
    throw badRequest('accounts.permsRange', { min: LEVELS.banned, max: LEVELS.owner });
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction().execute(async (trx) => {
      const now = clock.now();
      const { id } = await trx
        .insertInto('users')
        .values({
          ...usernameColumns(username),
          mail,
          mail_key: mailKey(mail),
          mail_verify: 1,
          mail_verification: 1,
          password: passwordHash,
          uuid: randomUUID(),
          perms: input.perms,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordAudit(trx, now, { actor, action: 'user.create', target: id, details: { username, perms: input.perms } });
      return id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('accounts.usernameOrMailExists');
    throw error;
  }
}

/** Runs a field rule on a setting, naming the setting in the error that stops the start. */
function settingChecked<T>(setting: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    throw new SettingsError([`${setting}: ${(error as Error).message}`]);
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
 * Ends every session of the user, of every kind: the web's, the game's and the launcher's (a password change or
 * reset, a ban).
 */
export async function revokeAllSessions(db: Executor, userId: number, nowMs: number) {
  await db.updateTable('sessions').set({ revoked_at: nowMs }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
  await revokeGameTokens(db, userId, nowMs);
  await db
    .updateTable('launcher_sessions')
    .set({ revoked_at: nowMs })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Ends the user's game sessions only (the game's signout). */
export async function revokeGameTokens(db: Executor, userId: number, nowMs: number) {
  await db.updateTable('game_tokens').set({ revoked_at: nowMs }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}
