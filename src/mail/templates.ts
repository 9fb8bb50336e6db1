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

/** A paragraph that contains `link`: the link stays a link in the HTML. */
const paragraphWithLink = (text: string, link: string) => ({ text, html: escapeHtml(text).replace(escapeHtml(link), linkHtml(link)) });

/** A code mail: the code as shown for typing (accounts/codes.ts groups it), and the link that carries it whole. */
function codeMail(language: Language, kind: 'verify' | 'reset', shown: string, link: string, hours: number): MailContent {
  const validity = hours >= 1 ? mail(language, 'code.hours', { count: hours }) : mail(language, 'code.minutes', { count: hours * 60 });
  const codeLine = mail(language, 'code.yourCode', { code: shown });
  return paragraphsMail(mail(language, `${kind}.subject`), [
    { text: mail(language, `${kind}.intro`) },
    {
      text: codeLine,
      html: escapeHtml(codeLine).replace(
        escapeHtml(shown),
        `<strong style="font-size:1.4em;letter-spacing:0.1em">${escapeHtml(shown)}</strong>`,
      ),
    },
    { text: mail(language, 'code.link', { link }), html: linkHtml(link) },
    { text: mail(language, 'code.validity', { validity }) },
  ]);
}

export const verifyMailMessage = (language: Language, shownCode: string, link: string) => codeMail(language, 'verify', shownCode, link, 24);

export const resetPasswordMessage = (language: Language, shownCode: string, link: string) =>
  codeMail(language, 'reset', shownCode, link, 0.5);

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
  return paragraphsMail(mail(language, 'twoFactorOff.subject'), [
    { text: intro },
    paragraphWithLink(mail(language, 'twoFactorOff.advice', { link: profileLink }), profileLink),
  ]);
}

/** A Discord account was linked to the player's account: a new way in, so the player hears of it in case it was not them. */
export function discordLinkedMessage(language: Language, discordName: string, profileLink: string): MailContent {
  return paragraphsMail(mail(language, 'discordLinked.subject'), [
    { text: mail(language, 'discordLinked.linked', { name: discordName }) },
    paragraphWithLink(mail(language, 'discordLinked.advice', { link: profileLink }), profileLink),
  ]);
}

/** A passkey was added to the player's account: a new way in, so the player hears of it in case it was not them. */
export function passkeyAddedMessage(language: Language, passkeyName: string, profileLink: string): MailContent {
  return paragraphsMail(mail(language, 'passkeyAdded.subject'), [
    { text: mail(language, 'passkeyAdded.added', { name: passkeyName }) },
    paragraphWithLink(mail(language, 'passkeyAdded.advice', { link: profileLink }), profileLink),
  ]);
}

/**
 * "m***e@example.org": enough of a new address for its owner to recognise it, not all of it for whoever reads the
 * former one (which may no longer be the player's). The domain stays whole.
 */
export function maskedMail(address: string): string {
  const at = address.lastIndexOf('@');
  const local = at < 0 ? address : address.slice(0, at);
  const domain = at < 0 ? '' : address.slice(at);
  const shown = local.length <= 2 ? `${local.slice(0, 1)}***` : `${local.slice(0, 1)}***${local.slice(-1)}`;
  return `${shown}${domain}`;
}

/**
 * To the former address after a change of the account's mail address (issue 31): what changed, to which address
 * (masked), when and by whom, and what to do if it was not the player. It carries no code and no link that acts: the
 * former address no longer proves anything, and a link in a mail nobody asked for is what phishing looks like.
 */
export function mailChangedMessage(
  language: Language,
  change: { account: string; newMail: string; by: string | null; when: Date },
): MailContent {
  return paragraphsMail(mail(language, 'mailChanged.subject'), [
    { text: mail(language, 'mailChanged.changed', { account: change.account, mail: maskedMail(change.newMail), when: change.when }) },
    ...(change.by === null ? [] : [{ text: mail(language, 'mailChanged.byAdmin', { name: change.by }) }]),
    { text: mail(language, 'mailChanged.ifYou') },
    { text: mail(language, 'mailChanged.ifNotYou') },
  ]);
}
