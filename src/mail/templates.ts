// The texts of the mails the service sends, in the recipient's language (locales/<language>/mail.json; contract
// section 14). Each code mail carries the code and a link that fills it in.
import { t, type Params } from '../i18n/i18n.ts';
import type { Language } from '../i18n/languages.ts';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const mail = (language: Language, key: string, params?: Params) => t(language, `mail:${key}`, params);

/** A mail of paragraphs: the plain text, and the same paragraphs escaped in HTML (a link stays a link). */
function paragraphsMail(subject: string, paragraphs: { text: string; html?: string }[]): MailContent {
  return {
    subject,
    text: `${paragraphs.map((paragraph) => paragraph.text).join('\n\n')}\n`,
    html: `<!doctype html><html><body style="font-family:sans-serif">
${paragraphs.map((paragraph) => `<p>${paragraph.html ?? escapeHtml(paragraph.text)}</p>`).join('\n')}
</body></html>`,
  };
}

const linkHtml = (link: string) => `<a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`;

function codeMail(language: Language, kind: 'verify' | 'reset', code: string, link: string, hours: number): MailContent {
  const validity = hours >= 1 ? mail(language, 'code.hours', { count: hours }) : mail(language, 'code.minutes', { count: hours * 60 });
  const codeLine = mail(language, 'code.yourCode', { code });
  return paragraphsMail(mail(language, `${kind}.subject`), [
    { text: mail(language, `${kind}.intro`) },
    {
      text: codeLine,
      html: escapeHtml(codeLine).replace(
        escapeHtml(code),
        `<strong style="font-size:1.4em;letter-spacing:0.1em">${escapeHtml(code)}</strong>`,
      ),
    },
    { text: mail(language, 'code.link', { link }), html: linkHtml(link) },
    { text: mail(language, 'code.validity', { validity }) },
  ]);
}

export const verifyMailMessage = (language: Language, code: string, link: string) => codeMail(language, 'verify', code, link, 24);

export const resetPasswordMessage = (language: Language, code: string, link: string) => codeMail(language, 'reset', code, link, 0.5);

/** A message an owner sends to every user: their text, as they wrote it, as plain text and as escaped HTML paragraphs. */
export function broadcastMessage(subject: string, message: string): MailContent {
  const paragraphs = message.split(/\n{2,}/).map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`);
  return {
    subject,
    text: message,
    html: `<!doctype html><html><body style="font-family:sans-serif">${paragraphs.join('\n')}</body></html>`,
  };
}

/** Tells a player that a moderator removed one of their skins, with the reason when one was given, and when. */
export function skinRemovedMessage(language: Language, username: string, skinName: string, reason: string, when: Date): MailContent {
  return paragraphsMail(mail(language, 'skinRemoved.subject', { skin: skinName }), [
    { text: mail(language, 'skinRemoved.greeting', { username }) },
    { text: mail(language, 'skinRemoved.removed', { skin: skinName, when }) },
    { text: reason ? mail(language, 'skinRemoved.reason', { reason }) : mail(language, 'skinRemoved.noReason') },
    { text: mail(language, 'skinRemoved.advice') },
  ]);
}

/**
 * Someone else turned off the player's two-factor login (a lost phone): the player hears of it, in case it was not
 * asked for. `by` is an administrator's name, or null for the site's operator (the command line).
 */
export function twoFactorOffMessage(language: Language, by: string | null, profileLink: string): MailContent {
  const intro = by === null ? mail(language, 'twoFactorOff.byOperator') : mail(language, 'twoFactorOff.byAdmin', { name: by });
  const advice = mail(language, 'twoFactorOff.advice', { link: profileLink });
  return paragraphsMail(mail(language, 'twoFactorOff.subject'), [
    { text: intro },
    { text: advice, html: escapeHtml(advice).replace(escapeHtml(profileLink), linkHtml(profileLink)) },
  ]);
}
