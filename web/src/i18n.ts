// The pages' languages (issue 18, contract section 14). What pages use:
//
//   t(key, params?)      the message `key` of locales/<language>/<namespace>.json in the page's language, with
//                        {{placeholders}} filled from `params`; `count` picks the plural form (_one/_few/_many/_other).
//                        Keys are "namespace:path.to.message" or, for web.json, just "path.to.message".
//   useT()               t, for a component: re-renders it when the language changes. Call it in every component
//                        whose texts come from t (App calls it too, so pages re-render on a change anyway).
//   useLanguage()        the page's language; re-renders on change.
//   setLanguage(lang)    switches the pages (loads the catalogue first), sets <html lang>, remembers the choice in
//                        localStorage and, when logged in, on the account (PATCH /api/home {language}).
//   adoptAccountLanguage(lang)  the account's stored language (GET /api/home `Language`): the pages follow it.
//   LanguagePicker       the labelled picker; every page has it in its header (Page in components.tsx).
//   formatDate(value, options?) / formatNumber(value)  Intl in the page's language; dateTime(seconds) a moment's
//                        date and time; formatSize(bytes) a byte count in kB, MB….
//   Rich                 a message with embedded elements: "Forgot it? <reset>Reset the password</reset>" as
//                        <Rich text={t('…')} parts={{ reset: (text) => <Link href="/reset">{text}</Link> }} />,
//                        so code never joins translated fragments.
//   loadNamespace(ns)    adds a namespace (the admin console's "admin") in every loaded language; await it before use.
//
// Every language goes through i18next (plurals by Intl.PluralRules, {{values}}, key paths), as on the server. English
// web.json is bundled with the login page; the Russian and Chinese catalogues load on demand, as chunks of their own,
// when the page is in one of those languages (what each costs: docs/performance.md). home.json holds what only the
// pages behind the login say; they load it with their code, and t finds its keys without a prefix.
import { Fragment, h, type ComponentChildren, type JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { createInstance } from 'i18next';
import englishWeb from '../../locales/en/web.json';
import { ACCEPTED_TAGS, isLanguage, LANGUAGES, type Language } from '../../src/shared/languages.ts';

export { LANGUAGES, type Language };
/** Each language's name in itself, as the picker shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', ru: 'Русский', 'zh-CN': '中文' };

const STORAGE_KEY = 'skinservice.language';

/** The language of a browser language tag, by the server's ranges (ACCEPTED_TAGS): ru-* → ru, zh* → zh-CN, en-* → en. */
function fromTag(tag: string): Language | null {
  const lower = tag.toLowerCase();
  return LANGUAGES.find((language) => ACCEPTED_TAGS[language].some((range) => lower === range || lower.startsWith(`${range}-`))) ?? null;
}

function storedChoice(): Language | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return isLanguage(value) ? value : null;
  } catch {
    return null;
  }
}

function browserLanguage(): Language {
  const tags = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of tags) {
    const found = tag && fromTag(tag);
    if (found) return found;
  }
  return 'en';
}

type Tree = { [key: string]: string | Tree };

/** Loaders of the catalogues besides English web.json: each its own chunk. */
const CATALOGUES: Record<string, () => Promise<{ default: Tree }>> = {
  'ru/web': () => import('../../locales/ru/web.json'),
  'zh-CN/web': () => import('../../locales/zh-CN/web.json'),
  // What only a logged-in player's pages say (the profile, the console's parts of it): not on the login page.
  'en/home': () => import('../../locales/en/home.json'),
  'ru/home': () => import('../../locales/ru/home.json'),
  'zh-CN/home': () => import('../../locales/zh-CN/home.json'),
};

/** Registers another namespace's loaders (one per language), e.g. the admin console's. */
export function registerNamespace(namespace: string, loaders: Record<Language, () => Promise<{ default: Tree }>>) {
  for (const language of LANGUAGES) CATALOGUES[`${language}/${namespace}`] = loaders[language];
}

const namespaces = new Set(['web']);
let current: Language = 'en';
const listeners = new Set<() => void>();

