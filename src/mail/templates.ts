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
 * Tells a player that a moderator removed a library picture from every wardrobe (contract section 19): `owner` for the
 * one who published it, else for a player whose copy went.
 */
export function libraryRemovedMessage(language: Language, username: string, name: string, reason: string, owner: boolean): MailContent {
  return paragraphsMail(mail(language, 'libraryRemoved.subject', { name }), [
    { text: mail(language, 'libraryRemoved.greeting', { username }) },
    { text: mail(language, owner ? 'libraryRemoved.owner' : 'libraryRemoved.copy', { name }) },
    { text: reason ? mail(language, 'libraryRemoved.reason', { reason }) : mail(language, 'libraryRemoved.noReason') },
    { text: mail(language, 'libraryRemoved.advice') },
  ]);
}

/** Tells a player that a moderator refused to publish their entry (LIBRARY_REVIEW), with the reason when one was given. */
export function libraryRefusedMessage(language: Language, username: string, name: string, reason: string): MailContent {
  return paragraphsMail(mail(language, 'libraryRefused.subject', { name }), [
    { text: mail(language, 'libraryRemoved.greeting', { username }) },
    { text: mail(language, 'libraryRefused.text', { name }) },
    { text: reason ? mail(language, 'libraryRemoved.reason', { reason }) : mail(language, 'libraryRemoved.noReason') },
  ]);
}

/**
 * What happened to an account's ways in (contract 15b, issue 38): each is mailed to the account in its language, so
 * that a player hears of a change they did not make (a stolen session or password). The list is written once here;
 * the mails' words are locales/<language>/mail.json under the event's kind.
 */
export type SecurityEvent =
  | { kind: 'passkeyAdded'; name: string }
  | { kind: 'discordLinked'; name: string }
  /** An OpenID Connect identity linked (contract section 26): `provider` is the provider's display name. */
  | { kind: 'identityLinked'; provider: string; name: string }
  | { kind: 'appPasswordMade'; name: string }
  | { kind: 'twoFactorOn' }
  /** `by`: the player, an administrator (their name), or the site's operator (the command line). */
  | { kind: 'twoFactorOff'; by: 'player' | 'operator' | { admin: string } }
  | { kind: 'passwordReset' }
  /** A launcher got a Yggdrasil Connect grant: `client` is a registered client's name, null for the shared client;
   * `profile` the profile it plays as (Select), null when it plays as none. */
  | { kind: 'launcherAllowed'; client: string | null; profile: string | null };

/** The sentence that says what happened, with its values. */
function eventText(language: Language, event: SecurityEvent): string[] {
  switch (event.kind) {
    case 'twoFactorOff':
      if (event.by === 'player') return [mail(language, 'twoFactorOff.byPlayer')];
      if (event.by === 'operator') return [mail(language, 'twoFactorOff.byOperator')];
      return [mail(language, 'twoFactorOff.byAdmin', { name: event.by.admin })];
    case 'launcherAllowed':
      return [
        event.client === null
          ? mail(language, 'launcherAllowed.shared')
          : mail(language, 'launcherAllowed.named', { client: event.client }),
        ...(event.profile === null ? [] : [mail(language, 'launcherAllowed.playsAs', { name: event.profile })]),
      ];
    case 'identityLinked':
      return [mail(language, 'identityLinked.text', { provider: event.provider, name: event.name })];
    case 'twoFactorOn':
    case 'passwordReset':
      return [mail(language, `${event.kind}.text`)];
    default:
      return [mail(language, `${event.kind}.text`, { name: event.name })];
  }
}

/** The mail of a security event: what happened, and what to do (on the profile, `profileLink`) if it was not the player. */
export function securityEventMessage(language: Language, event: SecurityEvent, profileLink: string): MailContent {
  return paragraphsMail(mail(language, `${event.kind}.subject`), [
    ...eventText(language, event).map((text) => ({ text })),
    paragraphWithLink(mail(language, `${event.kind}.advice`, { link: profileLink }), profileLink),
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

/** A ban (contract section 24), in the player's language: what it bars, why, and until when. */
export function banMessage(
  language: Language,
  ban: { account: string; scope: string; reason: string; message: string | null; expires: number | null },
): MailContent {
  const reason = mail(language, `ban.reasons.${ban.reason}`);
  return paragraphsMail(mail(language, `ban.subject.${ban.scope}`), [
    { text: mail(language, `ban.scope.${ban.scope}`, { account: ban.account }) },
    { text: mail(language, 'ban.reason', { reason }) },
    ...(ban.message === null ? [] : [{ text: mail(language, 'ban.message', { message: ban.message }) }]),
    {
      text: ban.expires === null ? mail(language, 'ban.permanent') : mail(language, 'ban.until', { when: new Date(ban.expires * 1000) }),
    },
  ]);
}

/** A ban lifted before its end, in the player's language. */
export function banLiftedMessage(language: Language, lift: { account: string; scope: string }): MailContent {
  return paragraphsMail(mail(language, 'ban.liftedSubject'), [
    { text: mail(language, `ban.lifted.${lift.scope}`, { account: lift.account }) },
  ]);
}

/**
 * PREMIUM_RECLAIM (contract section 20): a player proved they own the official account of a name a profile of this
 * account had; the profile passed to them, or (`renamed`) stays here under another name.
 */
export function premiumReclaimedMessage(language: Language, reclaim: { account: string; name: string; renamed?: string }): MailContent {
  return paragraphsMail(mail(language, 'premiumReclaim.subject', { name: reclaim.name }), [
    { text: mail(language, 'premiumReclaim.greeting', { account: reclaim.account }) },
    {
      text: reclaim.renamed
        ? mail(language, 'premiumReclaim.renamed', { name: reclaim.name, renamed: reclaim.renamed })
        : mail(language, 'premiumReclaim.moved', { name: reclaim.name }),
    },
  ]);
}
