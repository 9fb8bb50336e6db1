// Contract section 15b: every mailed link carries a token of its own (128 bits and more) that confirms by itself,
// while the short typed code needs its continuation or its mail address and is limited per account. The service-wide
// budget of wrong codes is gone, and with it the count of live codes that the partial index of migration 011 served.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mail_codes').addColumn('token_hash', 'text').execute();
  // Unique like code_hash; codes mailed before have none (NULLs never collide in either database).
  await db.schema.createIndex('mail_codes_token').unique().on('mail_codes').column('token_hash').execute();
  await db.schema.dropIndex('mail_codes_live').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('mail_codes_live')
    .on('mail_codes')
    .columns(['purpose', 'expires_at'])
    .where(sql.ref('used_at'), 'is', null)
    .execute();
  await db.schema.dropIndex('mail_codes_token').execute();
  await db.schema.alterTable('mail_codes').dropColumn('token_hash').execute();
}
