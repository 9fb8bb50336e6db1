// The server's i18next instance over the catalogues in locales/<language>/<namespace>.json, and t(), the one way the
// server turns a message key into a sentence. Plurals follow i18next's suffixes (`_one`, `_few`, `_many`, `_other`,
// chosen by Intl.PluralRules per language); `{{name}}` interpolates; `{{when, datetime}}` formats a date with Intl.
import { readFileSync } from 'node:fs';
import i18next, { type Resource } from 'i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './languages.ts';

/** The catalogue folders: one per language, one JSON file per namespace (the pages add web.json and admin.json). */
export const LOCALES_DIR = new URL('../../locales/', import.meta.url);
/** The server's namespaces: `server` for the API's msg texts, `mail` for the mails. */
export const SERVER_NAMESPACES = ['server', 'mail'] as const;
export type Namespace = (typeof SERVER_NAMESPACES)[number];

/** A message not yet put into words: its key (in the `server` namespace unless prefixed `mail:`) and its values. */
export interface Message {
  key: string;
  params?: Params;
}

/**
 * A message's values. A value may be a message itself, put into words in the same language first (a validation
 * sentence names its field with one), or a list of messages, one sentence each, joined with `; `, or a list of
 * words for i18next's `list` formatter (`{{allowed, list(type: disjunction)}}`: "GET or POST").
 */
export type Params = Record<string, string | number | Date | Message | Message[] | string[]>;

function loadResources(): Resource {
  const resources: Resource = {};
  for (const language of LANGUAGES) {
    resources[language] = {};
    for (const namespace of SERVER_NAMESPACES) {
      resources[language][namespace] = JSON.parse(readFileSync(new URL(`${language}/${namespace}.json`, LOCALES_DIR), 'utf8'));
    }
  }
  return resources;
}

const instance = i18next.createInstance();
void instance.init({
  resources: loadResources(),
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  // zh-CN is a language of its own here, not zh with a region: keep the tag as is.
  load: 'currentOnly',
  ns: [...SERVER_NAMESPACES],
  defaultNS: 'server',
  // Texts go into JSON and plain-text mails; the HTML of a mail escapes what it puts in (mail/templates.ts).
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

/** The sentence of `key` in `language`, English where the language lacks it, the key itself where English does too. */
export function t(language: Language, key: string, params: Params = {}): string {
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) {
    if (Array.isArray(value)) {
      values[name] = value.every((item) => typeof item === 'string')
        ? value
        : value.map((item) => render(language, item as Message)).join('; ');
    } else if (typeof value === 'object' && !(value instanceof Date)) values[name] = render(language, value);
    else values[name] = value;
  }
  return instance.t(key, { ...values, lng: language }) as string;
}

/** Whether `key` exists in the English catalogue (keys are checked in tests; fixed texts are not keys). */
export const hasKey = (key: string) => instance.exists(key, { lng: DEFAULT_LANGUAGE });

/**
 * Sentences without values, by language and key: the catalogues do not change while the process runs, and
 * i18next's lookup is a measurable part of a small answer's cost (every success envelope says "OK").
 */
const plainSentences = new Map<Language, Map<string, string>>(LANGUAGES.map((language) => [language, new Map()]));

export function render(language: Language, message: Message): string {
  if (message.params !== undefined) return t(language, message.key, message.params);
  const sentences = plainSentences.get(language)!;
  let sentence = sentences.get(message.key);
  if (sentence === undefined) {
    sentence = t(language, message.key);
    sentences.set(message.key, sentence);
  }
  return sentence;
}
