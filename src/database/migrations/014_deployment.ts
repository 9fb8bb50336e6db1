// A random name for this database's service, made once: what every instance on the database shares and no other
// service has. The rate-limit counters in a shared Redis are kept under it, so that two services (or two test runs)
// using one Redis never count each other's failures: account ids repeat from one database to the next.
import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('deployment')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('namespace', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into deployment (id, namespace) values (1, ${randomBytes(9).toString('base64url')})`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('deployment').execute();
}
