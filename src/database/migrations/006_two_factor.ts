// Two-factor login (contract section 12): one TOTP secret per account, encrypted under the server key, with the last
// time step a code was accepted at (so that no code is taken twice, on any instance), and ten recovery codes, hashed.
import type { Kysely } from 'kysely';
import { createTableWithId } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('two_factor')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    // AES-256-GCM: version, nonce, tag and ciphertext in one text (src/two-factor/secret-box.ts).
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // null while the player has not confirmed a first code: the secret is made but the login does not ask for it.
    .addColumn('enabled_at', 'bigint')
    // The last 30-second step a code was accepted at; a code of this step or an earlier one is refused.
    .addColumn('last_step', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await createTableWithId(db, 'two_factor_recovery')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('two_factor_recovery_user').on('two_factor_recovery').columns(['user_id', 'code_hash']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('two_factor_recovery').execute();
  await db.schema.dropTable('two_factor').execute();
}
