// Yggdrasil Connect (contract section 18): the OpenID Provider's state (oauth_models: every model oidc-provider
// keeps, keyed by a hash of its id), the clients, the grants players see and revoke, the opaque subject of each
// account, and the game tokens an OAuth grant issued.
import type { Kysely } from 'kysely';
import { createTableWithId } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oauth_models')
    // SHA-256 (hex) of the model's name and id: the ids of tokens and codes are the bearer values themselves.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    // SHA-256 of the normalized user code of a device code.
    .addColumn('user_code', 'text')
    .addColumn('uid', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    // A device code's last poll (RFC 8628 slow_down), Unix milliseconds.
    .addColumn('polled_at', 'bigint')
    .execute();
  await db.schema.createIndex('oauth_models_grant').on('oauth_models').column('grant_id').execute();
  await db.schema.createIndex('oauth_models_user_code').on('oauth_models').column('user_code').execute();
  await db.schema.createIndex('oauth_models_uid').on('oauth_models').column('uid').execute();
  await db.schema.createIndex('oauth_models_expires').on('oauth_models').column('expires_at').execute();

  await db.schema
    .createTable('oauth_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('public', 'integer', (c) => c.notNull())
    .addColumn('device', 'integer', (c) => c.notNull())
    .addColumn('secret_hash', 'text')
    // 1: the shared client of every launcher (shared_client_id), made at the first start (src/oauth/clients.ts).
    .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await createTableWithId(db, 'oauth_grants')
    .addColumn('grant_key', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('profile_id', 'integer', (c) => c.references('profiles.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('oauth_grants_user').on('oauth_grants').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('oauth_grants_expires').on('oauth_grants').column('expires_at').execute();

  await db.schema
    .createTable('oauth_subjects')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('subject', 'text', (c) => c.notNull().unique())
    .execute();

  // The grant whose access token this game token is; null for a password login's token.
  await db.schema
    .alterTable('game_tokens')
    .addColumn('oauth_grant_id', 'integer', (c) => c.references('oauth_grants.id').onDelete('cascade'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('game_tokens').dropColumn('oauth_grant_id').execute();
  await db.schema.dropTable('oauth_subjects').execute();
  await db.schema.dropTable('oauth_grants').execute();
  await db.schema.dropTable('oauth_clients').execute();
  await db.schema.dropTable('oauth_models').execute();
}
