// Accounts made outside the registration flow (the owner from the settings, the operator CLI): finished at once.
import type { Kysely } from 'kysely';
import type { Acting } from '../audit/acting.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import { isUniqueViolation } from '../database/dialect.ts';
import type { Database } from '../database/schema.ts';
import { badRequest, conflict } from '../http/envelope.ts';
import type { ProfileSettings } from '../settings.ts';
import { hashPassword } from './passwords.ts';
import { insertProfile, newProfileUuid, usernameColumns } from './profile-rows.ts';
import { checkMail, checkNewUsername, checkPassword, mailKey } from './rules.ts';
import { LEVELS } from './standing.ts';

export type ProfileRules = Pick<ProfileSettings, 'nameRule' | 'uuid'>;

/**
 * Creates a finished, verified account (the owner from the settings, the operator CLI): no mail, no code, the
 * username and UUID set at once. A taken username or mail is a 409.
 */
export async function createAccount(
  acting: Acting,
  db: Kysely<Database>,
  clock: Clock,
  input: { username: string; mail: string; password: string; perms: number },
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
      const uuid = await newProfileUuid(trx, profileRules.uuid, username);
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
      await recordAudit(trx, now, { actor: acting.actor, action: 'user.create', target: id, details: { username, perms: input.perms } });
      return id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('accounts.usernameOrMailExists');
    throw error;
  }
}
