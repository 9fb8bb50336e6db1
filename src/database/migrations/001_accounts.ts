// Accounts, sessions, emailed codes, role grants, the audit log and the mail outbox.
import { type Kysely, sql } from 'kysely';
import { createTableWithId } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await createTableWithId(db, 'users')
    .addColumn('username', 'text')
    .addColumn('username_key', 'text', (c) => c.unique())
    .addColumn('mail', 'text', (c) => c.notNull())
    .addColumn('mail_key', 'text', (c) => c.notNull().unique())
    .addColumn('mail_verify', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('mail_verification', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('password', 'text', (c) => c.notNull())
    .addColumn('uuid', 'text', (c) => c.unique())
    .addColumn('perms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('dsid', 'text')
    .addColumn('discord_username', 'text')
    .addColumn('discord_avatar', 'text')
    .addColumn('access_token', 'text')
    .addColumn('server_id', 'text')
    .addColumn('hwid_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await createTableWithId(db, 'sessions')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await createTableWithId(db, 'mail_codes')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('mail', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('mail_codes_user').on('mail_codes').columns(['user_id', 'purpose']).execute();

  await createTableWithId(db, 'role_grants')
    .addColumn('user_id', 'integer', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    .addColumn('role_level', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('granted_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('granted_at', 'bigint', (c) => c.notNull())
    .addColumn('expiry_recorded', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await createTableWithId(db, 'audit_log')
    .addColumn('time', 'bigint', (c) => c.notNull())
    .addColumn('iss', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer')
    .addColumn('details', 'text')
    .execute();
  await db.schema.createIndex('audit_log_time').on('audit_log').column('time').execute();
  await db.schema.createIndex('audit_log_target').on('audit_log').columns(['target_id', 'time']).execute();
  await db.schema.createIndex('audit_log_action').on('audit_log').columns(['action', 'time']).execute();

  await createTableWithId(db, 'mail_outbox')
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addColumn('sent_at', 'bigint')
    .addColumn('failed_at', 'bigint')
    .addColumn('last_error', 'text')
    .execute();
  // The worker's query: unsent, unfailed rows that are due.
  await db.schema
    .createIndex('mail_outbox_due')
    .on('mail_outbox')
    .column('next_attempt_at')
    .where(sql.ref('sent_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['mail_outbox', 'audit_log', 'role_grants', 'mail_codes', 'sessions', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
