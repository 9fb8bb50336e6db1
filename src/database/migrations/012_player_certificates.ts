// The chat-signing key pair of each game profile (contract section 15): kept until it is to be refreshed, so that a
// player asking again costs a read rather than a new RSA key, and every instance answers the same pair.
import type { Kysely } from 'kysely';
import { createTableWithId } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await createTableWithId(db, 'player_certificates')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('profile_uuid', 'text', (c) => c.notNull().unique())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('signature_v1', 'text', (c) => c.notNull())
    .addColumn('signature_v2', 'text', (c) => c.notNull())
    .addColumn('refreshed_after', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('player_certificates_user').on('player_certificates').column('user_id').execute();
  await db.schema.createIndex('player_certificates_expiry').on('player_certificates').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('player_certificates').execute();
}
