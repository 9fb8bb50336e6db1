// App passwords (contract section 18), HTTP-free: a player makes, lists and revokes them; the game login's
// authenticate and signout and the launcher's login take one in place of the password and the second factor
// (accounts/credentials.ts asks accept()). A password change or reset and a ban delete them
// (revokeSessionsAndAppPasswords in accounts/service.ts);
// logging out everywhere does not: they are credentials, not sessions.
import { lockedCount } from '../accounts/locked-count.ts';
import type { Caller } from '../accounts/authenticate.ts';
import type { AppPasswordCheck } from '../accounts/credentials.ts';
import { actorOf, recordAudit } from '../audit/audit.ts';
import { type Clock, unixSeconds } from '../clock.ts';
import type { Database } from '../database/schema.ts';
import { badRequest, forbidden, notFound } from '../http/envelope.ts';
import { MAX_APP_PASSWORD_NAME, MAX_APP_PASSWORDS, type AppPasswordRecord, type NewAppPassword } from '../http/shapes/app-password.ts';
import type { Kysely } from 'kysely';
import { appPasswordHash, matchingHash, newAppPassword } from './secret.ts';

export class AppPasswords implements AppPasswordCheck {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /** The caller's app passwords, oldest first. */
  async list(caller: Caller): Promise<AppPasswordRecord[]> {
    const rows = await this.db
      .selectFrom('app_passwords')
      .select(['id', 'name', 'created_at', 'last_used_at'])
      .where('user_id', '=', caller.user.id)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      created: unixSeconds(row.created_at),
      last_used: row.last_used_at === null ? null : unixSeconds(row.last_used_at),
    }));
  }

  /** A new app password named `rawName`; 403 once the account has MAX_APP_PASSWORDS. */
  async create(caller: Caller, rawName: string): Promise<NewAppPassword> {
    const name = rawName.trim();
    if (name === '' || name.length > MAX_APP_PASSWORD_NAME) {
      throw badRequest('appPasswords.nameInvalid', { field: 'name', max: MAX_APP_PASSWORD_NAME });
    }
    const password = newAppPassword();
    const userId = caller.user.id;
    const id = await this.db.transaction().execute(async (trx) => {
      if ((await lockedCount(trx, 'app_passwords', userId)) >= MAX_APP_PASSWORDS)
        throw forbidden('appPasswords.limit', { max: MAX_APP_PASSWORDS });
      const now = this.clock.now();
      const { id } = await trx
        .insertInto('app_passwords')
        .values({ user_id: userId, name, password_hash: appPasswordHash(password)!, created_at: now, last_used_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordAudit(trx, now, { actor: actorOf(caller.user), action: 'app_password.create', target: userId, details: { id, name } });
      return id;
    });
    return { id, name, password };
  }

  /** Revokes the caller's app password `id`; 404 when the caller has none of that id (another player's included). */
  async revoke(caller: Caller, id: number): Promise<void> {
    const userId = caller.user.id;
    await this.db.transaction().execute(async (trx) => {
      const gone = await trx
        .deleteFrom('app_passwords')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .returning('name')
        .executeTakeFirst();
      if (!gone) throw notFound('appPasswords.notFound', { id });
      await recordAudit(trx, this.clock.now(), {
        actor: actorOf(caller.user),
        action: 'app_password.revoke',
        target: userId,
        details: { id, name: gone.name },
      });
    });
  }

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
