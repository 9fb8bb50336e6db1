// Friends of the game (contract section 25, Minecraft 26.2+): one row per pair of profiles, a request until the other
// side accepts it; and what the game may change of a profile's friends preferences (player/attributes).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('friendships')
    // The pair, the smaller profile id first: one row per pair, so two requests sent at once cannot both be stored.
    .addColumn('low_profile_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('high_profile_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    // Who asked: one of the two.
    .addColumn('requester_profile_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // null: a request not yet accepted.
    .addColumn('accepted_at', 'bigint')
    .addPrimaryKeyConstraint('friendships_pk', ['low_profile_id', 'high_profile_id'])
    .execute();
  await db.schema.createIndex('friendships_high').on('friendships').column('high_profile_id').execute();

  await db.schema
    .createTable('friend_preferences')
    .addColumn('profile_id', 'integer', (c) => c.primaryKey().references('profiles.id').onDelete('cascade'))
    // 1 ENABLED, 0 DISABLED (the game's ToggleValue).
    .addColumn('friends', 'integer', (c) => c.notNull())
    .addColumn('accept_invites', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('friend_preferences').execute();
  await db.schema.dropTable('friendships').execute();
}
