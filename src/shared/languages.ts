// The languages the service and its pages speak (contract section 14): the one place to extend when adding a
// language (README, "Adding a language"); the catalogues are locales/<tag>/. Shared by the service and the pages
// (web/ bundles this file): it imports nothing, so the page build takes only these constants.

/** Every language with a catalogue, English first: it is the fallback and the language of the fixed texts. */
export const LANGUAGES = ['en', 'ru', 'zh-CN'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/**
 * The tags a browser may send, per language, as RFC 4647 lookup ranges. A range matches a tag when it equals it or
 * is a prefix of it ending at a `-` (Negotiator's matching): `ru` covers `ru-RU`, `zh` covers `zh-Hans`, `zh-TW`.
 * Chinese in any script or region is answered in Simplified Chinese, the one Chinese catalogue.
 */
export const ACCEPTED_TAGS: Record<Language, string[]> = {
  en: ['en'],
  ru: ['ru'],
  'zh-CN': ['zh'],
};

export const isLanguage = (value: unknown): value is Language => (LANGUAGES as readonly unknown[]).includes(value);
