// The layers of src/ (developers' guide: no folder imports from one above it, and no file cycles). A folder, or a file
// directly in src/, may import from itself and from what comes before it in LAYERS, never from what comes after: the
// generic helpers know nothing of capabilities, a capability nothing of the ones built on it, and only the composition
// root (src/app.ts) and the entry point (src/main.ts) see everything. Within a folder the files import one another
// without a cycle, so that each file can be read after the ones it uses. Test files are left out: a test drives its
// folder through the whole service (test/support/service.ts starts src/app.ts), so it sits above every layer.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { SESSION_TABLES } from '../src/sessions/kinds.ts';

const src = join(import.meta.dirname, '..', 'src');

/** The folders and top-level files of src/, lowest first. A new one goes after everything it imports. */
const LAYERS = [
  'shared',
  // Generic helpers: no capability of this service in them.
  'clock.ts',
  'crypto',
  'i18n',
  'http',
  'minecraft',
  'settings.ts',
  'database',
  'caching',
  'background-loop.ts',
  // What the capabilities share: the audit log, rate limits, sessions, signing keys, joins, skin images.
  'audit',
  'ratelimit',
  'sessions',
  'signing',
  'joins',
  'skin',
  'rendering',
  'mail',
  // The capabilities, each after the ones it builds on.
  'accounts',
  'two-factor',
  'app-passwords',
  'registration',
  'external-login',
  'discord',
  'oidc',
  'passkeys',
  'textures',
  'images',
  'profiles',
  'import',
  'admin',
  'gravit',
  'yggdrasil',
  'standing',
  'library',
  'fallback',
  'dropin',
  'mojang',
  'friends',
  'oauth',
  'pages',
  'openapi',
  'dashboard',
  'health',
  'housekeeping',
  'metrics',
  // The composition root and the process around it.
  'app.ts',
  'start-line.ts',
  'main.ts',
];

/** The entry of LAYERS a path under src/ belongs to: its first folder, or the file itself when it is directly in src/. */
const layerOf = (path: string) => relative(src, path).split('/')[0]!;

/** The production files of src/ (relative paths), each with the files of src/ it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of productionFiles()) {
    const path = join(src, file);
    const imported: string[] = [];
    // TypeScript's own scanner: import and export declarations, `import type`, import(); not comments or strings.
    for (const { fileName: specifier } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!specifier.startsWith('.')) continue; // a package or node: module
      const target = resolve(dirname(path), specifier);
      if (target.startsWith(src + '/')) imported.push(relative(src, target));
    }
    graph.set(file, imported);
  }
  return graph;
}

/** Kysely's methods whose first argument names a table. */
const TABLE_METHODS = new Set([
  'selectFrom',
  'updateTable',
  'deleteFrom',
  'insertInto',
  'replaceInto',
  'mergeInto',
  'innerJoin',
  'leftJoin',
  'rightJoin',
  'fullJoin',
  'innerJoinLateral',
  'leftJoinLateral',
  'using',
]);

/**
 * Where a production file outside src/sessions/ names one of `tables` in a query, as `src/file:line 'text'`: the
 * table given to one of Kysely's TABLE_METHODS, a column qualified by it ('sessions.user_id'), or raw SQL (`sql`)
 * reading or writing it. The migrations are left out: they make the tables.
 */
