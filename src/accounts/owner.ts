// The owner account the settings name (OWNER_USERNAME, OWNER_MAIL, OWNER_PASSWORD), made or appointed at start, and
// what the start line says about owners. The address decides: OWNER_MAIL is the owner's own address, so the account
// holding it becomes the owner (docs/decisions.md, "The owner from the settings").
import type { ImportedPasswordChecks } from './imported-password-checks.ts';
import type { Kysely } from 'kysely';
import { serviceActing } from '../audit/acting.ts';
import { recordAudit, SYSTEM } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../database/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { SettingsError, type OwnerSettings } from '../settings.ts';
import { levelNameOf } from '../shared/levels.ts';
import { dropOutstandingCodes } from './codes.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { insertProfile, newProfileUuid, usernameColumns } from './profile-rows.ts';
import { checkMail, checkNewUsername, checkPassword, checkUsername, mailKey, usernameKey } from './rules.ts';
import { revokeAllSessions } from '../sessions/sessions.ts';
import { createAccount, type ProfileRules } from './create-account.ts';
import { LEVELS } from './standing.ts';

export interface OwnerDeps {
  db: Kysely<Database>;
  clock: Clock;
  profileRules: ProfileRules;
  /** Checks an imported password's format (the owner's account may have come in by an import). */
  importedChecks: ImportedPasswordChecks;
}

/** What the start did with the account of OWNER_MAIL. `name`: the account's own name (its username). */
export type OwnerOutcome =
  | { kind: 'created'; name: string; mail: string }
  /** It was already the owner; `passwordKept`: its password is not OWNER_PASSWORD, and stays. */
  | { kind: 'exists'; name: string; mail: string; passwordKept: boolean }
  /**
   * It had another level (`from`) and is the owner now. `password`: `kept` (its own, not OWNER_PASSWORD), `same`
   * (OWNER_PASSWORD already), `replaced` (its mail was never confirmed: nobody had proven the password, which is
   * OWNER_PASSWORD now, and every other way in was removed).
   */
  | { kind: 'appointed'; name: string; mail: string; from: number; password: 'kept' | 'same' | 'replaced' };

/** What the start line says about owners: none yet (how to make one), or one from OWNER_* (the password may go). */
export type OwnerAtStart = 'none' | 'from-settings' | 'exists';

interface HolderRow {
  id: number;
  username: string | null;
  mail: string;
  mail_verify: number;
  perms: number;
  password: string;
}

/**
 * Makes the owner account of the settings, or makes the account holding OWNER_MAIL the owner. Refuses the start
 * (SettingsError) when a setting breaks the rules of every account or OWNER_USERNAME is another account's name.
 */
export async function ensureOwner(deps: OwnerDeps, owner: OwnerSettings): Promise<OwnerOutcome> {
  const { nameRule } = deps.profileRules;
  // Every bad value at once, as the other settings are refused (the password's message never holds the password).
  const problems: string[] = [];
  const username = settingChecked('OWNER_USERNAME', () => checkUsername(owner.username, nameRule), problems);
  const mail = settingChecked('OWNER_MAIL', () => checkMail(owner.mail), problems);
  settingChecked('OWNER_PASSWORD', () => checkPassword(owner.password, [mail ?? owner.mail, username ?? owner.username]), problems);
  if (problems.length > 0 || username === undefined || mail === undefined) throw new SettingsError(problems);
  const holder = await holderOf(deps.db, mail);
  if (holder) return appoint(deps, holder, { ...owner, username });
  await checkNameFree(deps, username, mail);
  try {
    await createAccount(
      serviceActing('system'),
      deps.db,
      deps.clock,
      { username, mail, password: owner.password, perms: LEVELS.owner },
      deps.profileRules,
    );
  } catch (error) {
    // Instances that start together race to create the owner; the ones that lose find it made by the winner.
    const made = error instanceof ApiError && error.status === 409 ? await holderOf(deps.db, mail) : undefined;
    if (made) return appoint(deps, made, { ...owner, username });
    throw error;
  }
  return { kind: 'created', name: username, mail };
}

/** Whether any account is an owner by its own level (a temporary role does not make one). */
export async function ownerAtStart(db: Kysely<Database>, fromSettings: boolean): Promise<OwnerAtStart> {
  if (fromSettings) return 'from-settings';
  const owner = await db.selectFrom('users').select('id').where('perms', '=', LEVELS.owner).executeTakeFirst();
  return owner ? 'exists' : 'none';
}

