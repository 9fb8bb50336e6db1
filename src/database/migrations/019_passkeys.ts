// Passkeys (contract section 21): the players' WebAuthn credentials, and the challenges handed out for adding one or
// logging in with one (single use, five minutes; the housekeeping removes the ended ones).
import type { Kysely } from 'kysely';
import { createTableWithId } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await createTableWithId(db, 'passkeys')
    // The credential id as the authenticator gave it (base64url): what a login's response names.
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The WebAuthn user handle of the account (random, the same for each of its passkeys, never the account's id).
    .addColumn('user_handle', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull())
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('backed_up', 'integer', (c) => c.notNull())
    .addColumn('aaguid', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();

  await createTableWithId(db, 'passkey_challenges')
    // SHA-256 (hex) of what names the challenge: the challenge itself when adding a passkey, the challenge_id of a login.
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('challenge', 'text', (c) => c.notNull())
    // Adding a passkey: the account's WebAuthn user handle the options named.
    .addColumn('user_handle', 'text')
    // The web session that asked for it (adding a passkey); null for a login.
    .addColumn('session_id', 'integer')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('passkey_challenges_expires').on('passkey_challenges').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('passkey_challenges').execute();
  await db.schema.dropTable('passkeys').execute();
}
