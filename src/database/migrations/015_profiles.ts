// Several game profiles per account (contract section 16). Every finished account becomes one primary profile with
// its UUID and name unchanged; users.username/uuid/offline_uuid stay the primary profile's (the admin list, the web
// login and a LaunchServer's sql core read them there). Game tokens and launcher sessions name the profile they act
// for; a server join is one per profile, so two profiles of one account can join at the same moment.
import { type Kysely, sql } from 'kysely';
import { createTableWithId } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await createTableWithId(db, 'profiles')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    // Profile names and usernames share one namespace, without regard to case: every username is a profile's name.
    .addColumn('name_key', 'text', (c) => c.notNull().unique())
    .addColumn('offline_uuid', 'text', (c) => c.notNull())
    // The primary profile's choices stay in users.selected_skin_id/selected_cape_id; these are the others'.
    .addColumn('selected_skin_id', 'integer', (c) => c.references('skins.id').onDelete('set null'))
    .addColumn('selected_cape_id', 'integer', (c) => c.references('capes.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('name_changed_at', 'bigint')
    .execute();
  await db.schema.createIndex('profiles_user').on('profiles').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('profiles_offline_uuid').on('profiles').column('offline_uuid').execute();
  await sql`insert into profiles (user_id, uuid, name, name_key, offline_uuid, created_at)
    select id, uuid, username, username_key, offline_uuid, created_at from users where uuid is not null`.execute(db);

  await db.schema.alterTable('users').addColumn('max_profiles', 'integer').execute();

  // null: a token not bound to a profile yet (a mail login of an account with several).
  await db.schema
    .alterTable('game_tokens')
    .addColumn('profile_id', 'integer', (c) => c.references('profiles.id').onDelete('cascade'))
    .execute();
  await sql`update game_tokens set profile_id = (select profiles.id from profiles join users on users.uuid = profiles.uuid
    where users.id = game_tokens.user_id)`.execute(db);
  await db.schema
    .alterTable('launcher_sessions')
    .addColumn('profile_id', 'integer', (c) => c.references('profiles.id').onDelete('cascade'))
    .execute();
  await sql`update launcher_sessions set profile_id = (select profiles.id from profiles join users on users.uuid = profiles.uuid
    where users.id = launcher_sessions.user_id)`.execute(db);

  // A join lives 30 seconds: the table is made anew, keyed by profile.
  await db.schema.dropTable('game_joins').execute();
  await db.schema
    .createTable('game_joins')
    .addColumn('profile_id', 'integer', (c) => c.primaryKey().references('profiles.id').onDelete('cascade'))
    .addColumn('server_id', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('joined_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('game_joins').execute();
  await db.schema
    .createTable('game_joins')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('server_id', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('joined_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('launcher_sessions').dropColumn('profile_id').execute();
  await db.schema.alterTable('game_tokens').dropColumn('profile_id').execute();
  await db.schema.alterTable('users').dropColumn('max_profiles').execute();
  await db.schema.dropTable('profiles').execute();
}
