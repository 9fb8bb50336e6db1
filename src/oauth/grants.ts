// The grants players give launchers (contract section 18), as the service keeps them beside oidc-provider's own state
// (sessions/oauth.ts stores both): who consented, to which client, for which scopes and profile. A grant is a session
// of kind `oauth`: revoking it (here, from the sessions list, by a password change, a ban, log out everywhere or the
// game's signout) ends its refresh tokens (the adapter no longer finds the grant) and its access tokens (game tokens
// carry the grant's id).
import type { Kysely } from 'kysely';
import type { AdapterPayload } from 'oidc-provider';
import { type Acting, type ActingAccount, serviceActing } from '../audit/acting.ts';
import { recordAudit } from '../audit/audit.ts';
import { unixSeconds, type Clock } from '../clock.ts';
import type { Database, Executor } from '../database/schema.ts';
import { notFound } from '../http/envelope.ts';
import type { OAuthGrantRecord } from '../http/shapes/oauth.ts';
import { profileRef, userUuid } from '../yggdrasil/shapes.ts';
import type { GameTokens } from '../yggdrasil/tokens.ts';
import {
  endClientGrants,
  extendGrant,
  grantByKey,
  grantProfile,
  insertGrant,
  listGrants,
  liveGrant,
  type NewGrantRow,
  revokeGrant,
} from '../sessions/oauth.ts';
import { makesGameTokens, SCOPES } from '../shared/oauth-scopes.ts';

/** An OAuth access token's life (the value LittleSkin and Janus use); the refresh token's is in provider.ts. */
export const OAUTH_ACCESS_TOKEN_SECONDS = 3 * 86400;

export class OAuthGrants {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly gameTokens: GameTokens,
    private readonly publicUrl: string,
  ) {}

  /** The account's `sub`: the game login's own user id (a name-based UUID), remembered to find the account again. */
  async subjectOf(executor: Executor, userId: number): Promise<string> {
    const subject = userUuid(userId);
    await executor
      .insertInto('oauth_subjects')
      .values({ user_id: userId, subject })
      .onConflict((conflict) => conflict.column('user_id').doNothing())
      .execute();
    return subject;
  }

  async userOf(subject: string): Promise<number | null> {
    const row = await this.db.selectFrom('oauth_subjects').select('user_id').where('subject', '=', subject).executeTakeFirst();
    return row?.user_id ?? null;
  }

  async record(acting: Acting, executor: Executor, grant: NewGrantRow): Promise<void> {
    const now = this.clock.now();
    await insertGrant(executor, grant, now);
    await recordAudit(executor, now, {
      actor: acting.actor,
      action: 'oauth.grant',
      target: grant.userId,
      details: { client: grant.clientId, scopes: grant.scopes },
    });
  }

  /**
   * A token oidc-provider stored: an access token with Select and Join becomes a game token bound to the grant's
   * profile (join and validate accept it; it counts in the account's cap); every token extends its grant's life.
   */
  async tokenSaved(model: string, id: string, payload: AdapterPayload): Promise<void> {
    if ((model !== 'AccessToken' && model !== 'RefreshToken') || typeof payload.grantId !== 'string') return;
    const grant = await grantByKey(this.db, payload.grantId);
    if (!grant || grant.revoked_at !== null) return;
    const now = this.clock.now();
    const endsAt = typeof payload.exp === 'number' ? payload.exp * 1000 : now;
    await this.db.transaction().execute(async (trx) => {
      await extendGrant(trx, grant, endsAt, model === 'AccessToken', now);
      if (model !== 'AccessToken' || !makesGameTokens(String(payload.scope ?? '').split(' ')) || grant.profile_id === null) return;
      const profile = await trx.selectFrom('profiles').select(['id', 'name']).where('id', '=', grant.profile_id).executeTakeFirst();
      if (profile) await this.gameTokens.issueOAuth(trx, id, grant.user_id, profile, grant.id, endsAt);
    });
  }

  /** Ends the grant (oidc-provider revoked its tokens: a reused refresh token, a revocation request). */
  async revokeByKey(grantKey: string): Promise<void> {
    const grant = await grantByKey(this.db, grantKey);
    if (grant && grant.revoked_at === null) await this.end(serviceActing('system'), grant);
  }

  /**
   * Ends every grant of a client an admin deletes, each in its account's audit trail, and removes their codes and
   * tokens; returns how many grants were in use.
   */
  async endClient(acting: Acting, executor: Executor, clientId: string): Promise<number> {
    const now = this.clock.now();
    const ended = await endClientGrants(executor, clientId, now);
    for (const userId of ended)
      await recordAudit(executor, now, {
        actor: acting.actor,
        action: 'oauth.revoke',
        target: userId,
        details: { client: clientId },
      });
    return ended.length;
  }

  /** The account's grants in use (neither revoked nor ended), oldest first. */
  async list(userId: number): Promise<OAuthGrantRecord[]> {
    const rows = await listGrants(this.db, userId, this.clock.now());
    return rows.map((row) => ({
      id: row.id,
      client: { id: row.client_id, name: row.client_name ?? row.client_id, shared: row.builtin === 1 },
      scopes: row.scopes.split(' ').filter((scope) => scope !== ''),
      profile: row.uuid === null || row.name === null ? null : profileRef({ uuid: row.uuid, name: row.name }),
      created: unixSeconds(row.created_at),
      last_used: row.last_used_at === null ? null : unixSeconds(row.last_used_at),
    }));
  }

  /** The player revokes one of their grants; 404 for one that is not theirs or not in use. */
  async revoke(acting: ActingAccount, id: number): Promise<void> {
    const grant = await liveGrant(this.db, acting.accountId, id, this.clock.now());
    if (!grant) throw notFound('oauth.grantNotFound');
    await this.end(acting, grant);
  }

  private async end(acting: Acting, grant: { id: number; user_id: number; client_id: string }) {
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      await revokeGrant(trx, grant.id, now);
      await recordAudit(trx, now, {
        actor: acting.actor,
        action: 'oauth.revoke',
        target: grant.user_id,
        details: { client: grant.client_id },
      });
    });
  }

  /** The claims of the account `subject` under the grant `grantKey`, for the ID token and userinfo. */
  async claims(subject: string, grantKey: string | undefined, scope: string): Promise<Record<string, unknown>> {
    const scopes = new Set(scope.split(' '));
    const claims: Record<string, unknown> = { sub: subject };
    const userId = await this.userOf(subject);
    if (userId === null) return claims;
    if (scopes.has('profile') || scopes.has('email')) {
      const user = await this.db
        .selectFrom('users')
        .select(['username', 'uuid', 'mail', 'mail_verify'])
        .where('id', '=', userId)
        .executeTakeFirst();
      if (user && scopes.has('profile')) {
        claims.nickname = user.username;
        claims.picture = user.uuid === null ? null : `${this.publicUrl}/api/skin/head/${user.uuid}`;
      }
      if (user && scopes.has('email')) {
        claims.email = user.mail;
        claims.email_verified = user.mail_verify === 1;
      }
    }
    if (scopes.has(SCOPES.select) && grantKey !== undefined) {
      const chosen = await grantProfile(this.db, grantKey, userId);
      if (chosen) claims.selectedProfile = profileRef(chosen);
    }
    if (scopes.has(SCOPES.read)) {
      const profiles = await this.db.selectFrom('profiles').select(['uuid', 'name']).where('user_id', '=', userId).orderBy('id').execute();
      claims.availableProfiles = profiles.map(profileRef);
    }
    return claims;
  }
}
