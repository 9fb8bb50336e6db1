// What differs between SQLite and PostgreSQL lives here, and nowhere else.
import { type Kysely, PostgresAdapter } from 'kysely';

export function isPostgres(db: Kysely<unknown> | Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** A table whose first column is an auto-incremented integer primary key named `id`. */
export function createTableWithId(db: Kysely<unknown>, table: string) {
  const builder = db.schema.createTable(table);
  return isPostgres(db)
    ? builder.addColumn('id', 'serial', (c) => c.primaryKey())
    : builder.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** A unique index or constraint refused the write (both drivers). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** The column type for raw bytes. */
export const bytesType = (db: Kysely<unknown>) => (isPostgres(db) ? 'bytea' : 'blob');
