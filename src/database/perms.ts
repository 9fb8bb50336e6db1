// The stored `perms` as it holds now: an account ban (perms -1) with an end (`banned_until`) is over at that end, with
// no writer. Every reader of the column goes through one of the two forms (accounts/standing.ts re-exports them), so
// a timed ban's end is seen at the same moment everywhere: in the logins, the admin list, mail to all, the dashboard
// and the images. Here, below the mail, so that mail to all can choose its recipients by it.
import { sql } from 'kysely';
import { LEVELS } from '../shared/levels.ts';
import type { UserRow } from './schema.ts';

/**
 * `perms` as it holds at `nowMs`: an account ban (perms -1) whose end (`banned_until`) has passed is over, and the
 * account is a player again, at that moment on every instance (contract section 24); the column keeps -1 until an
 * admin changes it, and a -1 with no end (a permanent ban, or perms set to -1 by hand) never ends.
 */
export function accountPerms(user: Pick<UserRow, 'perms' | 'banned_until'>, nowMs: number): number {
  return user.perms === LEVELS.banned && user.banned_until !== null && Number(user.banned_until) <= nowMs ? LEVELS.player : user.perms;
}

/**
 * accountPerms in SQL, for the queries that choose or count users by their level (mail to all, the dashboard, the
 * front page's skin): the stored `users.perms`, with an account ban past its end read as a player.
 */
export const permsAt = (nowMs: number) =>
  sql<number>`(case when users.perms = ${LEVELS.banned} and users.banned_until is not null and users.banned_until <= ${nowMs} then ${LEVELS.player} else users.perms end)`;
