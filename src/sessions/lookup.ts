// Finding a session by what its bearer holds, joined to its account (users): the web session a JWT names
// (accounts/authenticate.ts, on every authenticated request) and a game token by its hash (yggdrasil/tokens.ts). Each
// answers a query that the caller finishes with the account's columns it reads (CALLER_COLUMNS) and, for the web
// session, the role grant; what the answer means (expired, revoked, another account's) is the caller's to decide.
import type { Kysely } from 'kysely';
import type { Database } from '../database/schema.ts';
import { tokenHash } from '../http/secrets.ts';

/** The web session `sessionId` of the account `userId`, with its revocation and end; none when it is another's. */
export function webSessionQuery(db: Kysely<Database>, sessionId: number, userId: number) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.revoked_at as session_revoked_at', 'sessions.expires_at as session_expires_at'])
    .where('sessions.id', '=', sessionId)
    .where('sessions.user_id', '=', userId);
}

/**
 * The game token `accessToken` (live or not), with the profile it is bound to as that profile is now (uuid and name,
 * null when it is gone or another account's) and its Yggdrasil Connect grant's revocation.
 */
export function gameTokenQuery(db: Kysely<Database>, accessToken: string) {
  return (
    db
      .selectFrom('game_tokens')
      .innerJoin('users', 'users.id', 'game_tokens.user_id')
      // A profile moved to another account is not this token's any more (its tokens are revoked then, too).
      .leftJoin('profiles', (join) => join.onRef('profiles.id', '=', 'game_tokens.profile_id').onRef('profiles.user_id', '=', 'users.id'))
      .leftJoin('oauth_grants', 'oauth_grants.id', 'game_tokens.oauth_grant_id')
      .select([
        'game_tokens.id as token_id',
        'game_tokens.client_token',
        'game_tokens.profile_id',
        'game_tokens.profile_name',
        'game_tokens.revoked_at',
        'game_tokens.expires_at',
        'profiles.uuid as profile_uuid',
        'profiles.name as current_name',
        'game_tokens.oauth_grant_id',
        'oauth_grants.revoked_at as grant_revoked_at',
      ])
      .where('game_tokens.token_hash', '=', tokenHash(accessToken))
  );
}
