// Textures (content-addressed), skins, capes, cape owners, and each user's selected skin and cape.
import type { Kysely } from 'kysely';
import { bytesType, createTableWithId } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('textures')
    .addColumn('digest', 'text', (c) => c.primaryKey())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('byte_size', 'integer', (c) => c.notNull())
    // Only with TEXTURE_STORE=database; the file store keeps the bytes in DATA_DIR/textures.
    .addColumn('data', bytesType(db))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await createTableWithId(db, 'capes')
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('texture_digest', 'text', (c) => c.notNull().references('textures.digest'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('cape_owners')
    .addColumn('cape_id', 'integer', (c) => c.notNull().references('capes.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('granted_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('cape_owners_pk', ['cape_id', 'user_id'])
    .execute();
  await db.schema.createIndex('cape_owners_user').on('cape_owners').column('user_id').execute();

  await createTableWithId(db, 'skins')
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slim', 'integer', (c) => c.notNull())
    .addColumn('hd', 'integer', (c) => c.notNull())
    .addColumn('texture_digest', 'text', (c) => c.notNull().references('textures.digest'))
    .addColumn('cape_id', 'integer', (c) => c.references('capes.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('skins_user').on('skins').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('skins_texture').on('skins').column('texture_digest').execute();
  await db.schema.createIndex('capes_texture').on('capes').column('texture_digest').execute();

  await db.schema
    .alterTable('users')
    .addColumn('selected_skin_id', 'integer', (c) => c.references('skins.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('selected_cape_id', 'integer', (c) => c.references('capes.id').onDelete('set null'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('selected_cape_id').execute();
  await db.schema.alterTable('users').dropColumn('selected_skin_id').execute();
  for (const table of ['skins', 'cape_owners', 'capes', 'textures']) await db.schema.dropTable(table).execute();
}
