// What differs between SQLite and PostgreSQL lives here, and nowhere else.
import { type AliasedExpression, type Kysely, PostgresAdapter, type RawBuilder, sql } from 'kysely';

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

/**
 * The database refused a write for what it was given (not for a broken connection or server): a unique, foreign
 * key, not-null or check constraint, a value it cannot store (PostgreSQL's class 22: a NUL byte in text, a number
 * out of range), or a value too large for it (an index entry past its size limit; SQLite's SQLITE_TOOBIG).
 */
export function isRowRefusal(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return (
    /^2[23]/.test(code) ||
    code === '54000' ||
    code.startsWith('SQLITE_CONSTRAINT') ||
    code === 'SQLITE_TOOBIG' ||
    code === 'SQLITE_MISMATCH'
  );
}

/** The column type for raw bytes. */
export const bytesType = (db: Kysely<unknown>) => (isPostgres(db) ? 'bytea' : 'blob');

/**
 * A list in one column: the rows of `rows` as a JSON array of arrays, one value per column in `columns` order, `[]`
 * when there are none. With it one statement answers a row and a list that belongs to it (one read, one round trip)
 * where two queries would otherwise run. Read the column back with jsonRows. The order of the list is not defined.
 * Values go through JSON: fit for integers and text, not for bytes, timestamps or integers past 2^53.
 */
export function jsonRowsColumn(db: Kysely<any>, rows: AliasedExpression<unknown, string>, columns: readonly string[]): RawBuilder<unknown> {
  const values = sql.join(columns.map((column) => sql.ref(`${rows.alias}.${column}`)));
  return isPostgres(db)
    ? sql`(select coalesce(json_agg(json_build_array(${values})), '[]'::json) from ${rows})`
    : sql`(select json_group_array(json_array(${values})) from ${rows})`;
}

/** The lists of jsonRowsColumn: SQLite answers the JSON as text, PostgreSQL's driver has parsed it already. */
export const jsonRows = (value: unknown): unknown[][] => (typeof value === 'string' ? JSON.parse(value) : value) as unknown[][];
