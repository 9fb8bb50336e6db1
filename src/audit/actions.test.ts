// The one list of audit actions (src/shared/audit-actions.ts) against the code and the catalogues: a new action is a
// type error in recordAudit until it is listed, and this file fails until it has its words in every language, so the
// console never shows a raw key (issue 38, item 2).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LOCALES_DIR } from '../i18n/i18n.ts';
import { LANGUAGES } from '../i18n/languages.ts';
import { AUDIT_ACTION_GROUPS, AUDIT_ACTIONS, auditActionKey } from '../shared/audit-actions.ts';

type Catalogue = Record<string, Record<string, string>>;
const consoleWords = (language: string) => JSON.parse(readFileSync(new URL(`${language}/admin.json`, LOCALES_DIR), 'utf8')) as Catalogue;

describe('the audit actions', () => {
  it('are listed once each', () => {
    assert.deepEqual(
      AUDIT_ACTIONS.filter((action, index) => AUDIT_ACTIONS.indexOf(action) !== index),
      [],
    );
  });

  for (const language of LANGUAGES) {
    it(`each have a name for the filter and words for the dashboard in ${language}, and so does each group`, () => {
      const words = consoleWords(language);
      for (const section of ['actions', 'activity'] as const) {
        const missing = AUDIT_ACTIONS.filter((action) => !words[section]?.[auditActionKey(action)]?.trim());
        assert.deepEqual(missing, [], `${language}/admin.json lacks ${section}.* for these actions`);
        // Words for an action that is no longer recorded are words nobody reads.
        const listed = new Set(AUDIT_ACTIONS.map(auditActionKey));
        assert.deepEqual(
          Object.keys(words[section]!).filter((key) => !listed.has(key)),
          [],
          `${language}/admin.json: ${section}.* of actions not in the list`,
        );
      }
      const groups = Object.keys(AUDIT_ACTION_GROUPS).filter((group) => !words.groups?.[group]?.trim());
      assert.deepEqual(groups, [], `${language}/admin.json lacks groups.* for these groups`);
    });
  }

  it('are each recorded somewhere in the service (the list holds no action nobody records)', () => {
    const src = join(import.meta.dirname, '..');
    const sources = readdirSync(src, { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('audit-actions.ts'))
      .map((file) => readFileSync(join(src, file), 'utf8'))
      .join('\n');
    assert.deepEqual(
      AUDIT_ACTIONS.filter((action) => !sources.includes(`'${action}'`)),
      [],
    );
  });
});
