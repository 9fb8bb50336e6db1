// Contract section 19: capes players upload themselves (capes.uploader_id), and the public skin library: entries
// that publish a wardrobe skin or an own cape, and the copies other players saved from them.
import type { Kysely } from 'kysely';
import { createTableWithId } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // null: a cape an admin uploaded (section 5); else the player whose own cape it is (counted in their limit of 100).
  await db.schema
    .alterTable('capes')
    .addColumn('uploader_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('capes_uploader').on('capes').column('uploader_id').execute();

  await createTableWithId(db, 'library_entries')
    .addColumn('kind', 'text', (c) => c.notNull())
    // The wardrobe record published: deleting it from the wardrobe withdraws the entry with it.
    .addColumn('skin_id', 'integer', (c) => c.references('skins.id').onDelete('cascade'))
    .addColumn('cape_id', 'integer', (c) => c.references('capes.id').onDelete('cascade'))
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('model', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    // The name in lower case: `q` matches it without regard to case, the same way on both databases.
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('source_url', 'text')
    .addColumn('saves', 'integer', (c) => c.notNull().defaultTo(0))
    // public, pending, refused or withdrawn (kept for the daily limit, answered as 404).
    .addColumn('state', 'text', (c) => c.notNull())
    // The digest while the entry is public or pending, else null: its unique index makes one public entry a digest.
    .addColumn('live_digest', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('library_entries_live_digest').unique().on('library_entries').column('live_digest').execute();
  // The public library's pages: filtered by kind (and model), newest or most saved first.
  await db.schema.createIndex('library_entries_new').on('library_entries').columns(['state', 'kind', 'created_at']).execute();
  await db.schema.createIndex('library_entries_popular').on('library_entries').columns(['state', 'saves', 'created_at']).execute();
  await db.schema.createIndex('library_entries_owner').on('library_entries').columns(['owner_id', 'created_at']).execute();
  await db.schema.createIndex('library_entries_skin').on('library_entries').column('skin_id').execute();
  await db.schema.createIndex('library_entries_cape').on('library_entries').column('cape_id').execute();

  await db.schema
    .createTable('library_saves')
    .addColumn('entry_id', 'integer', (c) => c.notNull().references('library_entries.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The saver's copy: deleting it from the wardrobe forgets the save.
    .addColumn('skin_id', 'integer', (c) => c.references('skins.id').onDelete('cascade'))
    .addColumn('cape_id', 'integer', (c) => c.references('capes.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('library_saves_pk', ['entry_id', 'user_id'])
    .execute();
  await db.schema.createIndex('library_saves_user').on('library_saves').column('user_id').execute();
  await db.schema.createIndex('library_saves_skin').on('library_saves').column('skin_id').execute();
  await db.schema.createIndex('library_saves_cape').on('library_saves').column('cape_id').execute();

  // Pictures no way in accepts any more (admins block them by canonical digest).
  await db.schema
    .createTable('texture_blocks')
    .addColumn('digest', 'text', (c) => c.primaryKey())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('texture_blocks').execute();
  await db.schema.dropTable('library_saves').execute();
  await db.schema.dropTable('library_entries').execute();
  await db.schema.dropIndex('capes_uploader').execute();
  await db.schema.alterTable('capes').dropColumn('uploader_id').execute();
}
