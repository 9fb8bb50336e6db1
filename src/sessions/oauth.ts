// Yggdrasil Connect's sessions and tokens (contract section 18), as stored: the grants players give launchers (kind
// `oauth`: who consented, to which client, for which scopes and profile) and oidc-provider's own store of codes and
// tokens (oauth_models: authorization and device codes, access and refresh tokens, its Grant records), one row per
// model and id, keyed by a hash of the bearer value. oauth/grants.ts and oauth/adapter.ts call these: what a grant
// means, its audit trail and the payloads' shape stay there.
import type { Kysely } from 'kysely';
import type { Database, Executor, OAuthModelsTable } from '../database/schema.ts';

export interface NewGrantRow {
  grantKey: string;
  userId: number;
  clientId: string;
  scopes: string[];
  profileId: number | null;
  /** Until the first token is issued: the code's end. */
  expiresAt: number;
}

export async function insertGrant(executor: Executor, grant: NewGrantRow, nowMs: number): Promise<void> {
  await executor
    .insertInto('oauth_grants')
    .values({
      grant_key: grant.grantKey,
      user_id: grant.userId,
      client_id: grant.clientId,
      scopes: grant.scopes.join(' '),
      profile_id: grant.profileId,
      created_at: nowMs,
      last_used_at: null,
      expires_at: grant.expiresAt,
      revoked_at: null,
    })
    .execute();
}

/** The grant oidc-provider knows as `grantKey`, revoked or not. */
export async function grantByKey(db: Kysely<Database>, grantKey: string) {
  return db
    .selectFrom('oauth_grants')
    .select(['id', 'user_id', 'client_id', 'profile_id', 'expires_at', 'revoked_at'])
    .where('grant_key', '=', grantKey)
    .executeTakeFirst();
}

/** A token of the grant ends at `endsAt`: the grant lasts at least as long; `used` (an access token) marks its use. */
export async function extendGrant(
  executor: Executor,
  grant: { id: number; expires_at: number },
  endsAt: number,
  used: boolean,
  nowMs: number,
) {
  await executor
    .updateTable('oauth_grants')
    .set({ expires_at: Math.max(grant.expires_at, endsAt), ...(used && { last_used_at: nowMs }) })
    .where('id', '=', grant.id)
    .execute();
}

/** The grant `id` of the account, while in use (neither revoked nor ended). */
export async function liveGrant(db: Kysely<Database>, userId: number, id: number, nowMs: number) {
  return db
    .selectFrom('oauth_grants')
    .select(['id', 'user_id', 'client_id'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', nowMs)
    .executeTakeFirst();
}

/** Ends the grant, unless it has ended already. */
export async function revokeGrant(executor: Executor, id: number, nowMs: number): Promise<void> {
  await executor.updateTable('oauth_grants').set({ revoked_at: nowMs }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

/**
 * Ends every grant of the client in use and removes the client's codes and tokens from oidc-provider's store; answers
 * the account of each grant ended.
 */
export async function endClientGrants(executor: Executor, clientId: string, nowMs: number): Promise<number[]> {
  const ended = await executor
    .selectFrom('oauth_grants')
    .select('user_id')
    .where('client_id', '=', clientId)
    .where('revoked_at', 'is', null)
    .execute();
  await executor
    .updateTable('oauth_grants')
    .set({ revoked_at: nowMs })
    .where('client_id', '=', clientId)
    .where('revoked_at', 'is', null)
    .execute();
  await executor
    .deleteFrom('oauth_models')
    .where('grant_id', 'in', executor.selectFrom('oauth_grants').select('grant_key').where('client_id', '=', clientId))
    .execute();
  return ended.map((grant) => grant.user_id);
}

/** The account's grants in use (neither revoked nor ended), oldest first, with their client and profile. */
export async function listGrants(db: Kysely<Database>, userId: number, nowMs: number) {
  return db
    .selectFrom('oauth_grants')
    .leftJoin('oauth_clients', 'oauth_clients.id', 'oauth_grants.client_id')
    .leftJoin('profiles', 'profiles.id', 'oauth_grants.profile_id')
    .select([
      'oauth_grants.id',
      'oauth_grants.client_id',
      'oauth_clients.name as client_name',
      'oauth_clients.builtin',
      'oauth_grants.scopes',
      'profiles.uuid',
      'profiles.name',
      'oauth_grants.created_at',
      'oauth_grants.last_used_at',
    ])
    .where('oauth_grants.user_id', '=', userId)
    .where('oauth_grants.revoked_at', 'is', null)
    .where('oauth_grants.expires_at', '>', nowMs)
    .orderBy('oauth_grants.id')
    .execute();
}

/** The profile chosen under the grant `grantKey`, while it is still the account's. */
export async function grantProfile(db: Kysely<Database>, grantKey: string, userId: number) {
  return db
    .selectFrom('oauth_grants')
    .innerJoin('profiles', 'profiles.id', 'oauth_grants.profile_id')
    .select(['profiles.uuid', 'profiles.name'])
    .where('oauth_grants.grant_key', '=', grantKey)
    .where('profiles.user_id', '=', userId)
    .executeTakeFirst();
}

/** One of oidc-provider's models as stored: `id` is the hash of its model and bearer value. */
export type StoredModel = Omit<OAuthModelsTable, 'polled_at'>;

/** Stores the model, or replaces it (its last poll stays). */
export async function saveModel(db: Kysely<Database>, { id, ...row }: StoredModel): Promise<void> {
  await db
    .insertInto('oauth_models')
    .values({ id, ...row, polled_at: null })
    .onConflict((conflict) => conflict.column('id').doUpdateSet(row))
    .execute();
}

/** The stored payload of the model `id` (its hash). */
export async function modelPayload(db: Kysely<Database>, id: string) {
  return db.selectFrom('oauth_models').select('payload').where('id', '=', id).executeTakeFirst();
}

/** The device code whose user code hashes to `userCode`. */
export async function modelByUserCode(db: Kysely<Database>, userCode: string) {
  return db.selectFrom('oauth_models').select(['id', 'payload']).where('user_code', '=', userCode).executeTakeFirst();
}

export async function modelByUid(db: Kysely<Database>, model: string, uid: string) {
  return db.selectFrom('oauth_models').select('payload').where('model', '=', model).where('uid', '=', uid).executeTakeFirst();
}

export async function deleteModel(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('oauth_models').where('id', '=', id).execute();
}

/** Removes the grant's stored models of one kind (oidc-provider revokes a grant model by model). */
export async function deleteGrantModels(db: Kysely<Database>, grantKey: string, model: string): Promise<void> {
  await db.deleteFrom('oauth_models').where('grant_id', '=', grantKey).where('model', '=', model).execute();
}

/** Notes a poll of the device code `id` (its hash) at `nowMs`; answers when it was polled before, if ever. */
export async function notePoll(db: Kysely<Database>, id: string, nowMs: number): Promise<number | null> {
  const row = await db.selectFrom('oauth_models').select('polled_at').where('id', '=', id).executeTakeFirst();
  await db.updateTable('oauth_models').set({ polled_at: nowMs }).where('id', '=', id).execute();
  return row?.polled_at ?? null;
}
