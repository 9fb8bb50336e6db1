// The one place for who may do what to whom in the admin API (contract sections 3 and 15 "Levels"). A role grant
// lets its holder act at its level (edit users, skins and capes below it), never appoint, demote or ban: those go by
// the permanent level, `perms`, so that a temporary grant cannot make itself, or anyone, permanent.
import type { Transaction } from 'kysely';
import { isPostgres } from '../database/dialect.ts';
import type { Database } from '../database/schema.ts';
import { LEVELS } from './standing.ts';
import type { Acting } from '../audit/acting.ts';
import { forbidden } from '../http/envelope.ts';

/** Whether the editor sees stored secrets (password hashes, the LaunchServer's token columns): permanent owners only. */
export const seesSecrets = (editor: Acting): boolean => editor.permanentLevel >= LEVELS.owner;

/**
 * Editing an account, its skins, or taking its capes: only below the editor's own (effective) level. A permanent
 * owner, having no higher level to turn to, may also edit other owners and themselves (but not their perms: below).
 */
export function checkBelowOwnLevel(editor: Acting, targetLevel: number, refusal: string): void {
  if (targetLevel < editor.level) return;
  if (editor.permanentLevel >= LEVELS.owner) return;
  throw forbidden(refusal);
}

/** Banning (to -1) and unbanning (-1 to 0): the editor's permanent level must be admin or more and above `targetPerms`. */
export function checkMayBan(editor: Acting, targetPerms: number): void {
  if (editor.permanentLevel < LEVELS.admin || editor.permanentLevel <= targetPerms) throw forbidden('admin.banNeedsPermanent');
}

const isBanChange = (from: number, to: number) => to === LEVELS.banned || (from === LEVELS.banned && to === LEVELS.player);

/**
 * A change of a user's perms from `from` to `to`. Nobody changes their own. Bans and unbans: checkMayBan. Anything
 * else needs a permanent owner above the target's perms, or an owner demoting another owner; `anotherOwnerExists`
 * keeps the last owner (asked only for that demotion).
 */
export async function checkPermsChange(
  editor: Acting,
  target: { id: number; perms: number },
  to: number,
  anotherOwnerExists: () => Promise<boolean>,
): Promise<void> {
  if (target.id === editor.actor.id) throw forbidden('admin.ownPerms');
  const demotesOwner = target.perms === LEVELS.owner && to < LEVELS.owner;
  if (isBanChange(target.perms, to) && !demotesOwner) checkMayBan(editor, target.perms);
  else if (editor.permanentLevel < LEVELS.owner) throw forbidden('admin.onlyOwnerPerms');
  else if (target.perms >= LEVELS.owner && !demotesOwner) throw forbidden('admin.atOrAboveOwnLevel');
  if (demotesOwner && !(await anotherOwnerExists())) throw forbidden('admin.lastOwner');
}

/** Granting or revoking a role: a permanent owner, for someone else whose perms are below owner. */
export function checkMayGrant(editor: Acting, target: { id: number; perms: number }): void {
  if (target.id === editor.actor.id) throw forbidden('admin.ownRole');
  if (editor.permanentLevel < LEVELS.owner) throw forbidden('admin.grantNeedsPermanentOwner');
  if (target.perms >= LEVELS.owner) throw forbidden('admin.atOrAboveOwnLevel');
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
