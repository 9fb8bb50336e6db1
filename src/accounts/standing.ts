// The one account-standing rule: whether an account may be used at all right now (banned, mail unconfirmed,
// registration unfinished), and the permission levels it rests on. Every way in (the web login, the token check on
// every request, and the game and launcher logins) asks this module instead of reading the columns itself.
import { accountPerms } from '../database/perms.ts';
import type { Executor, UserRow } from '../database/schema.ts';
import type { Message } from '../i18n/i18n.ts';
import { LEVELS } from '../shared/levels.ts';

// The levels are shared with the pages; the service's modules take them from here, with the rule that rests on them.
export { LEVELS, type LevelName } from '../shared/levels.ts';
export { accountPerms, permsAt } from '../database/perms.ts';

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

/** The message key of a sentence for the player per problem but a ban (standingRefusal words that); each API wraps
 * it in its own error shape. */
export const STANDING_MESSAGES: Record<Exclude<StandingProblem, 'banned'>, string> = {
  unverified: 'standing.unverified',
  unfinished: 'standing.unfinished',
};

/** The ban of `scope` that holds at `nowMs` and ends last (a permanent one first), or undefined. */
export async function longestBan(db: Executor, userId: number, scope: 'multiplayer' | 'account', nowMs: number) {
  const bans = await db
    .selectFrom('game_bans')
    .select(['uuid', 'reason', 'message', 'expires_at'])
    .where('user_id', '=', userId)
    .where('scope', '=', scope)
    .where('lifted_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowMs)]))
    .execute();
  const endOf = (ban: { expires_at: number | null }) => (ban.expires_at === null ? Infinity : Number(ban.expires_at));
  return bans.sort((a, b) => endOf(b) - endOf(a))[0];
}

/**
 * What a refused account is told, as a message every API puts in its own error shape: for a ban, its reason in words
 * and its end (contract section 24: every way in is refused "with the reason and end in the message"). The account
 * ban that holds longest gives the reason (none: perms -1 set by hand, reason `other`), the account's `banned_until` the end.
 */
export async function standingRefusal(
  db: Executor,
  user: Pick<UserRow, 'id' | 'banned_until'>,
  problem: StandingProblem,
  nowMs: number,
): Promise<Message> {
  if (problem !== 'banned') return { key: STANDING_MESSAGES[problem] };
  const longest = await longestBan(db, user.id, 'account', nowMs);
  const reason: Message = { key: `mail:ban.reasons.${longest?.reason ?? 'other'}` };
  return {
    key: 'standing.bannedFor',
    params: {
      reason: longest?.message ? { key: 'standing.banReasonWithMessage', params: { reason, message: longest.message } } : reason,
      // The account's own end decides (perms -1 set by hand after a timed ban is permanent).
      end:
        user.banned_until === null
          ? { key: 'mail:ban.permanent' }
          : { key: 'mail:ban.until', params: { when: new Date(Number(user.banned_until)) } },
    },
  };
}
