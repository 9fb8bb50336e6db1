// The languages the service speaks (contract section 14) and how a request's Accept-Language picks one. This list is
// the one place to extend when adding a language (README, "Adding a language"); the catalogues are locales/<tag>/.
import Negotiator from 'negotiator';

/** Every language with a catalogue, English first: it is the fallback and the language of the fixed texts. */
export const LANGUAGES = ['en', 'ru', 'zh-CN'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/**
 * The tags a browser may send, per language, as RFC 4647 lookup ranges. A range matches a tag when it equals it or
 * is a prefix of it ending at a `-` (Negotiator's matching): `ru` covers `ru-RU`, `zh` covers `zh-Hans`, `zh-TW`.
 * Chinese in any script or region is answered in Simplified Chinese, the one Chinese catalogue.
 */
const ACCEPTED_TAGS: Record<Language, string[]> = {
  en: ['en'],
  ru: ['ru'],
  'zh-CN': ['zh'],
};

const CANDIDATES = Object.values(ACCEPTED_TAGS).flat();
const LANGUAGE_OF_TAG = new Map<string, Language>(
  Object.entries(ACCEPTED_TAGS).flatMap(([language, tags]) => tags.map((tag) => [tag, language as Language])),
);

export const isLanguage = (value: unknown): value is Language => (LANGUAGES as readonly unknown[]).includes(value);

/**
 * The language of an Accept-Language header: the supported one the client ranks highest by q-value (q=0 refuses a
 * language; among equal q-values the header's order decides), English when none matches or there is no header.
 */
export function negotiateLanguage(acceptLanguage: string | string[] | undefined): Language {
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage;
  if (!header) return DEFAULT_LANGUAGE;
  // Negotiator matches the header's ranges against our tags by prefix: `zh-TW` in the header matches the tag `zh`
  // (the header's range is more specific than our tag), and `*` matches the first candidate, English.
  const best = new Negotiator({ headers: { 'accept-language': header } }).language(CANDIDATES);
  return (best === undefined ? undefined : LANGUAGE_OF_TAG.get(best)) ?? DEFAULT_LANGUAGE;
}
