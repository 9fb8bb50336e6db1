// The kinds of session an account may have, in one place: the sessions list, revoking all of an account's sessions
// (log out everywhere, a password change, a ban), housekeeping and the API's `kind` enum all read this registry, so
// a new kind is its name in the API's list (src/http/shapes/account-session.ts) and its entry here, which the type
// checker demands, besides its table.
import type { Database } from '../database/schema.ts';
import type { SessionKind } from '../http/shapes/account-session.ts';

export type { SessionKind };

/** A table whose rows are sessions of one account: each with its id, owner, start and revocation. */
type SessionTable = {
  [T in keyof Database]: Database[T] extends { id: unknown; user_id: number; created_at: number; revoked_at: number | null } ? T : never;
}[keyof Database];

/** A column of `table` holding when a session ends unless renewed (Unix milliseconds). */
type EndColumn<T extends SessionTable> = { [C in keyof Database[T]]: Database[T][C] extends number ? C : never }[keyof Database[T]];

/**
 * A kind's table and end column, and what else is true of its rows: `game`, the game's signout ends them; `profileBound`,
 * they act as one game profile (a `profile_id` column) and end with it; `listedUnder`, its rows with that column set
 * belong to a session of another kind and are listed as that one.
 */
type SessionKindEntry = {
  [T in SessionTable]: {
    table: T;
    ends: EndColumn<T> & string;
    game: boolean;
    profileBound: 'profile_id' extends keyof Database[T] ? boolean : false;
    listedUnder?: { column: keyof Database[T] & string; kind: SessionKind };
  };
}[SessionTable];

export const SESSION_KINDS = {
  /** A login on the site: the JWT's session, ending with the JWT. */
  web: { table: 'sessions', ends: 'expires_at', game: false, profileBound: false },
  /** A game login token (Yggdrasil), 15 days. */
  game: {
    table: 'game_tokens',
    ends: 'expires_at',
    game: true,
    profileBound: true,
    // An OAuth grant's access tokens are listed as the grant (kind oauth).
    listedUnder: { column: 'oauth_grant_id', kind: 'oauth' },
  },
  /** A GravitLauncher session: it lasts as long as its refresh token (the launcher refreshes the access token itself). */
  launcher: { table: 'launcher_sessions', ends: 'refresh_expires_at', game: false, profileBound: true },
  /** A Yggdrasil Connect grant: it lasts as long as its last token (its access tokens are game tokens listed here, not
   * under `game`). */
  oauth: { table: 'oauth_grants', ends: 'expires_at', game: true, profileBound: false },
} as const satisfies Record<SessionKind, SessionKindEntry>;

/** Each kind with its table and end column, for code that goes over all of them. */
export const SESSION_KIND_ENTRIES = Object.entries(SESSION_KINDS) as { [K in SessionKind]: [K, (typeof SESSION_KINDS)[K]] }[SessionKind][];

/**
 * Every table of sessions and tokens, with the column that says when a row ends: each kind's, and oidc-provider's
 * store of codes and tokens (oauth_models: authorization and device codes, access and refresh tokens). Only
 * src/sessions/ names them in a query (test/layers.test.ts); housekeeping removes their ended rows.
 */
export const SESSION_TABLES = [
  ...SESSION_KIND_ENTRIES.map(([, { table, ends }]) => ({ table, ends })),
  { table: 'oauth_models', ends: 'expires_at' },
] as const;
