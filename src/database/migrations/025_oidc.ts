// Log in with any OpenID Connect provider (contract section 26). The Discord flow's tables become every external
// login's: an authorization request and a login's one-time code name their provider ('discord', or 'oidc:' and the id
// of OIDC_PROVIDERS), and a request keeps the OpenID Connect nonce the ID token must carry. The identities linked to an
// account: one per provider per account, one account per identity (the issuer's `sub`, never the mail address).
import type { Kysely } from 'kysely';
import { createTableWithId } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['discord_states', 'discord_login_codes'])
    await db.schema
      .alterTable(table)
      .addColumn('provider', 'text', (c) => c.notNull().defaultTo('discord'))
      .execute();
  await db.schema.alterTable('discord_states').addColumn('nonce', 'text').execute();

  await createTableWithId(db, 'oidc_identities')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The id of OIDC_PROVIDERS the identity was linked through.
    .addColumn('provider', 'text', (c) => c.notNull())
    // The issuer's URL and its `sub`: together the identity.
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    // What the profile shows: the provider's name for the person (preferred_username, name or mail), as last seen.
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oidc_identities_subject').unique().on('oidc_identities').columns(['issuer', 'subject']).execute();
  await db.schema.createIndex('oidc_identities_user').unique().on('oidc_identities').columns(['user_id', 'provider']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('oidc_identities').execute();
  await db.schema.alterTable('discord_states').dropColumn('nonce').execute();
  for (const table of ['discord_states', 'discord_login_codes']) await db.schema.alterTable(table).dropColumn('provider').execute();
}
