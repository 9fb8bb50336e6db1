// The layers of src/ (developers' guide: no folder imports from one above it). A folder, or a file directly in src/,
// may import from itself and from what comes before it in LAYERS, never from what comes after: the generic helpers
// know nothing of capabilities, a capability nothing of the ones built on it, and only the composition root
// (src/app.ts) and the entry point (src/main.ts) see everything. Test files are left out: a test drives its folder
// through the whole service (test/support/service.ts starts src/app.ts), so it sits above every layer.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

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
  'discord',
  'passkeys',
  'textures',
  'images',
  'profiles',
  'import',
  'admin',
  'gravit',
  'yggdrasil',
  'dropin',
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

/** Every import between layers that goes upwards, as `file imports specifier (layer, above its own layer)`. */
function importsUpwards(): string[] {
  const rank = new Map(LAYERS.map((layer, index) => [layer, index]));
  const found: string[] = [];
  const files = readdirSync(src, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
  for (const file of files) {
    const path = join(src, file);
    const own = layerOf(path);
    // TypeScript's own scanner: import and export declarations, `import type`, import(); not comments or strings.
    for (const { fileName: specifier } of ts.preProcessFile(readFileSync(path, 'utf8'), true, true).importedFiles) {
      if (!specifier.startsWith('.')) continue; // a package or node: module
      const target = resolve(dirname(path), specifier);
      if (!target.startsWith(src + '/')) continue;
      const theirs = layerOf(target);
      if (rank.get(theirs)! > rank.get(own)!) found.push(`src/${file} imports ${specifier} (${theirs}, above ${own})`);
    }
  }
  return found;
}

describe('the layers of src/', () => {
  it('name every folder and top-level file of src/ once', () => {
    const entries = readdirSync(src, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')))
      .map((entry) => entry.name);
    assert.deepEqual([...LAYERS].sort(), entries.sort());
  });

  it('hold: no file imports from a layer above its own', () => {
    assert.deepEqual(importsUpwards(), []);
  });
});
