// A registration code carries the password (hash) of the request that made it: registering again with an unconfirmed
// mail no longer replaces the password, confirming a code sets its own (contract section 15). The partial index serves
// the count of live codes of a purpose, from which the service-wide budget of wrong codes is derived.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mail_codes').addColumn('password_hash', 'text').execute();
  await db.schema
    .createIndex('mail_codes_live')
    .on('mail_codes')
    .columns(['purpose', 'expires_at'])
    .where(sql.ref('used_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('mail_codes_live').execute();
  await db.schema.alterTable('mail_codes').dropColumn('password_hash').execute();
}
