// How a request's Accept-Language picks one of the languages the service speaks (contract section 14); the list
// itself is shared with the pages (src/shared/languages.ts), and is exported here too for the service's modules.
import Negotiator from 'negotiator';
import { ACCEPTED_TAGS, DEFAULT_LANGUAGE, type Language } from '../shared/languages.ts';

export { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from '../shared/languages.ts';

const CANDIDATES = Object.values(ACCEPTED_TAGS).flat();
const LANGUAGE_OF_TAG = new Map<string, Language>(
  Object.entries(ACCEPTED_TAGS).flatMap(([language, tags]) => tags.map((tag) => [tag, language as Language])),
);

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
