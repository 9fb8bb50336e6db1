// The texts of the mails the service sends. Each carries the code and a link that fills it in.
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function codeMail(subject: string, intro: string, code: string, link: string, validity: string): MailContent {
  const text = `${intro}\n\nYour code: ${code}\n\nOr open this link: ${link}\n\nThe code is valid for ${validity} and can be used once. If you did not ask for it, ignore this mail.\n`;
  const html = `<!doctype html><html><body style="font-family:sans-serif">
<p>${escapeHtml(intro)}</p>
<p>Your code: <strong style="font-size:1.4em;letter-spacing:0.1em">${escapeHtml(code)}</strong></p>
<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p>The code is valid for ${escapeHtml(validity)} and can be used once. If you did not ask for it, ignore this mail.</p>
</body></html>`;
  return { subject, text, html };
}

export const verifyMailMessage = (code: string, link: string) =>
  codeMail('Confirm your mail address', 'Confirm your mail address to continue.', code, link, '24 hours');

export const resetPasswordMessage = (code: string, link: string) =>
  codeMail('Reset your password', 'Someone asked to reset the password of your account.', code, link, '30 minutes');

/** A message an owner sends to every user: their text, as plain text and as escaped HTML paragraphs. */
export function broadcastMessage(subject: string, message: string): MailContent {
  const paragraphs = message.split(/\n{2,}/).map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`);
  return {
    subject,
    text: message,
    html: `<!doctype html><html><body style="font-family:sans-serif">${paragraphs.join('\n')}</body></html>`,
  };
}

/** Tells a player that a moderator removed one of their skins, with the reason when one was given. */
export function skinRemovedMessage(username: string, skinName: string, reason: string): MailContent {
  const lines = [
    `Hello ${username},`,
    `a moderator removed your skin "${skinName}".`,
    reason ? `Reason: ${reason}` : 'No reason was given.',
    "You can upload another skin on your profile page. If you think this was a mistake, answer the site's administrators.",
  ];
  return {
    subject: `Your skin "${skinName}" was removed`,
    text: `${lines.join('\n\n')}\n`,
    html: `<!doctype html><html><body style="font-family:sans-serif">${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}</body></html>`,
  };
}

/**
 * Someone else turned off the player's two-factor login (a lost phone): the player hears of it, in case it was not
 * asked for. `who` starts the sentence: "An administrator (Alice)", "The site's operator".
 */
export function twoFactorOffMessage(who: string, profileLink: string): MailContent {
  const intro = `${who} turned off two-factor login for your account. Your password alone now logs you in.`;
  const advice = `If you did not ask for this, change your password and turn two-factor login on again in your profile: ${profileLink}`;
  return {
    subject: 'Two-factor login was turned off',
    text: `${intro}\n\n${advice}\n`,
    html: `<!doctype html><html><body style="font-family:sans-serif">
<p>${escapeHtml(intro)}</p>
<p>If you did not ask for this, change your password and turn two-factor login on again in your profile:
<a href="${escapeHtml(profileLink)}">${escapeHtml(profileLink)}</a></p>
</body></html>`,
  };
}
