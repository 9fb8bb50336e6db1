// Mail to all users: each broadcast remembers how far it has queued recipients, so a restart resumes there.
import type { Kysely } from 'kysely';
import { createTableWithId } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await createTableWithId(db, 'broadcasts')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_user_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('queued', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema
    .alterTable('mail_outbox')
    .addColumn('broadcast_id', 'integer', (c) => c.references('broadcasts.id').onDelete('set null'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropColumn('broadcast_id').execute();
  await db.schema.dropTable('broadcasts').execute();
}
