// The language of an account's mails (contract section 14): en, ru or zh-CN, taken from the registering request's
// Accept-Language, changed through PATCH /api/home. Accounts made before it, and the owner from OWNER_*, are English.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('language').execute();
}