function tablesNamedOutsideSessions(tables: readonly string[], files = productionFiles()): string[] {
  const names = tables.join('|');
  const qualified = new RegExp(`^(${names})\\.`);
  const inSql = new RegExp(`\\b(from|join|update|into|table)\\s+"?(${names})\\b`, 'i');
  const found: string[] = [];
  for (const [file, text] of files) {
    if (file.startsWith('sessions/') || file.startsWith('database/migrations/')) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node)) {
        const call = node.parent;
        const tableArgument =
          ts.isCallExpression(call) &&
          call.arguments[0] === node &&
          ts.isPropertyAccessExpression(call.expression) &&
          TABLE_METHODS.has(call.expression.name.text) &&
          tables.includes(node.text.split(/\s+as\s+/)[0]!);
        if (tableArgument || qualified.test(node.text) || (!ts.isStringLiteral(node) && inSql.test(node.text))) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart());
          found.push(`src/${file}:${line + 1} '${node.text}'`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** The production files of src/ (relative paths) with their text. */
function productionFiles(): Map<string, string> {
  return new Map(
    readdirSync(src, { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => [file, readFileSync(join(src, file), 'utf8')]),
  );
}

/** Every import between layers that goes upwards, as `file imports specifier (layer, above its own layer)`. */
function importsUpwards(graph: Map<string, string[]>): string[] {
  const rank = new Map(LAYERS.map((layer, index) => [layer, index]));
  const found: string[] = [];
  for (const [file, imported] of graph) {
    const own = layerOf(join(src, file));
    for (const target of imported) {
      const theirs = layerOf(join(src, target));
      if (rank.get(theirs)! > rank.get(own)!) found.push(`src/${file} imports src/${target} (${theirs}, above ${own})`);
    }
  }
  return found;
}

/**
 * The import cycles among the files, one per group of files that reach one another (Tarjan's strongly connected
 * components), each shown as a path `a -> b -> … -> a` through the group.
 */
function importCycles(graph: Map<string, string[]>): string[] {
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    lowest.set(file, order.get(file)!);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!order.has(next)) {
        visit(next);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(next)!));
      } else if (stack.includes(next)) lowest.set(file, Math.min(lowest.get(file)!, order.get(next)!));
    }
    if (lowest.get(file) !== order.get(file)) return;
    const group = stack.splice(stack.indexOf(file));
    if (group.length > 1 || graph.get(file)!.includes(file)) groups.push(group);
  };
  for (const file of [...graph.keys()].sort()) if (!order.has(file)) visit(file);
  return groups.map((group) => {
    // A shortest way back to the group's first file (by name), found breadth first within the group.
    const [start] = [...group].sort();
    const cameFrom = new Map<string, string>();
    const queue = [start!];
    while (queue.length > 0) {
      const file = queue.shift()!;
      const next = graph.get(file)!.filter((target) => group.includes(target));
      if (next.includes(start!)) {
        const path = [file];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, start!].map((step) => `src/${step}`).join(' -> ');
      }
      for (const target of next) if (!cameFrom.has(target) && target !== start) (cameFrom.set(target, file), queue.push(target));
    }
    return group.join(', ');
  });
}

describe('the layers of src/', () => {
  it('name every folder and top-level file of src/ once', () => {
    const entries = readdirSync(src, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')))
      .map((entry) => entry.name);
    assert.deepEqual([...LAYERS].sort(), entries.sort());
  });

  it('hold: no file imports from a layer above its own', () => {
    assert.deepEqual(importsUpwards(importGraph()), []);
  });

  it('hold: no files import one another in a cycle', () => {
    assert.deepEqual(importCycles(importGraph()), []);
  });

  it('would name a planted cycle', () => {
    const planted = new Map(importGraph());
    planted.set('import/run.ts', [...planted.get('import/run.ts')!, 'import/writer.ts']);
    planted.set('import/writer.ts', [...planted.get('import/writer.ts')!, 'import/run.ts']);
    assert.deepEqual(importCycles(planted), ['src/import/run.ts -> src/import/writer.ts -> src/import/run.ts']);
  });
});

describe("the sessions' home", () => {
  const tables = SESSION_TABLES.map(({ table }) => table);

  it('holds: no file outside src/sessions/ names a table of sessions or tokens in a query', () => {
    assert.deepEqual(tablesNamedOutsideSessions(tables), []);
  });

  it('would name a planted query', () => {
    const planted = new Map([
      ['accounts/planted.ts', "db.selectFrom('game_tokens as t').select('t.id');\ndb.updateTable('users').where('sessions.id', '=', 1);"],
      ['oauth/planted.ts', "sql`delete from oauth_models where id = ${id}`;\nconst copy = { name: 'oauth_grants' };"],
      ['sessions/planted.ts', "db.deleteFrom('launcher_sessions');"],
    ]);
    assert.deepEqual(tablesNamedOutsideSessions(tables, planted), [
      "src/accounts/planted.ts:1 'game_tokens as t'",
      "src/accounts/planted.ts:2 'sessions.id'",
      "src/oauth/planted.ts:1 'delete from oauth_models where id = '",
    ]);
  });
});
