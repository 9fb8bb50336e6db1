// GravitLauncher (contract section 10): launcher sessions of their own, and the hardware ids a LaunchServer's
// advanced protect handler reports. `hwids` and `hwidlog` are the tables GravitLauncher's documentation gives its `sql`
// core (LauncherWiki docs/auth/README.md, the PostgreSQL DDL of "Метод SQL"; hwidLog as its MySQL HWID provider had
// it): every name unquoted lower case, `id` first, so that a LaunchServer's own unquoted statements find them on
// PostgreSQL. The HTTP way links players to hardware in `hardware_users`; `users.hwid_id` stays the sql core's.
import { type Kysely, sql } from 'kysely';
import { bytesType, createTableWithId, isPostgres } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  const bytes = bytesType(db);
  // SQLite has no boolean: 0/1 in an integer, as every flag of this schema.
  const flag = postgres ? 'boolean' : 'integer';

  await createTableWithId(db, 'launcher_sessions')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('access_hash', 'text', (c) => c.notNull().unique())
    .addColumn('refresh_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('access_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('refresh_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('launcher_sessions_user').on('launcher_sessions').columns(['user_id', 'revoked_at']).execute();

  // The wiki's PostgreSQL DDL, column for column: id serial8, the constraint hwids_pk, the unique index on publickey.
  let hwids = db.schema.createTable('hwids');
  hwids = postgres
    ? hwids.addColumn('id', 'bigserial', (c) => c.notNull()).addPrimaryKeyConstraint('hwids_pk', ['id'])
    : hwids.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await hwids
    .addColumn('publickey', bytes)
    .addColumn('hwdiskid', 'varchar')
    .addColumn('baseboardserialnumber', 'varchar')
    .addColumn('graphiccard', 'varchar')
    .addColumn('displayid', bytes)
    .addColumn('bitness', 'integer')
    .addColumn('totalmemory', 'bigint')
    .addColumn('logicalprocessors', 'integer')
    .addColumn('physicalprocessors', 'integer')
    .addColumn('processormaxfreq', 'bigint')
    .addColumn('battery', flag)
    .addColumn('banned', flag)
    .execute();
  await db.schema.createIndex('hwids_publickey_idx').on('hwids').column('publickey').unique().execute();
  // getbydata looks for rows sharing the disk id or the baseboard serial first, as the sql core does.
  await db.schema.createIndex('hwids_hwdiskid').on('hwids').column('hwdiskid').execute();
  await db.schema.createIndex('hwids_baseboardserialnumber').on('hwids').column('baseboardserialnumber').execute();

  // The sql core writes `INSERT INTO hwidLog (hwidId, newPublicKey) VALUES (?, ?)` when it creates hardware.
  let hwidlog = db.schema.createTable('hwidlog');
  hwidlog = postgres
    ? hwidlog.addColumn('id', 'bigserial', (c) => c.primaryKey())
    : hwidlog.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await hwidlog
    .addColumn('hwidid', 'bigint', (c) => c.notNull())
    .addColumn('newpublickey', bytes, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('hwidlog_hwidid').on('hwidlog').column('hwidid').execute();

  await db.schema
    .createTable('hardware_users')
    .addColumn('hardware_id', 'bigint', (c) => c.notNull().references('hwids.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('connected_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('hardware_users_pk', ['hardware_id', 'user_id'])
    .execute();
  await db.schema.createIndex('hardware_users_user').on('hardware_users').column('user_id').execute();

  // The sql core binds hwid_id as a long (setLong, getLong, WHERE hwidId = ?): bigint, as the wiki declares it. The
  // service never wrote the column; a LaunchServer may have written numbers as text. SQLite keeps what it is given.
  if (postgres) await sql`alter table users alter column hwid_id type bigint using nullif(hwid_id, '')::bigint`.execute(db);
  await db.schema.createIndex('users_hwid_id').on('users').column('hwid_id').execute();
  // verifypassword finds the account by the stored hash the LaunchServer read from this table.
  await db.schema.createIndex('users_password').on('users').column('password').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_password').execute();
  await db.schema.dropIndex('users_hwid_id').execute();
  if (isPostgres(db)) await sql`alter table users alter column hwid_id type text`.execute(db);
  for (const table of ['hardware_users', 'hwidlog', 'hwids', 'launcher_sessions']) await db.schema.dropTable(table).execute();
}
