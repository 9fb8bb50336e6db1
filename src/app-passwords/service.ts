// App passwords (contract sections 18 and 15b), HTTP-free: a player makes one (with the password, and the two-factor
// code when that is on: a new way in, mailed to the player), lists and revokes them; the game login's authenticate and
// signout and the launcher's login take one in place of the password and the second factor (accounts/credentials.ts
// asks AppPasswordLogins.accept()). A password change or reset and a ban delete them (revokeAllSessions in
// sessions/sessions.ts); logging out everywhere does not: they are credentials, not sessions.
import { lockedCount } from '../accounts/locked-count.ts';
import type { Caller } from '../accounts/authenticate.ts';
import type { AppPasswordCheck, Credentials, Reauthentication } from '../accounts/credentials.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../database/schema.ts';
import { badRequest, forbidden, notFound } from '../http/envelope.ts';
import { queueSecurityMail } from '../mail/outbox.ts';
import { namedCredentialOf } from '../http/shapes/named-credential.ts';
import { MAX_APP_PASSWORD_NAME, MAX_APP_PASSWORDS, type AppPasswordRecord, type NewAppPassword } from '../http/shapes/app-password.ts';
import type { Kysely } from 'kysely';
import { appPasswordHash, matchingHash, newAppPassword } from './secret.ts';

export interface AppPasswordsDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** Checks the player's proof before a new app password is made. */
  credentials: Credentials;
  publicUrl: string;
  /** Wakes the mail worker after a transaction that queued mail has committed. */
  mailQueued: () => void;
}

export class AppPasswords {
  constructor(private readonly deps: AppPasswordsDeps) {}

  /** The caller's app passwords, oldest first. */
  async list(caller: Caller): Promise<AppPasswordRecord[]> {
    const rows = await this.deps.db
      .selectFrom('app_passwords')
      .select(['id', 'name', 'created_at', 'last_used_at'])
      .where('user_id', '=', caller.user.id)
      .orderBy('id')
      .execute();
    return rows.map(namedCredentialOf);
  }

  /**
   * A new app password named `rawName`, once the caller proved it is them (a stolen session alone must not make a
   * lasting way in): the password, and the two-factor code when that is on; a wrong one is a 401 counted as a failed
   * login. 403 once the account has MAX_APP_PASSWORDS. Audited, and the player is mailed.
   */
  async create(caller: Caller, rawName: string, proof: Reauthentication, clientAddress: string): Promise<NewAppPassword> {
    const name = rawName.trim();
    if (name === '' || name.length > MAX_APP_PASSWORD_NAME) {
      throw badRequest('appPasswords.nameInvalid', { field: 'name', max: MAX_APP_PASSWORD_NAME });
    }
    const userId = caller.user.id;
    await this.deps.credentials.requireOwner(userId, proof, clientAddress, {
      passwordWrong: 'appPasswords.passwordWrong',
      needsCode: 'appPasswords.needsCode',
      codeWrong: 'appPasswords.codeWrong',
    });
    const password = newAppPassword();
    const id = await this.deps.db.transaction().execute(async (trx) => {
      if ((await lockedCount(trx, 'app_passwords', userId)) >= MAX_APP_PASSWORDS)
        throw forbidden('appPasswords.limit', { max: MAX_APP_PASSWORDS });
      const now = this.deps.clock.now();
      const { id } = await trx
        .insertInto('app_passwords')
        .values({ user_id: userId, name, password_hash: appPasswordHash(password)!, created_at: now, last_used_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordAudit(trx, now, { actor: caller.actor, action: 'app_password.create', target: userId, details: { id, name } });
      await queueSecurityMail(trx, now, caller.user, { kind: 'appPasswordMade', name }, this.deps.publicUrl);
      return id;
    });
    this.deps.mailQueued();
    return { id, name, password };
  }

  /** Revokes the caller's app password `id`; 404 when the caller has none of that id (another player's included). */
  async revoke(caller: Caller, id: number): Promise<void> {
    const userId = caller.user.id;
    await this.deps.db.transaction().execute(async (trx) => {
      const gone = await trx
        .deleteFrom('app_passwords')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .returning('name')
        .executeTakeFirst();
      if (!gone) throw notFound('appPasswords.notFound', { id });
      await recordAudit(trx, this.deps.clock.now(), {
        actor: caller.actor,
        action: 'app_password.revoke',
        target: userId,
        details: { id, name: gone.name },
      });
    });
  }
}

/** The logins' side: whether a password given to a launcher's login is one of the account's app passwords. */
export class AppPasswordLogins implements AppPasswordCheck {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async accept(userId: number, given: string): Promise<boolean> {
    const hash = appPasswordHash(given);
    if (hash === null) return false;
    const stored = await this.db.selectFrom('app_passwords').select(['id', 'password_hash']).where('user_id', '=', userId).execute();
    const match = matchingHash(stored, hash);
    if (!match) return false;
    await this.db.updateTable('app_passwords').set({ last_used_at: this.clock.now() }).where('id', '=', match.id).execute();
    return true;
  }
}