const engine = createInstance();
// English is there from the start, so the first render needs no wait; initAsync: false makes init finish at once.
void engine.init({
  resources: { en: { web: englishWeb as Tree } },
  lng: 'en',
  fallbackLng: 'en',
  ns: ['web'],
  defaultNS: 'web',
  // Keys without a namespace are looked up in home.json too, once a page has loaded it (loadNamespace('home')).
  fallbackNS: 'home',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

async function loadCatalogue(language: Language, namespace: string) {
  if (engine.hasResourceBundle(language, namespace)) return;
  const loader = CATALOGUES[`${language}/${namespace}`];
  if (!loader) throw new Error(`No catalogue ${language}/${namespace}`);
  engine.addResourceBundle(language, namespace, (await loader()).default, true, true);
}

/** Adds a namespace (its catalogue in English and the current language). */
export async function loadNamespace(namespace: string) {
  namespaces.add(namespace);
  await Promise.all([loadCatalogue('en', namespace), loadCatalogue(current, namespace)]);
  listeners.forEach((listener) => listener());
}

export type Params = Record<string, string | number | undefined>;

export function t(key: string, params: Params = {}): string {
  return engine.t(key, params) as string;
}

export const language = (): Language => current;

function subscribe() {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const listener = () => setVersion((version) => version + 1);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
}

export function useT(): typeof t {
  subscribe();
  return t;
}

export function useLanguage(): Language {
  subscribe();
  return current;
}

async function apply(chosen: Language) {
  await Promise.all([...namespaces].map((namespace) => loadCatalogue(chosen, namespace)));
  await engine.changeLanguage(chosen);
  current = chosen;
  document.documentElement.lang = chosen;
  listeners.forEach((listener) => listener());
}

/** Set by the API module: saves the choice on the account when logged in (kept out of here to avoid a cycle). */
let saveOnAccount: ((language: Language) => Promise<unknown>) | null = null;
export function onLanguageChosen(save: (language: Language) => Promise<unknown>) {
  saveOnAccount = save;
}

/** The player chose `chosen` in the picker: switch, and remember it here and on the account. */
export async function setLanguage(chosen: Language) {
  try {
    localStorage.setItem(STORAGE_KEY, chosen);
  } catch {
    // Storage refused: the choice lasts until the page is left (or comes from the account).
  }
  await apply(chosen);
  await saveOnAccount?.(chosen).catch(() => undefined);
}

/** The account's stored language (GET /api/home `Language`): the pages follow it, and this browser remembers it. */
export async function adoptAccountLanguage(stored: unknown) {
  if (!isLanguage(stored)) return;
  try {
    localStorage.setItem(STORAGE_KEY, stored);
  } catch {
    // As above.
  }
  if (stored !== current) await apply(stored);
}

/** Resolves once the first language's catalogue is there: main.tsx renders after it (no flash of English). */
export const ready: Promise<void> = apply(storedChoice() ?? browserLanguage()).catch(() => apply('en'));

export function formatDate(value: string | number | Date, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }): string {
  return new Intl.DateTimeFormat(current, options).format(new Date(value));
}

/** A moment (seconds since 1970) with date and time, as the page's language writes it. */
export const dateTime = (seconds: number): string => formatDate(seconds * 1000, { dateStyle: 'medium', timeStyle: 'short' });

export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(current, options).format(value);
}

/**
 * A size as people read it, in the page's language: 812 bytes, 14.5 kB, 1 MB. Binary units (1 kB = 1024 bytes), as
 * the API words sizes and as MAX_TEXTURE_BYTES is set, so that a page and the API name a limit alike.
 */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return t('size.bytes', { count: bytes });
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return t(`size.${units[unit]}`, { value: formatNumber(value, { maximumFractionDigits: value < 10 ? 1 : 0 }) });
}

/** A translated text with <name>…</name> parts rendered by `parts[name]` (links inside a sentence). */
export function Rich(props: { text: string; parts: Record<string, (children: string) => ComponentChildren> }): JSX.Element {
  const out: ComponentChildren[] = [];
  const pattern = /<(\w+)>(.*?)<\/\1>/g;
  let last = 0;
  for (let match = pattern.exec(props.text); match; match = pattern.exec(props.text)) {
    out.push(props.text.slice(last, match.index));
    const render = props.parts[match[1]!];
    out.push(render ? render(match[2]!) : match[2]);
    last = match.index + match[0].length;
  }
  out.push(props.text.slice(last));
  return h(Fragment, null, ...out);
}

/** The header's language picker: labelled, on every page. */
export function LanguagePicker() {
  const chosen = useLanguage();
  return h(
    'div',
    { class: 'language-picker' },
    h('label', { for: 'language-picker' }, t('picker.label')),
    h(
      'select',
      {
        id: 'language-picker',
        value: chosen,
        onChange: (event: Event) => void setLanguage((event.currentTarget as HTMLSelectElement).value as Language),
      },
      LANGUAGES.map((code) => h('option', { value: code, lang: code, key: code }, LANGUAGE_NAMES[code])),
    ),
  );
}
