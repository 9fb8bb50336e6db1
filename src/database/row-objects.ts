// Both drivers build a row object column by column: better-sqlite3 creates and internalises every column name
// again for every row and adds the properties one at a time (a CPU profile of GET /api/home on SQLite showed
// building the session row's object taking more time than SQLite's own work), pg copies a template and assigns
// each value. The hot reads take their rows as arrays instead and build each object here from one object
// literal, made once per statement, which V8 creates in one step with its final shape.

/** A function that turns a row of values in `columns` order into an object keyed by those column names. */
export function rowObjects<Row>(columns: readonly string[]): (values: unknown[]) => Row {
  // The names come from SQL the code compiled (Kysely's), never from a request; JSON.stringify quotes them.
  const properties = columns.map((name, index) => `${JSON.stringify(name)}: values[${index}]`).join(', ');
  return new Function('values', `return { ${properties} };`) as (values: unknown[]) => Row;
}
