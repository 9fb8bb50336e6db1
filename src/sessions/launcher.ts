// Launcher sessions (contract section 10): a kind of session of their own, apart from the web's and the game's. A
// session holds a pair of random tokens, stored only as their SHA-256: an access token that lives GRAVIT_TOKEN_TTL
// and a refresh token that lives REFRESH_LIFETIME_MS. A refresh replaces both in the same row (the session id stays),
// so the old pair stops working at once. Revoked with every other session kind (sessions/sessions.ts revokeAllSessions).
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import { tokenHash } from '../http/secrets.ts';
import type { Database } from '../database/schema.ts';

export const REFRESH_LIFETIME_MS = 30 * 24 * 3600_000;

/** 256 random bits; URL-safe, so that it travels unescaped in any header or argument. */
const newToken = () => randomBytes(32).toString('base64url');

export interface IssuedSession {
  id: number;
  userId: number;
  /** The game profile the launcher logged in (contract section 16): every later use acts for it. */
  profileId: number | null;
  accessToken: string;
  refreshToken: string;
  accessExpiresAt: number;
}

export interface FoundSession {
  id: number;
  userId: number;
  profileId: number | null;
  accessExpiresAt: number;
}

export class LauncherSessions {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly accessLifetimeMs: number,
  ) {}

  /** A new session of the user's profile, with its first token pair (deleting the profile deletes the session). */
  async issue(userId: number, profileId: number): Promise<IssuedSession> {
    const now = this.clock.now();
    const pair = this.newPair(now);
    const { id } = await this.db
      .insertInto('launcher_sessions')
      .values({
        user_id: userId,
        profile_id: profileId,
        access_hash: pair.access_hash,
        refresh_hash: pair.refresh_hash,
        created_at: now,
        access_expires_at: pair.access_expires_at,
        refresh_expires_at: pair.refresh_expires_at,
        revoked_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id, userId, profileId, ...pair.tokens, accessExpiresAt: pair.access_expires_at };
  }

  /**
   * The session whose access token this is, while the session lasts (neither revoked nor past its refresh life),
   * whether or not the access token itself is past its life: the caller decides what that means.
   */
  async byAccessToken(accessToken: string): Promise<FoundSession | null> {
    const row = await this.db
      .selectFrom('launcher_sessions')
      .select(['id', 'user_id', 'profile_id', 'access_expires_at'])
      .where('access_hash', '=', tokenHash(accessToken))
      .where('revoked_at', 'is', null)
      .where('refresh_expires_at', '>', this.clock.now())
      .executeTakeFirst();
    return row ? { id: row.id, userId: row.user_id, profileId: row.profile_id, accessExpiresAt: row.access_expires_at } : null;
  }

  /**
   * A new token pair for a live refresh token, in the same session; null when the token is unknown, revoked,
   * expired or already used. One statement: of several refreshes of one token at the same moment, only the first to
   * change the row finds the old hash there, so exactly one gets a pair.
   */
  async rotate(refreshToken: string): Promise<IssuedSession | null> {
    const now = this.clock.now();
    const pair = this.newPair(now);
    const row = await this.db
      .updateTable('launcher_sessions')
      .set({
        access_hash: pair.access_hash,
        refresh_hash: pair.refresh_hash,
        access_expires_at: pair.access_expires_at,
        refresh_expires_at: pair.refresh_expires_at,
      })
      .where('refresh_hash', '=', tokenHash(refreshToken))
      .where('revoked_at', 'is', null)
      .where('refresh_expires_at', '>', now)
      .returning(['id', 'user_id', 'profile_id'])
      .executeTakeFirst();
    return row
      ? { id: row.id, userId: row.user_id, profileId: row.profile_id, ...pair.tokens, accessExpiresAt: pair.access_expires_at }
      : null;
  }

  private newPair(now: number) {
    const tokens = { accessToken: newToken(), refreshToken: newToken() };
    return {
      tokens,
      access_hash: tokenHash(tokens.accessToken),
      refresh_hash: tokenHash(tokens.refreshToken),
      access_expires_at: now + this.accessLifetimeMs,
      refresh_expires_at: now + REFRESH_LIFETIME_MS,
    };
  }
}
