// Issuing a session's row, for the kinds whose tokens other capabilities hand out: a web login's session (the row the
// JWT's sId names; accounts/web-session.ts signs the JWT) and a game token (yggdrasil/tokens.ts makes the token and
// checks it; the Yggdrasil Connect grant's access tokens are game tokens too). A launcher session is issued whole by
// launcher.ts.
import type { Executor } from '../database/schema.ts';
import { tokenHash } from '../http/secrets.ts';

/** At most this many live game tokens per account: issuing one more revokes the oldest. */
export const MAX_LIVE_GAME_TOKENS = 10;

/** Opens a web session of `userId` ending after `lifetimeMs`; answers its id. */
export async function openWebSessionRow(db: Executor, userId: number, nowMs: number, lifetimeMs: number): Promise<number> {
  const session = await db
    .insertInto('sessions')
    .values({ user_id: userId, created_at: nowMs, expires_at: nowMs + lifetimeMs, revoked_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return session.id;
}

export interface GameTokenRow {
  accessToken: string;
  userId: number;
  clientToken: string;
  /** The profile it acts as, or null: bound to none yet. */
  profile: { id: number; name: string } | null;
  expiresAt: number;
  /** The Yggdrasil Connect grant (oauth_grants) it belongs to, or null. */
  grantId: number | null;
}

/** Stores a game token (only its hash); the oldest live tokens of the account beyond MAX_LIVE_GAME_TOKENS are revoked. */
export async function insertGameToken(executor: Executor, token: GameTokenRow, nowMs: number): Promise<void> {
  await executor
    .insertInto('game_tokens')
    .values({
      user_id: token.userId,
      token_hash: tokenHash(token.accessToken),
      client_token: token.clientToken,
      profile_id: token.profile?.id ?? null,
      profile_name: token.profile?.name ?? '',
      created_at: nowMs,
      expires_at: token.expiresAt,
      revoked_at: null,
      oauth_grant_id: token.grantId,
    })
    .execute();
  const beyondLimit = await executor
    .selectFrom('game_tokens')
    .select('id')
    .where('user_id', '=', token.userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', nowMs)
    .orderBy('id', 'desc')
    .offset(MAX_LIVE_GAME_TOKENS)
    .limit(1000)
    .execute();
  if (beyondLimit.length > 0)
    await revokeGameTokensById(
      executor,
      beyondLimit.map((row) => row.id),
      nowMs,
    );
}

/** Revokes those of the game tokens still live; answers how many that was (a token revoked meanwhile counts none). */
export async function revokeGameTokensById(executor: Executor, ids: number[], nowMs: number): Promise<number> {
  const result = await executor
    .updateTable('game_tokens')
    .set({ revoked_at: nowMs })
    .where('id', 'in', ids)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
