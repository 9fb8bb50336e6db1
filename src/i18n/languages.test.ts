// Which language a request's Accept-Language picks (contract section 14): RFC 4647 lookup with q-values.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { negotiateLanguage } from './languages.ts';

describe('negotiateLanguage', () => {
  const cases: [string | undefined, string][] = [
    // The contract's examples.
    ['ru-RU', 'ru'],
    ['zh', 'zh-CN'],
    ['zh-Hans', 'zh-CN'],
    ['zh-TW', 'zh-CN'],
    ['zh-CN', 'zh-CN'],
    ['de', 'en'],
    [undefined, 'en'],
    ['', 'en'],
    // Letter case does not matter.
    ['RU', 'ru'],
    ['zh-hans-cn', 'zh-CN'],
    // q-values: the highest wins, whatever the order; equal ones keep the header's order.
    ['en;q=0.5, ru;q=0.8', 'ru'],
    ['ru;q=0.8, zh-CN', 'zh-CN'],
    ['de, fr;q=0.9, ru;q=0.3', 'ru'],
    ['ru, en', 'ru'],
    ['en, ru', 'en'],
    ['en-GB, ru;q=0.9', 'en'],
    // q=0 refuses a language; only unsupported ones left means English.
    ['ru;q=0, zh-TW;q=0.5', 'zh-CN'],
    ['ru;q=0, de', 'en'],
    // The wildcard stands for anything: English, the first language.
    ['*', 'en'],
    ['de, *;q=0.1, ru;q=0.2', 'ru'],
    // Garbage is unmatched.
    [';;;, q=', 'en'],
  ];
  for (const [header, expected] of cases) {
    it(`${JSON.stringify(header)} → ${expected}`, () => assert.equal(negotiateLanguage(header), expected));
  }
});
