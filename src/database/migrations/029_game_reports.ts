// Reports from the game and forced actions (contract section 24, issue 42): the chat, name and skin reports players
// send from the game, with their evidence and its verification; every chat key this service certified (so a report of
// messages signed before a key refresh still verifies); and the rename or skin change a moderator forced on a profile.
import { type Kysely, sql } from 'kysely';
import { createTableWithId } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Every public key player/certificates handed out, kept until its certificate has expired (and some weeks after,
  // for the reports that name it): player_certificates keeps only the current pair.
  await createTableWithId(db, 'certified_chat_keys')
    .addColumn('profile_uuid', 'text', (c) => c.notNull())
    // SPKI DER, base64, as player_certificates.public_key.
    .addColumn('public_key', 'text', (c) => c.notNull().unique())
    .addColumn('issued_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('certified_chat_keys_profile').on('certified_chat_keys').column('profile_uuid').execute();
  // The pairs stored before this migration: their issue time is their expiry less the 48 h lifetime.
  await sql`insert into certified_chat_keys (profile_uuid, public_key, issued_at, expires_at)
    select profile_uuid, public_key, expires_at - 172800000, expires_at from player_certificates`.execute(db);

  await createTableWithId(db, 'game_reports')
    // The report's id as the game sent it (undashed UUID); repeats are stored, so not unique.
    .addColumn('report_id', 'text', (c) => c.notNull())
    // chat | name | skin
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('reporter_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('reporter_uuid', 'text', (c) => c.notNull())
    .addColumn('reporter_name', 'text', (c) => c.notNull())
    .addColumn('subject_profile_id', 'integer', (c) => c.references('profiles.id').onDelete('set null'))
    .addColumn('subject_uuid', 'text', (c) => c.notNull())
    // The reported profile's name when the report came (a name report is about it).
    .addColumn('subject_name', 'text', (c) => c.notNull())
    // The game's report reason (HATE_SPEECH…); null for name reports.
    .addColumn('reason', 'text')
    .addColumn('comment', 'text', (c) => c.notNull())
    // JSON: the messages with their verification (chat), the skin and cape at receipt (skin), the client and server.
    .addColumn('evidence', 'text', (c) => c.notNull())
    // full | partial | none; null for name and skin reports.
    .addColumn('attestation', 'text')
    // open | dismissed | actioned
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('closed_at', 'bigint')
    .addColumn('closed_by_name', 'text')
    // The action that closed it (dismiss, warn, ban_multiplayer, ban_account, force_rename, block_skin).
    .addColumn('closing_action', 'text')
    .execute();
  await db.schema.createIndex('game_reports_state').on('game_reports').columns(['state', 'id']).execute();
  await db.schema.createIndex('game_reports_reporter').on('game_reports').columns(['reporter_id', 'created_at']).execute();

  // A rename or skin change forced on a profile. It holds while the profile keeps that name (compared by its key) or
  // wears that skin; the player's own rename or skin change ends it, on every instance, with no hook in those paths.
  await createTableWithId(db, 'forced_profile_actions')
    .addColumn('profile_id', 'integer', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    // FORCED_NAME_CHANGE | USING_BANNED_SKIN
    .addColumn('action', 'text', (c) => c.notNull())
    // The name key that must change (FORCED_NAME_CHANGE) or the skin digest that must go (USING_BANNED_SKIN).
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by_name', 'text', (c) => c.notNull())
    .addUniqueConstraint('forced_profile_actions_unique', ['profile_id', 'action'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('forced_profile_actions').execute();
  await db.schema.dropTable('game_reports').execute();
  await db.schema.dropTable('certified_chat_keys').execute();
}
