// Game access tokens: a kind of session of their own (contract section 9). Random, stored only as a hash, at most
// MAX_LIVE_GAME_TOKENS live per account, GAME_TOKEN_LIFETIME_MS long. A token acts for the profile it is bound to
// (contract section 16), or for none yet. A token bound to a profile whose name has changed since is "temporarily
// invalid": it may only be refreshed, which hands out the new name. An OAuth access token with the Select and Join
// scopes (contract section 18) is a game token too, of its grant: it ends with the grant, the password login's refresh
// refuses it, and while YGGDRASIL_CONNECT is off it is not accepted at all.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { CALLER_COLUMNS, callerFrom, type Caller } from '../accounts/authenticate.ts';
import { levelOfUser, standingProblem, accountPerms } from '../accounts/standing.ts';
import type { Clock } from '../clock.ts';
import type { Database, Executor } from '../database/schema.ts';
import { insertGameToken, MAX_LIVE_GAME_TOKENS, revokeGameTokensById } from '../sessions/issue.ts';
import { gameTokenQuery } from '../sessions/lookup.ts';

export const GAME_TOKEN_LIFETIME_MS = 15 * 24 * 3600_000;
export { MAX_LIVE_GAME_TOKENS };

/** The profile a token is bound to: its current name, and the name it had when the token was bound. */
export interface BoundProfile {
  id: number;
  uuid: string;
  name: string;
  /** When it differs from `name`, the token only refreshes. */
  boundName: string;
}

export interface LiveGameToken {
  id: number;
  clientToken: string;
  /** null: bound to no profile yet (a mail login of an account with several). */
  profile: BoundProfile | null;
  user: Caller['user'];
  /** Issued through Yggdrasil Connect: refreshed only with its OAuth refresh token. */
  oauth: boolean;
}

/** An account that may play: finished registration, so it has its player name and UUID. */
export type PlayingUser = Caller['user'] & { uuid: string; username: string };

/** A token that may be used as it is (GameTokens.usable). */
export type UsableGameToken = LiveGameToken & { user: PlayingUser };

export class GameTokens {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    /** YGGDRASIL_CONNECT: whether tokens issued through it are accepted. */
    private readonly acceptOAuth = true,
  ) {}

  /** A new access token (128 random bits, as 32 hex digits, the form of Mojang's unsigned UUIDs); the oldest live
   * tokens of the account beyond the limit are revoked. */
  async issue(executor: Executor, userId: number, clientToken: string, profile: { id: number; name: string } | null): Promise<string> {
    const accessToken = randomBytes(16).toString('hex');
    await this.insert(executor, accessToken, userId, clientToken, profile, this.clock.now() + GAME_TOKEN_LIFETIME_MS, null);
    return accessToken;
  }

  /** An OAuth access token of the grant `grantId` (oauth_grants), bound to its profile, as a game token. */
  async issueOAuth(
    executor: Executor,
    accessToken: string,
    userId: number,
    profile: { id: number; name: string },
    grantId: number,
    expiresAt: number,
  ): Promise<void> {
    await this.insert(executor, accessToken, userId, '', profile, expiresAt, grantId);
  }

  private async insert(
    executor: Executor,
    accessToken: string,
    userId: number,
    clientToken: string,
    profile: { id: number; name: string } | null,
    expiresAt: number,
    grantId: number | null,
  ): Promise<void> {
    await insertGameToken(executor, { accessToken, userId, clientToken, profile, expiresAt, grantId }, this.clock.now());
  }

  /** The token if it is live (issued here, neither revoked nor expired) and, when a client token is given, its own. */
  async find(accessToken: string, clientToken?: string): Promise<LiveGameToken | null> {
    const row = await gameTokenQuery(this.db, accessToken).select(CALLER_COLUMNS).executeTakeFirst();
    if (!row || row.revoked_at !== null || row.expires_at <= this.clock.now()) return null;
    // An OAuth token has no client token of its own: the one a launcher sends with it is not checked.
    if (clientToken !== undefined && row.oauth_grant_id === null && clientToken !== row.client_token) return null;
    const {
      token_id,
      client_token,
      profile_id,
      profile_name,
      revoked_at,
      expires_at,
      profile_uuid,
      current_name,
      oauth_grant_id,
      grant_revoked_at,
      ...user
    } = row;
    if (oauth_grant_id !== null && (!this.acceptOAuth || grant_revoked_at !== null)) return null;
    if (profile_id !== null && (profile_uuid === null || current_name === null)) return null;
    const profile = profile_id === null ? null : { id: profile_id, uuid: profile_uuid!, name: current_name!, boundName: profile_name };
    return { id: token_id, clientToken: client_token, profile, user, oauth: oauth_grant_id !== null };
  }

  /**
   * A live token whose account may play and, when it is bound, whose profile still has the name it was bound with;
   * else null. An unbound token is usable (validate accepts it); what needs a profile checks for one.
   */
  async usable(accessToken: string, clientToken?: string): Promise<UsableGameToken | null> {
    const token = await this.find(accessToken, clientToken);
    if (!token || standingProblem({ ...token.user, level: accountPerms(token.user, this.clock.now()) }) !== null) return null;
    if (token.profile && token.profile.name !== token.profile.boundName) return null;
    return token as UsableGameToken;
  }

  /** The caller of a usable token (the game login's Bearer routes), acting as the profile the token is bound to. */
  async callerOf(accessToken: string): Promise<Caller | null> {
    const token = await this.usable(accessToken);
    if (!token) return null;
    const level = await levelOfUser(this.db, token.user, this.clock.now());
    return callerFrom(
      token.user,
      { kind: 'game', id: token.id },
      level,
      token.profile && { uuid: token.profile.uuid, name: token.profile.name },
    );
  }

  /** Revokes those of the tokens still live; answers how many that was (a token revoked meanwhile counts none). */
  async revoke(executor: Executor, ids: number[]): Promise<number> {
    return revokeGameTokensById(executor, ids, this.clock.now());
  }
}
