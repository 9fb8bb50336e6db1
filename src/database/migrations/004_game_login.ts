// The game login (Yggdrasil API): the service's signing key, game access tokens and the players' latest server joins.
import type { Kysely } from 'kysely';
import { offlinePlayerUuid } from '../../minecraft/offline-uuid.ts';
import { createTableWithId } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The UUID an offline-mode game server gives the player's name, so such servers can show the player's skin.
  await db.schema.alterTable('users').addColumn('offline_uuid', 'text').execute();
  await db.schema.createIndex('users_offline_uuid').on('users').column('offline_uuid').execute();
  const players = db as unknown as Kysely<{ users: { id: number; username: string | null; offline_uuid: string | null } }>;
  const named = await players.selectFrom('users').select(['id', 'username']).where('username', 'is not', null).execute();
  for (const { id, username } of named) {
    await players
      .updateTable('users')
      .set({ offline_uuid: offlinePlayerUuid(username!) })
      .where('id', '=', id)
      .execute();
  }

  // One row per key name; every instance reads the same key, and the first to need it creates it.
  await db.schema
    .createTable('signing_keys')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await createTableWithId(db, 'game_tokens')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('client_token', 'text', (c) => c.notNull())
    .addColumn('profile_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('game_tokens_user').on('game_tokens').columns(['user_id', 'revoked_at']).execute();

  // A player's latest join of a game server, checked by that server within seconds (hasJoined, checkserver).
  await db.schema
    .createTable('game_joins')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('server_id', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('joined_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_offline_uuid').execute();
  await db.schema.alterTable('users').dropColumn('offline_uuid').execute();
  await db.schema.dropTable('game_joins').execute();
  await db.schema.dropTable('game_tokens').execute();
  await db.schema.dropTable('signing_keys').execute();
}
