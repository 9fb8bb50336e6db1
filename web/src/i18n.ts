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
// English is bundled with the login page and resolved by a small resolver of the same key, plural and {{}} rules
// (Intl.PluralRules, as i18next itself uses): i18next and the Russian and Chinese catalogues load on demand, as chunks
// of their own, when the page is in one of those languages (the login page's byte budget, docs/performance.md).
import { Fragment, h, type ComponentChildren, type JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { i18n as I18n } from 'i18next';
import englishWeb from '../../locales/en/web.json';

export const LANGUAGES = ['en', 'ru', 'zh-CN'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Each language's name in itself, as the picker shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', ru: 'Русский', 'zh-CN': '中文' };

const STORAGE_KEY = 'skinservice.language';
const isLanguage = (value: unknown): value is Language => (LANGUAGES as readonly unknown[]).includes(value);

/** A browser language tag as the server maps it (src/i18n/languages.ts): ru-* → ru, zh* → zh-CN, else en. */
function fromTag(tag: string): Language | null {
  const lower = tag.toLowerCase();
  if (lower === 'ru' || lower.startsWith('ru-')) return 'ru';
  if (lower === 'zh' || lower.startsWith('zh-')) return 'zh-CN';
  if (lower === 'en' || lower.startsWith('en-')) return 'en';
  return null;
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
};

/** Registers another namespace's loaders (one per language), e.g. the admin console's. */
export function registerNamespace(namespace: string, loaders: Record<Language, () => Promise<{ default: Tree }>>) {
  for (const language of LANGUAGES) CATALOGUES[`${language}/${namespace}`] = loaders[language];
}

const resources: Record<string, Record<string, Tree>> = { en: { web: englishWeb as Tree } };
const namespaces = new Set(['web']);
let current: Language = 'en';
let engine: I18n | null = null;
const listeners = new Set<() => void>();

async function loadCatalogue(language: Language, namespace: string) {
  if (resources[language]?.[namespace]) return;
  const loader = CATALOGUES[`${language}/${namespace}`];
  if (!loader) throw new Error(`No catalogue ${language}/${namespace}`);
  const tree = (await loader()).default;
  (resources[language] ??= {})[namespace] = tree;
  engine?.addResourceBundle(language, namespace, tree, true, true);
}

async function loadEngine(): Promise<I18n> {
  if (engine) return engine;
  const { createInstance } = await import('i18next');
  const instance = createInstance();
  await instance.init({
    resources,
    lng: current,
    fallbackLng: 'en',
    ns: [...namespaces],
    defaultNS: 'web',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  engine = instance;
  return instance;
}

/** Adds a namespace (its catalogue in English and the current language). */
export async function loadNamespace(namespace: string) {
  namespaces.add(namespace);
  await Promise.all([loadCatalogue('en', namespace), loadCatalogue(current, namespace)]);
  listeners.forEach((listener) => listener());
}

function lookup(tree: Tree | undefined, path: string): string | Tree | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of path.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return node;
}

const englishPlurals = new Intl.PluralRules('en');

/** English without i18next: the same rules (key path, _one/_other by Intl.PluralRules, {{name}}). */
function english(key: string, params: Record<string, unknown>): string {
  const [namespace, path] = key.includes(':') ? (key.split(':', 2) as [string, string]) : ['web', key];
  const tree = resources.en?.[namespace];
  let text = lookup(tree, path);
  if (typeof params.count === 'number') {
    const plural = lookup(tree, `${path}_${englishPlurals.select(params.count)}`) ?? lookup(tree, `${path}_other`);
    if (typeof plural === 'string') text = plural;
  }
  if (typeof text !== 'string') return key;
  return text.replace(/\{\{\s*([^}\s]+)\s*\}\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export type Params = Record<string, string | number | undefined>;

export function t(key: string, params: Params = {}): string {
  if (current !== 'en' && engine) return engine.t(key, params) as string;
  return english(key, params);
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
  if (chosen !== 'en') {
    await Promise.all([loadEngine(), ...[...namespaces].map((namespace) => loadCatalogue(chosen, namespace))]);
    await engine!.changeLanguage(chosen);
  }
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
