// Game access tokens: a kind of session of their own (contract section 9). Random, stored only as a hash, at most
// MAX_LIVE_GAME_TOKENS live per account, GAME_TOKEN_LIFETIME_MS long. A token issued for a player name that has
// changed since is "temporarily invalid": it may only be refreshed, which hands out the new name.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import { tokenHash } from '../http/secrets.ts';
import type { Database, Executor, UserRow } from '../database/schema.ts';

export const GAME_TOKEN_LIFETIME_MS = 15 * 24 * 3600_000;
export const MAX_LIVE_GAME_TOKENS = 10;

/** The account columns a token's checks read. */
export type TokenHolder = Pick<UserRow, 'id' | 'uuid' | 'username' | 'mail' | 'perms' | 'mail_verify' | 'mail_verification'>;

export interface LiveGameToken {
  id: number;
  clientToken: string;
  /** The player name the token was issued for; when it differs from `user.username`, the token only refreshes. */
  profileName: string;
  user: TokenHolder;
}

export class GameTokens {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /** A new access token (128 random bits, as 32 hex digits, the form of Mojang's unsigned UUIDs); the oldest live
   * tokens of the account beyond the limit are revoked. */
  async issue(executor: Executor, userId: number, clientToken: string, profileName: string): Promise<string> {
    const accessToken = randomBytes(16).toString('hex');
    const now = this.clock.now();
    await executor
      .insertInto('game_tokens')
      .values({
        user_id: userId,
        token_hash: tokenHash(accessToken),
        client_token: clientToken,
        profile_name: profileName,
        created_at: now,
        expires_at: now + GAME_TOKEN_LIFETIME_MS,
        revoked_at: null,
      })
      .execute();
    const beyondLimit = await executor
      .selectFrom('game_tokens')
      .select('id')
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('id', 'desc')
      .offset(MAX_LIVE_GAME_TOKENS)
      .limit(1000)
      .execute();
    if (beyondLimit.length > 0)
      await this.revoke(
        executor,
        beyondLimit.map((row) => row.id),
      );
    return accessToken;
  }

  /** The token if it is live (issued here, neither revoked nor expired) and, when a client token is given, its own. */
  async find(accessToken: string, clientToken?: string): Promise<LiveGameToken | null> {
    const row = await this.db
      .selectFrom('game_tokens')
      .innerJoin('users', 'users.id', 'game_tokens.user_id')
      .select([
        'game_tokens.id',
        'game_tokens.client_token',
        'game_tokens.profile_name',
        'game_tokens.revoked_at',
        'game_tokens.expires_at',
        'users.id as user_id',
        'users.uuid',
        'users.username',
        'users.mail',
        'users.perms',
        'users.mail_verify',
        'users.mail_verification',
      ])
      .where('game_tokens.token_hash', '=', tokenHash(accessToken))
      .executeTakeFirst();
    if (!row || row.revoked_at !== null || row.expires_at <= this.clock.now()) return null;
    if (clientToken !== undefined && clientToken !== row.client_token) return null;
    return {
      id: row.id,
      clientToken: row.client_token,
      profileName: row.profile_name,
      user: {
        id: row.user_id,
        uuid: row.uuid,
        username: row.username,
        mail: row.mail,
        perms: row.perms,
        mail_verify: row.mail_verify,
        mail_verification: row.mail_verification,
      },
    };
  }

  /** Revokes those of the tokens still live; answers how many that was (a token revoked meanwhile counts none). */
  async revoke(executor: Executor, ids: number[]): Promise<number> {
    const result = await executor
      .updateTable('game_tokens')
      .set({ revoked_at: this.clock.now() })
      .where('id', 'in', ids)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
