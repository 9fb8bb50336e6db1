// The one account-standing rule: whether an account may be used at all right now (banned, mail unconfirmed,
// registration unfinished), and the permission levels it rests on. Every way in (the web login, the token check on
// every request, and the game and launcher logins) asks this module instead of reading the columns itself.
import type { Executor, UserRow } from '../database/schema.ts';
import { LEVELS } from '../shared/levels.ts';

// The levels are shared with the pages; the service's modules take them from here, with the rule that rests on them.
export { LEVELS, type LevelName } from '../shared/levels.ts';

/**
 * `perms` as it holds at `nowMs`: an account ban (perms -1) whose end (`banned_until`) has passed is over, and the
 * account is a player again, at that moment on every instance, before housekeeping stores it (contract section 24).
 */
export function accountPerms(user: Pick<UserRow, 'perms' | 'banned_until'>, nowMs: number): number {
  return user.perms === LEVELS.banned && user.banned_until !== null && Number(user.banned_until) <= nowMs ? LEVELS.player : user.perms;
}

/** Contract section 3: perms raised by an unexpired role grant; a ban overrides both. */
export function effectiveLevel(perms: number, grant: { role_level: number; expires_at: number | null } | null, nowMs: number): number {
  if (perms === LEVELS.banned) return LEVELS.banned;
  const grantCounts = grant !== null && (grant.expires_at === null || grant.expires_at > nowMs);
  return grantCounts ? Math.max(perms, grant.role_level) : perms;
}

/** The effective level of `user` now, with its role grant read from the database. */
export async function levelOfUser(db: Executor, user: Pick<UserRow, 'id' | 'perms' | 'banned_until'>, nowMs: number): Promise<number> {
  const grant = await db.selectFrom('role_grants').select(['role_level', 'expires_at']).where('user_id', '=', user.id).executeTakeFirst();
  return effectiveLevel(accountPerms(user, nowMs), grant ?? null, nowMs);
}

/** Why an account may not be used, most serious first. */
export type StandingProblem = 'banned' | 'unverified' | 'unfinished';

export type StandingFacts = Pick<UserRow, 'username' | 'mail_verify' | 'mail_verification'> & {
  /** The effective level (effectiveLevel), or perms where no grant can matter (a ban is in perms). */
  level: number;
};

/**
 * The first problem of an account's standing that the caller does not tolerate, or null when it may go on.
 * The web login tolerates `unfinished` (it leads to registration step 3); the routes an unfinished account may call
 * tolerate `unverified` and `unfinished`; the game and launcher logins tolerate nothing.
 */
export function standingProblem(user: StandingFacts, tolerated: readonly StandingProblem[] = []): StandingProblem | null {
  const problems: StandingProblem[] = [];
  if (user.level === LEVELS.banned) problems.push('banned');
  if (user.mail_verify !== 1 && user.mail_verification === 1) problems.push('unverified');
  if (user.username === null) problems.push('unfinished');
  return problems.find((problem) => !tolerated.includes(problem)) ?? null;
}

/** The message key of a sentence for the player per problem; each API wraps it in its own error shape. */
export const STANDING_MESSAGES: Record<StandingProblem, string> = {
  banned: 'standing.banned',
  unverified: 'standing.unverified',
  unfinished: 'standing.unfinished',
};
