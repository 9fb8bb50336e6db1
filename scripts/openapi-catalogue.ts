// Writes locales/en/openapi.json, the English texts of the OpenAPI document, from the route definitions:
// `npm run openapi:catalogue`. The English words have one home: a route's own schema (summary, description, the
// descriptions of its fields) and, for what every route shares (tags, access sentences, the meanings of the answers),
// src/openapi/openapi.ts. Nobody edits the English file by hand; after changing a route, or after a merge that
// touched the file, run this script, then translate what is new in locales/ru and locales/zh-CN (the test
// src/openapi/openapi.test.ts names every key they lack). `npm run openapi:catalogue -- --check` writes nothing and
// exits 1 when the file is not what the routes say.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.ts';
import { ENGLISH_CATALOGUE_FILE, englishCatalogueText, openApiEnglishCatalogue } from '../src/openapi/openapi.ts';
import { parseSettings } from '../src/settings.ts';

const check = process.argv.includes('--check');
const dataDir = mkdtempSync(join(tmpdir(), 'skinservice-openapi-'));
// The service with every optional API on (the GravitLauncher API needs GRAVIT_TOKEN, the friends routes FRIENDS, the
// premium link MOJANG_FALLBACK; as src/openapi/openapi.test.ts starts it), on a database of its own that is thrown
// away: only the routes are read, and Mojang's address is one where nothing listens.
const settings = parseSettings({
  DATA_DIR: dataDir,
  DATABASE_URL: `sqlite:${join(dataDir, 'catalogue.sqlite')}`,
  JWT_SECRET: 'openapi-catalogue-secret-of-32-bytes-at-least',
  TOTP_KEY: 'openapi-catalogue-totp-key-of-32-bytes-at-least',
  GRAVIT_TOKEN: 'openapi-catalogue-launchserver-token',
  FRIENDS: 'true',
  MOJANG_FALLBACK: 'skins',
  MOJANG_SESSION_URL: 'http://127.0.0.1:9',
  MOJANG_API_URL: 'http://127.0.0.1:9',
  MOJANG_TEXTURES_HOST: '127.0.0.1',
  PREMIUM_IMPORT: 'true',
  LOG_LEVEL: 'silent',
});
const app = await buildApp(settings, { logger: false });
try {
  await app.ready();
  const text = englishCatalogueText(openApiEnglishCatalogue(app));
  const before = (() => {
    try {
      return readFileSync(ENGLISH_CATALOGUE_FILE, 'utf8');
    } catch {
      return '';
    }
  })();
  const operations = Object.keys(openApiEnglishCatalogue(app).operations).length;
  if (before === text) console.log(`locales/en/openapi.json is up to date (${operations} operations)`);
  else if (check) {
    console.error('locales/en/openapi.json is not what the routes say: run `npm run openapi:catalogue`');
    process.exitCode = 1;
  } else {
    writeFileSync(ENGLISH_CATALOGUE_FILE, text);
    console.log(`wrote locales/en/openapi.json (${operations} operations)`);
  }
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
