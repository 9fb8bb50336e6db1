// Every catalogue under locales/ (the server's and the pages' namespaces alike) is complete in every language: the
// same keys as English, the same {{placeholders}}, and each plural message with every plural form the language has.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { hasKey, LOCALES_DIR, t } from './i18n.ts';
import { LANGUAGES } from './languages.ts';

const PLURAL_SUFFIXES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
const PLURAL = new RegExp(`_(${PLURAL_SUFFIXES.join('|')})$`);

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [inner, text] of flatten(value, path)) out.set(inner, text);
  }
  return out;
}

/** Messages by key without plural suffix: each with its forms (`''` for a message without plural forms). */
function messages(flat: Map<string, string>): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const [key, text] of flat) {
    const match = PLURAL.exec(key);
    const base = match ? key.slice(0, -match[0].length) : key;
    const forms = out.get(base) ?? new Map<string, string>();
    forms.set(match ? match[1]! : '', text);
    out.set(base, forms);
  }
  return out;
}

const placeholders = (texts: Iterable<string>) =>
  [...new Set([...texts].flatMap((text) => [...text.matchAll(/\{\{\s*([^},\s]+)[^}]*\}\}/g)].map((m) => m[1]!)))].sort();

const load = (language: string, file: string) =>
  messages(flatten(JSON.parse(readFileSync(new URL(`${language}/${file}`, LOCALES_DIR), 'utf8')) as Tree));

const namespaceFiles = [...new Set(LANGUAGES.flatMap((language) => readdirSync(new URL(`${language}/`, LOCALES_DIR))))].sort();

describe('the catalogues under locales/', () => {
  it('has a folder per language and the server namespaces in each', () => {
    for (const language of LANGUAGES) {
      const files = readdirSync(new URL(`${language}/`, LOCALES_DIR));
      assert.ok(files.includes('server.json') && files.includes('mail.json'), `${language}: ${files.join(', ')}`);
    }
  });

  for (const file of namespaceFiles) {
    describe(file, () => {
      const english = load('en', file);
      for (const language of LANGUAGES) {
        it(`${language} has every key of en and no other, with the same placeholders and every plural form`, () => {
          const catalogue = load(language, file);
          const missing = [...english.keys()].filter((key) => !catalogue.has(key));
          assert.deepEqual(missing, [], `${language}/${file} lacks these messages of en/${file}`);
          const extra = [...catalogue.keys()].filter((key) => !english.has(key));
          assert.deepEqual(extra, [], `${language}/${file} has messages that en/${file} does not`);
          const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
          for (const [key, forms] of english) {
            const translated = catalogue.get(key)!;
            assert.deepEqual(
              placeholders(translated.values()),
              placeholders(forms.values()),
              `${language}/${file}: placeholders of ${key}`,
            );
            for (const text of translated.values()) assert.notEqual(text.trim(), '', `${language}/${file}: ${key} is empty`);
            const plural = !forms.has('');
            assert.equal(!translated.has(''), plural, `${language}/${file}: ${key} is plural in one language only`);
            if (plural) {
              const needed = [...categories].filter((category) => category !== 'zero' || forms.has('zero')).sort();
              assert.deepEqual([...translated.keys()].sort(), needed, `${language}/${file}: plural forms of ${key}`);
            }
          }
        });
      }
    });
  }
});

describe('message keys used by the server', () => {
  it('exist in the English catalogue (a key is a dotted name; fixed texts are sentences)', () => {
    const sources = (dir: URL): URL[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? sources(new URL(`${entry.name}/`, dir))
          : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')
            ? [new URL(entry.name, dir)]
            : [],
      );
    const call =
      /\b(?:badRequest|unauthorized|forbidden|notFound|conflict|totpRequired|tooManyRequests|message|t\([^,]+,)\s*\(?\s*'([a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9_]+)+)'/g;
    // Constants naming a key, and the tables of keys (standing problems, invitation refusals); not audit actions.
    const constant = /(?:const [A-Z_]+ = |message: |^\s+(?!action)[a-z][A-Za-z]*: )'([a-z][A-Za-z0-9]*\.[A-Za-z0-9_.]+)'/gm;
    const unknown: string[] = [];
    for (const file of sources(new URL('../', import.meta.url))) {
      const text = readFileSync(file, 'utf8');
      for (const match of [...text.matchAll(call), ...text.matchAll(constant)]) {
        const key = match[1]!;
        if (/\.(ts|json|png|js|md|html|css|\.\.)$/.test(key) || key.startsWith('auth.')) continue;
        if (!hasKey(key) && !hasKey(`${key}_other`) && !hasKey(`${key}_skin`)) unknown.push(`${file.pathname.split('/src/')[1]}: ${key}`);
      }
    }
    assert.deepEqual(unknown, []);
  });

  it('turn into sentences in each language, with plurals and values', () => {
    assert.equal(t('en', 'admin.broadcastQueued', { count: 1 }), 'The mail is being sent to the 1 user with a verified mail address');
    assert.match(t('ru', 'admin.broadcastQueued', { count: 3 }), /3 пользователям/);
    assert.match(t('ru', 'admin.broadcastQueued', { count: 5 }), /5 пользователям/);
    assert.match(t('ru', 'admin.broadcastQueued', { count: 21 }), /21 пользователю/);
    assert.match(t('zh-CN', 'admin.broadcastQueued', { count: 5 }), /5/);
    assert.equal(t('ru', 'textures.tooManySkins', { count: 100 }), 'У вас уже 100 скинов: сначала удалите один из них');
  });
});
