// The console's words: its catalogue (locales/<language>/admin.json, loaded with the console's chunk, never with the
// login page), level names and lists in the page's language.
import { levelNameOf } from '../../../../src/shared/levels.ts';
import { language, loadNamespace, registerNamespace, t } from '../../i18n.ts';

registerNamespace('admin', {
  en: () => import('../../../../locales/en/admin.json'),
  ru: () => import('../../../../locales/ru/admin.json'),
  'zh-CN': () => import('../../../../locales/zh-CN/admin.json'),
});

/** Resolves once the console's catalogue is there in English and the page's language. */
export const adminWordsReady = (): Promise<void> => loadNamespace('admin');

/** A permission level's name ("moderator"), or "level 7" for one the console does not know. */
export const levelName = (level: number): string => {
  const name = levelNameOf(level);
  return name ? t(`admin:level.${name}`) : t('admin:level.unknown', { number: level });
};

/** Names as a list in the page's language: "A, B and C", "A、B和C". */
export const listOf = (items: string[]): string => new Intl.ListFormat(language(), { style: 'long', type: 'conjunction' }).format(items);

/** Whether the console's catalogue has `key` ("admin:…"): t answers an unknown key with the key itself. */
export const hasAdminKey = (key: string): boolean => t(key) !== key && t(key) !== key.slice('admin:'.length);
