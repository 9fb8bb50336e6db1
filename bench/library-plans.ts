// The query plans of the library pages that bench/library.ts measures, with 100,000 entries: `node --import tsx
// bench/library-plans.ts` prints EXPLAIN QUERY PLAN (SQLite) and EXPLAIN (PostgreSQL, with TEST_POSTGRES_URL) of every
// statement GET /api/library runs for each page, as the service builds them.
import { systemClock } from '../src/clock.ts';
import { sql, type CompiledQuery, type KyselyPlugin } from 'kysely';
import { migrateToLatest, openDatabase } from '../src/database/connect.ts';
import { LibraryService, type LibraryQuery } from '../src/library/service.ts';
import { createTestDatabase } from '../test/support/databases.ts';
import { LIBRARY_PAGES, seedLibrary } from './library.ts';

/** The query of a page's path, with the route's defaults. */
function queryOf(path: string): LibraryQuery {
  const params = new URL(path, 'http://localhost').searchParams;
  return {
    kind: (params.get('kind') ?? undefined) as LibraryQuery['kind'],
    model: (params.get('model') ?? undefined) as LibraryQuery['model'],
    q: params.get('q') ?? undefined,
    sort: (params.get('sort') ?? 'new') as LibraryQuery['sort'],
    limit: 48,
    offset: Number(params.get('offset') ?? 0),
  };
}

export async function libraryPlans(kind: 'sqlite' | 'postgres', entries = 100_000): Promise<string> {
  const database = await createTestDatabase(kind);
  const db = openDatabase(database.settings);
  try {
    await migrateToLatest(db);
    await seedLibrary(database.settings, entries);
    const statements: CompiledQuery[] = [];
    const recorder: KyselyPlugin = {
      transformQuery: ({ node, queryId }) => {
        statements.push(db.getExecutor().compileQuery(node, queryId));
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    // Only the database and the public address are used by list().
    const library = new LibraryService(db.withPlugin(recorder), undefined as never, undefined as never, systemClock, '', false, () => {});
    const lines: string[] = [];
    for (const [path] of LIBRARY_PAGES) {
      statements.length = 0;
      await library.list(queryOf(path));
      for (const statement of statements) {
        // EXPLAIN takes no bound values: the statement with its values written in, as the planner sees them bound.
        const literal = (value: unknown) => (typeof value === 'number' ? String(value) : `'${String(value).replaceAll("'", "''")}'`);
        let next = 0;
        const text =
          kind === 'sqlite'
            ? statement.sql.replace(/\?/g, () => literal(statement.parameters[next++]))
            : statement.sql.replace(/\$(\d+)/g, (_, index: string) => literal(statement.parameters[Number(index) - 1]));
        lines.push(`[${kind}] ${path}\n  ${text}`);
        if (kind === 'sqlite') {
          const plan = await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${text}`).execute(db);
          lines.push(...plan.rows.map((row) => `    ${row.detail}`));
        } else {
          const plan = await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`).execute(db);
          lines.push(...plan.rows.map((row) => `    ${row['QUERY PLAN']}`));
        }
      }
    }
    return lines.join('\n');
  } finally {
    await db.destroy();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await libraryPlans('sqlite'));
  if (process.env.TEST_POSTGRES_URL) console.log(await libraryPlans('postgres'));
}
