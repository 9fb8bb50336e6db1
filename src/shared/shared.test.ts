// The pages (web/src) bundle only this folder of the service's code, and its files import nothing: the page build
// never pulls in server code (Node modules, the database, i18next's server setup). Type imports are erased before the
// build and may name any file.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

const root = join(import.meta.dirname, '../..');
const sourcesUnder = (folder: string) =>
  readdirSync(join(root, folder), { recursive: true })
    .map((file) => join(root, folder, String(file)))
    .filter((file) => /\.(ts|tsx)$/.test(file) && !file.endsWith('.test.ts'));

/** The relative paths a file's value imports (static and dynamic) name; `import type` is left out. */
const valueImports = (source: string) =>
  [...source.matchAll(/^(?!import type )[^\n]*?(?:\bfrom|\bimport\(?)\s*'(\.[^']*)'/gm)].map((match) => match[1]!);

describe('the code the pages share with the service', () => {
  it('is all the pages import from outside web/, besides the catalogues', () => {
    const reached = sourcesUnder('web/src').flatMap((file) =>
      valueImports(readFileSync(file, 'utf8')).map((specifier) => relative(root, resolve(dirname(file), specifier))),
    );
    const outside = reached.filter((path) => !path.startsWith('web/') && !path.startsWith('locales/'));
    assert.ok(outside.length > 0, 'no import of the shared code found');
    assert.deepEqual(
      outside.filter((path) => !path.startsWith('src/shared/')),
      [],
    );
  });

  it('imports nothing', () => {
    for (const file of sourcesUnder('src/shared')) assert.doesNotMatch(readFileSync(file, 'utf8'), /^import /m, relative(root, file));
  });
});
