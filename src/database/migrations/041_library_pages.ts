// The public library's pages with 100,000 entries (issue 40, bench/library.ts; plans by bench/library-plans.ts):
// - the model filter (classic or slim, skins only) walks its own index newest first and counts from it, instead of
//   reading every skin's row;
// - a search by name (`q`, a substring of name_key) walks the newest-first index with the name in it, so the rows
//   it does not match are never read, and counts from that index alone. It replaces 027's (state, created_at), of
//   which it is an extension (the review queue's order).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('library_entries_model').on('library_entries').columns(['state', 'model', 'created_at']).execute();
  await db.schema.createIndex('library_entries_names').on('library_entries').columns(['state', 'created_at', 'id', 'name_key']).execute();
  await db.schema.dropIndex('library_entries_state').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('library_entries_state').on('library_entries').columns(['state', 'created_at']).execute();
  await db.schema.dropIndex('library_entries_names').execute();
  await db.schema.dropIndex('library_entries_model').execute();
}
