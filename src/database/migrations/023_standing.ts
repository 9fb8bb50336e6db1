// Standing in the game (contract section 24): bans with a scope, one of the game's reasons and an optional end, kept
// after they end or are lifted (the admin list shows them all); and what the game may change of a profile's
// attributes (its profanity filter).
import type { Kysely } from 'kysely';
import { createTableWithId } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await createTableWithId(db, 'game_bans')
    // The ban's id as the game shows it (banStatus.banId): a UUID, lower case with dashes.
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // multiplayer | account
    .addColumn('scope', 'text', (c) => c.notNull())
    // One of the game's ban reasons by name (src/standing/reasons.ts), or other.
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // null: permanent.
    .addColumn('expires_at', 'bigint')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    // The banning administrator's name as it was (the CLI has no account).
    .addColumn('created_by_name', 'text', (c) => c.notNull())
    .addColumn('lifted_at', 'bigint')
    .addColumn('lifted_by_name', 'text')
    .execute();
  await db.schema.createIndex('game_bans_user').on('game_bans').column('user_id').execute();

  await db.schema
    .createTable('game_preferences')
    .addColumn('profile_id', 'integer', (c) => c.primaryKey().references('profiles.id').onDelete('cascade'))
    .addColumn('profanity_filter', 'integer', (c) => c.notNull())
    .execute();

  // Game server addresses the game refuses to join (sessionserver/blockedservers): host names in lower case,
  // `*.example.com`, IP addresses or prefixes such as `192.168.*`.
  await createTableWithId(db, 'blocked_servers')
    .addColumn('address', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by_name', 'text', (c) => c.notNull())
    .execute();

  // The players an account blocked (privacy/blocklist: the game hides their chat).
  await db.schema
    .createTable('player_blocks')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('profile_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('player_blocks_pk', ['user_id', 'profile_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('player_blocks').execute();
  await db.schema.dropTable('blocked_servers').execute();
  await db.schema.dropTable('game_preferences').execute();
  await db.schema.dropTable('game_bans').execute();
}
