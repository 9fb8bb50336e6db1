// The Discord link and login (contract section 11). A Discord account links to at most one account: a unique index on
// users.dsid (NULLs, the unlinked accounts, do not collide on either database). The `state` of each authorization
// request and the one-time code a Discord login hands the page live in the database, so that any instance can finish
// what another began; both are stored as SHA-256 hashes and used up by a conditional delete.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('users_dsid').on('users').column('dsid').unique().execute();

  await db.schema
    .createTable('discord_states')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    // link: the player user_id links an account; login: nobody yet (user_id null).
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    // PKCE (RFC 7636): sent to Discord's token endpoint with the code; never leaves the service otherwise.
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('discord_states_expiry').on('discord_states').column('expires_at').execute();

  await db.schema
    .createTable('discord_login_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('discord_login_codes_expiry').on('discord_login_codes').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('discord_login_codes').execute();
  await db.schema.dropTable('discord_states').execute();
  await db.schema.dropIndex('users_dsid').execute();
}
