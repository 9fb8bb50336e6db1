// Reports and moderation (contract section 19): players report library entries (later also chat, names and skins of
// the game), moderators close them with an action; and the review of new publications (LIBRARY_REVIEW), which
// accounts marked review_exempt skip.
import type { Kysely } from 'kysely';
import { createTableWithId } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await createTableWithId(db, 'reports')
    // library (an entry of the skin library); chat, name, skin: kept for reports about players
    .addColumn('kind', 'text', (c) => c.notNull())
    // null once the reporter's account is deleted: the report stays for the queue and its history.
    .addColumn('reporter_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    // What is reported: a library entry's id (as text) or a profile's UUID.
    .addColumn('subject', 'text', (c) => c.notNull())
    // inappropriate | copyright | other
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('evidence', 'text')
    .addColumn('attestation', 'text')
    // open | dismissed | actioned
    .addColumn('state', 'text', (c) => c.notNull())
    // While open: kind, reporter and subject; null once closed. Its unique index keeps one open report per reporter
    // and subject, also against two reports sent at once.
    .addColumn('open_key', 'text')
    // The action that closed it (dismiss, unpublish, remove_everywhere, block_digest, ban_owner) and its reason.
    .addColumn('action', 'text')
    .addColumn('action_reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('closed_at', 'bigint')
    .addColumn('closed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('closed_by_name', 'text')
    .execute();
  await db.schema.createIndex('reports_open_key').unique().on('reports').column('open_key').execute();
  // The queue: a kind's open or closed reports, oldest or newest first.
  await db.schema.createIndex('reports_queue').on('reports').columns(['kind', 'state', 'created_at']).execute();
  await db.schema.createIndex('reports_subject').on('reports').columns(['kind', 'subject']).execute();
  // The daily limit per reporter.
  await db.schema.createIndex('reports_reporter').on('reports').columns(['reporter_id', 'created_at']).execute();

  // 1: the account's publications are public at once under LIBRARY_REVIEW (admins mark trusted accounts).
  await db.schema
    .alterTable('users')
    .addColumn('review_exempt', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The review queue: pending entries, oldest first.
  await db.schema.createIndex('library_entries_state').on('library_entries').columns(['state', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('library_entries_state').execute();
  await db.schema.alterTable('users').dropColumn('review_exempt').execute();
  await db.schema.dropTable('reports').execute();
}
