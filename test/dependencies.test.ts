// `npm install --omit=dev` then `npm start` (README, Production install): what the service, the operator CLI and the
// page build (`prepare`) import must be a dependency, not a devDependency, or a production install would fail.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = join(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The source files a production install runs or builds: not tests, not their support, not benchmarks. */
const productionSources = [
  ...['src', 'web/src'].flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true })
      .map((file) => join(folder, String(file)))
      .filter((file) => /\.(ts|tsx|js)$/.test(file) && !/\.test\.ts$/.test(file)),
  ),
  'web/vite.config.ts',
];

/** The package a bare import names: `@scope/name` or `name`, without a path inside it. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

describe('a production install', () => {
  it('has every package the service, the CLI and the page build import among the dependencies', () => {
    const missing: string[] = [];
    const found = new Set<string>();
    for (const file of productionSources) {
      const source = readFileSync(join(root, file), 'utf8');
      // `import type` is erased before the code runs; every other import, require() or resolve() needs the package.
      // The `from` of an import follows a space or a brace, never a quote: `flag: 'from'` in a string is no import.
      for (const match of source.matchAll(/^(?!import type )[^\n]*?(?:[\s}]from|\bimport\(|\brequire\(|\.resolve\()\s*'([^'./][^']*)'/gm)) {
        const name = packageOf(match[1]!);
        if (name.startsWith('node:') || builtinModules.includes(name)) continue;
        found.add(name);
        if (!(name in manifest.dependencies)) missing.push(`${name} (${file})`);
      }
    }
    // The scan sees each way of naming a package: an import, a resolve() of a file inside one, the page build's.
    for (const name of ['fastify', '@zxcvbn-ts/language-common', 'preact', 'vite']) assert.ok(found.has(name), `${name} not found`);
    assert.deepEqual(missing, [], 'imported by production code, not in dependencies');
  });

  it('has the programs of npm start, npm run cli and the install-time page build among the dependencies', () => {
    for (const [script, program] of [
      ['start', 'tsx'],
      ['cli', 'tsx'],
      ['build:web', 'vite'],
    ] as const) {
      assert.match(manifest.scripts[script]!, new RegExp(`\\b${program}\\b`));
      assert.ok(program in manifest.dependencies, `${program} (npm run ${script}) is not a dependency`);
    }
    assert.equal(manifest.scripts.prepare, 'npm run build:web');
  });

  it("removes from the container image exactly the dependencies only the page build imports (the Dockerfile's list)", () => {
    const importsOf = (files: string[]) => {
      const names = new Set<string>();
      for (const file of files) {
        const source = readFileSync(join(root, file), 'utf8');
        for (const match of source.matchAll(/^(?!import type )[^\n]*?(?:\bfrom|\bimport\(|\brequire\(|\.resolve\()\s*'([^'./][^']*)'/gm)) {
          names.add(packageOf(match[1]!));
        }
      }
      return names;
    };
    const service = importsOf(productionSources.filter((file) => file.startsWith('src/')));
    const pages = importsOf(productionSources.filter((file) => !file.startsWith('src/')));
    const pagesOnly = [...pages].filter((name) => name in manifest.dependencies && !service.has(name)).sort();
    const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
    const removed = /npm uninstall [^\n]*?--no-fund ([^\n\\]+)/.exec(dockerfile)?.[1]?.trim().split(/\s+/).sort();
    assert.deepEqual(removed, pagesOnly);
    assert.ok(!removed.includes('tsx'), 'the image runs the service through tsx');
  });

  it('leaves the 433 MB of minecraft-data (through minecraft-protocol, a test tool) out', () => {
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    assert.equal(lock.packages['node_modules/minecraft-data']?.dev, true);
    assert.ok('minecraft-protocol' in manifest.devDependencies);
  });
});
