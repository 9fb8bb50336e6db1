// Registration control (issue 14, item 10): the console's choice of registration mode, kept in the database so that
// every instance sees it at once, and invitations: single use, expiring, revocable, stored as a hash only.
import type { Kysely } from 'kysely';
import { createTableWithId } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Site-wide choices made in the console, by name; one that is absent follows its setting (settings.ts).
  await db.schema
    .createTable('console_settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'bigint', (c) => c.notNull())
    .addColumn('changed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();

  await createTableWithId(db, 'invites')
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('note', 'text')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('used_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('revoked_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('invites').execute();
  await db.schema.dropTable('console_settings').execute();
}
