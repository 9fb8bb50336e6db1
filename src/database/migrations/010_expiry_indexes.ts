// Indexes for the hourly removal of ended sessions and tokens (src/housekeeping): without them every pass would
// read the whole of each table.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('sessions_expiry').on('sessions').column('expires_at').execute();
  await db.schema.createIndex('game_tokens_expiry').on('game_tokens').column('expires_at').execute();
  await db.schema.createIndex('launcher_sessions_expiry').on('launcher_sessions').column('refresh_expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ['sessions_expiry', 'game_tokens_expiry', 'launcher_sessions_expiry']) {
    await db.schema.dropIndex(name).execute();
  }
}
