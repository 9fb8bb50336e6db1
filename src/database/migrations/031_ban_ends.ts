// Account bans with an end and the admin's chat switch (contract section 24, issue 42). An account ban is perms -1 as
// before; `banned_until` says when it ends (null: permanent, or not banned), so every way in reads the end from the
// row it already loads and the ban ends at that moment on every instance; housekeeping stores perms 0 afterwards.
// `online_chat` 0: an administrator switched the player's online chat off (player/attributes' privileges.onlineChat).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('banned_until', 'bigint').execute();
  await db.schema
    .alterTable('users')
    .addColumn('online_chat', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('online_chat').execute();
  await db.schema.alterTable('users').dropColumn('banned_until').execute();
}