/** The log line of the outcome: the account's own name and address, and what happened to its password. */
export function ownerLogLine(outcome: OwnerOutcome): string {
  const account = `${outcome.name} (${outcome.mail})`;
  if (outcome.kind === 'created') return `owner account created: ${account}`;
  if (outcome.kind === 'exists') {
    return `owner account exists: ${account}${outcome.passwordKept ? `; ${PASSWORD_KEPT}` : ''}`;
  }
  const was = `the account ${account} is now the owner (it was ${levelNameOf(outcome.from) ?? `level ${outcome.from}`})`;
  if (outcome.password === 'kept') return `${was}; ${PASSWORD_KEPT}`;
  if (outcome.password === 'same') return was;
  return (
    `${was}; its mail address had never been confirmed, so nobody had proven its password: the password is now ` +
    'OWNER_PASSWORD, and its sessions, app passwords, passkeys, two-factor login and Discord link were removed'
  );
}

const PASSWORD_KEPT = 'it keeps its own password (OWNER_PASSWORD is not its password and was not set)';

async function holderOf(db: Kysely<Database>, mail: string): Promise<HolderRow | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'mail', 'mail_verify', 'perms', 'password'])
    .where('mail_key', '=', mailKey(mail))
    .executeTakeFirst();
}

/**
 * OWNER_USERNAME for an account that has no name yet: not a name the audit gives the service itself, and not held by
 * an account with another mail address. (Another instance starting at the same moment may have made the owner.)
 */
async function checkNameFree(deps: OwnerDeps, username: string, mail: string): Promise<void> {
  const problems: string[] = [];
  settingChecked('OWNER_USERNAME', () => checkNewUsername(username, deps.profileRules.nameRule), problems);
  if (problems.length > 0) throw new SettingsError(problems);
  const nameHolder = await deps.db
    .selectFrom('profiles')
    .innerJoin('users', 'users.id', 'profiles.user_id')
    .select('users.mail_key')
    .where('profiles.name_key', '=', usernameKey(username))
    .executeTakeFirst();
  if (nameHolder && nameHolder.mail_key !== mailKey(mail)) {
    throw new SettingsError([`OWNER_USERNAME: ${username} is taken by an account with another mail address (${mail} has none)`]);
  }
}

/**
 * The account holding OWNER_MAIL becomes the owner. A confirmed address is the owner's own (the mail step proved it):
 * the account keeps its password and everything else. An address never confirmed proves nothing: whoever registered
 * it may be someone else, so its password becomes OWNER_PASSWORD and every other way in is removed. An account
 * without a name (registration step 3 not done) is given OWNER_USERNAME.
 */
async function appoint(deps: OwnerDeps, holder: HolderRow, owner: OwnerSettings): Promise<OwnerOutcome> {
  const { db, clock } = deps;
  const confirmed = holder.mail_verify === 1;
  const ownPassword = confirmed && (await verifyPassword(holder.password, owner.password, deps.importedChecks));
  if (holder.perms === LEVELS.owner && confirmed && holder.username !== null) {
    return { kind: 'exists', name: holder.username, mail: holder.mail, passwordKept: !ownPassword };
  }
  if (holder.username === null) await checkNameFree(deps, owner.username, holder.mail);
  const replacement = confirmed ? undefined : await hashPassword(owner.password);
  const name = await db.transaction().execute(async (trx) => {
    const now = clock.now();
    let name = holder.username;
    if (name === null) {
      name = owner.username;
      const uuid = await newProfileUuid(trx, deps.profileRules.uuid, name);
      await trx
        .updateTable('users')
        .set({ ...usernameColumns(name), uuid })
        .where('id', '=', holder.id)
        .execute();
      await insertProfile(trx, { userId: holder.id, name, uuid, now });
    }
    await trx
      .updateTable('users')
      .set({ perms: LEVELS.owner, mail_verify: 1, ...(replacement && { password: replacement }), updated_at: now })
      .where('id', '=', holder.id)
      .execute();
    if (replacement) {
      await revokeAllSessions(trx, holder.id, now, 'credentials-changed');
      await dropOutstandingCodes(trx, holder.id);
      await trx.deleteFrom('passkeys').where('user_id', '=', holder.id).execute();
      await trx.deleteFrom('two_factor_recovery').where('user_id', '=', holder.id).execute();
      await trx.deleteFrom('two_factor').where('user_id', '=', holder.id).execute();
      await trx
        .updateTable('users')
        .set({ dsid: null, discord_username: null, discord_avatar: null })
        .where('id', '=', holder.id)
        .execute();
    }
    await recordAudit(trx, now, {
      actor: SYSTEM,
      action: 'user.owner_from_settings',
      target: holder.id,
      details: { from: holder.perms, password: replacement ? 'replaced' : 'kept' },
    });
    return name;
  });
  const password = replacement ? 'replaced' : ownPassword ? 'same' : 'kept';
  return { kind: 'appointed', name, mail: holder.mail, from: holder.perms, password };
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
