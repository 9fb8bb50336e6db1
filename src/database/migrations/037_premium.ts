// Official accounts linked by a challenge skin (contract section 20): one linked account per source per account, one
// account here per linked account. A link may lend its official skin and cape to one profile of the account
// (MOJANG_FALLBACK=skins): their digests are texture references like a skin's, so the library keeps those textures.
import type { Kysely } from 'kysely';
import { createTableWithId } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await createTableWithId(db, 'premium_links')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // 'mojang', or the API root of a FALLBACK_SERVERS entry: stable when its shown name changes.
    .addColumn('source', 'text', (c) => c.notNull())
    // The official UUID, lower case with dashes, and the name as the source last spelled it.
    .addColumn('premium_uuid', 'text', (c) => c.notNull())
    .addColumn('premium_name', 'text', (c) => c.notNull())
    // The profile that wears the official textures while it wears none here; null: none (a second link of it).
    .addColumn('profile_id', 'integer', (c) => c.references('profiles.id').onDelete('set null'))
    .addColumn('skin_digest', 'text')
    .addColumn('skin_slim', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cape_digest', 'text')
    // When the official textures were last read (0: never).
    .addColumn('textures_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('premium_links_official').unique().on('premium_links').columns(['source', 'premium_uuid']).execute();
  await db.schema.createIndex('premium_links_user').unique().on('premium_links').columns(['user_id', 'source']).execute();
  await db.schema.createIndex('premium_links_profile').unique().on('premium_links').column('profile_id').execute();
  await db.schema.createIndex('premium_links_skin').on('premium_links').column('skin_digest').execute();
  await db.schema.createIndex('premium_links_cape').on('premium_links').column('cape_digest').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('premium_links').execute();
}
