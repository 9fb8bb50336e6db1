// Registration through an OpenID Connect provider (contract section 26, migration 035). Between the provider's
// callback and the page where the player picks the profile name, what the provider vouched for waits here: a ticket
// (stored as its hash) bound to the browser that began, single use, 30 minutes. Nothing is created before the player
// submits the name. A password-less account (one registered through a provider without choosing a password) keeps
// an empty `users.password`, which no password verifies: no column changes for it.
import type { Kysely } from 'kysely';
import { createTableWithId } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await createTableWithId(db, 'oidc_registrations')
    // SHA-256 (hex) of the ticket in the page's address.
    .addColumn('ticket_hash', 'text', (c) => c.notNull().unique())
    // The id of OIDC_PROVIDERS it came through.
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mail', 'text', (c) => c.notNull())
    // 1: the provider said email_verified, the mail step is skipped.
    .addColumn('mail_verified', 'integer', (c) => c.notNull())
    // SHA-256 (hex) of the nonce in the beginning browser's cookie.
    .addColumn('browser_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oidc_registrations_expiry').on('oidc_registrations').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('oidc_registrations').execute();
}
