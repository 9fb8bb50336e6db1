// Every operation on an account's sessions, of every kind in the registry (kinds.ts): the list, ending one, ending all
// of an account's (with what each occasion keeps), the game's signout and a profile's end: accounts/, profiles/ and
// yggdrasil/ call these. The rest of src/sessions/ holds the other operations on the tables of sessions and tokens, so
// that no other folder names one (test/layers.test.ts): issuing a web session's row and a game token (issue.ts),
// launcher sessions whole (launcher.ts), finding a web session or a game token by what its bearer holds (lookup.ts),
// and Yggdrasil Connect's grants and oidc-provider's store of codes and tokens (oauth.ts). What a token means (its
// checks, renewal, the grant's audit trail) stays with its capability: accounts/authenticate.ts, yggdrasil/tokens.ts,
// oauth/grants.ts and oauth/adapter.ts.
import { sql } from 'kysely';
import { unixSeconds } from '../clock.ts';
import type { Executor } from '../database/schema.ts';
import type { AccountSession } from '../http/shapes/account-session.ts';
import { SESSION_KIND_ENTRIES, SESSION_KINDS, type SessionKind } from './kinds.ts';

/** A session by its kind and its id within that kind. */
export interface SessionRef {
  kind: SessionKind;
  id: number;
}

/**
 * Why all of an account's sessions end, which says what else ends (contract section 18): logging out everywhere
 * keeps the app passwords; a password change or reset, and a ban, end them too (made under the old password, or by
 * the banned player).
 */
export type EndingAll = 'logout-everywhere' | 'credentials-changed';

/**
 * The account's live sessions of every kind, oldest first within a kind: neither revoked nor past their end (a
 * launcher session's end is its refresh token's: the launcher refreshes an access token past its life itself).
 */
export async function listSessions(db: Executor, userId: number, nowMs: number, current: SessionRef): Promise<AccountSession[]> {
  const listed: AccountSession[] = [];
  for (const [kind, entry] of SESSION_KIND_ENTRIES) {
    const { table, ends: endColumn } = entry;
    const ends = sql.ref<number>(`${table}.${endColumn}`);
    const listedUnder = 'listedUnder' in entry ? entry.listedUnder : undefined;
    const rows = await db
      .selectFrom(table)
      .select(['id', 'created_at', ends.as('ends_at')])
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where(ends, '>', nowMs)
      .$if(listedUnder !== undefined, (query) => query.where(sql.ref(listedUnder!.column), 'is', null))
      .orderBy('id')
      .execute();
    for (const row of rows) {
      listed.push({
        kind,
        id: row.id,
        created: unixSeconds(row.created_at),
        expires: unixSeconds(row.ends_at),
        current: kind === current.kind && row.id === current.id,
      });
    }
  }
  return listed;
}

/** Ends one session (a logout through it). */
export async function revokeSession(db: Executor, session: SessionRef, nowMs: number): Promise<void> {
  await db.updateTable(SESSION_KINDS[session.kind].table).set({ revoked_at: nowMs }).where('id', '=', session.id).execute();
}

/** Ends every session of the account, of every kind, and what `why` ends besides (EndingAll). */
export async function revokeAllSessions(db: Executor, userId: number, nowMs: number, why: EndingAll): Promise<void> {
  await revokeKinds(db, userId, nowMs, () => true);
  if (why === 'credentials-changed') await db.deleteFrom('app_passwords').where('user_id', '=', userId).execute();
}

/** Ends the account's game sessions only (the game's signout): the kinds marked `game`, Yggdrasil Connect grants too. */
export async function revokeGameSessions(db: Executor, userId: number, nowMs: number): Promise<void> {
  await revokeKinds(db, userId, nowMs, (entry) => entry.game);
}

/** Ends the sessions acting as the profile (a profile deleted or moved to another account): the `profileBound` kinds. */
export async function revokeProfileSessions(db: Executor, profileId: number, nowMs: number): Promise<void> {
  for (const [, entry] of SESSION_KIND_ENTRIES) {
    if (!entry.profileBound) continue;
    await db
      .updateTable(entry.table as 'game_tokens')
      .set({ revoked_at: nowMs })
      .where('profile_id', '=', profileId)
      .where('revoked_at', 'is', null)
      .execute();
  }
}

type KindEntry = (typeof SESSION_KIND_ENTRIES)[number][1];

async function revokeKinds(db: Executor, userId: number, nowMs: number, which: (entry: KindEntry) => boolean) {
  for (const [, entry] of SESSION_KIND_ENTRIES) {
    if (!which(entry)) continue;
    await db.updateTable(entry.table).set({ revoked_at: nowMs }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
  }
}
