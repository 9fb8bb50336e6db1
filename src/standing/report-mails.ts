// The warning a moderator sends from a game report (contract section 24), in the player's language
// (locales/<language>/mail.json, gameReportWarning.*).
import { t } from '../i18n/i18n.ts';
import type { Language } from '../i18n/languages.ts';
import type { MailContent } from '../mail/templates.ts';
import type { ReportKind } from './report-kinds.ts';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function reportWarningMessage(language: Language, warning: { name: string; kind: ReportKind; message: string | null }): MailContent {
  const words = (key: string, params?: Record<string, string>) => t(language, `mail:gameReportWarning.${key}`, params);
  const paragraphs = [
    words(`about.${warning.kind}`, { name: warning.name }),
    ...(warning.message === null ? [] : [words('message', { message: warning.message })]),
    words('next'),
  ];
  return {
    subject: words('subject'),
    text: `${paragraphs.join('\n\n')}\n`,
    html: `<!doctype html><html><body style="font-family:sans-serif">
${paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n')}
</body></html>`,
  };
}
