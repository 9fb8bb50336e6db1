// The account field rules of contract section 2, each returning the value to store or throwing a 400 naming the field.
import { offlinePlayerUuid } from '../minecraft/offline-uuid.ts';
import { badRequest } from '../http/envelope.ts';
import { PASSWORD_LENGTH } from '../http/shapes/account-rules.ts';

const USERNAME = /^[A-Za-z0-9_]{3,16}$/;
// A plausible shape, not RFC 5322: one @, no spaces, a dot in the domain, no empty labels.
const MAIL = /^[^\s@"<>()[\]\\,;:]+@(?:[^\s@."<>()[\]\\,;:]+\.)+[^\s@."<>()[\]\\,;:]{2,}$/;

export function checkUsername(value: string): string {
  if (!USERNAME.test(value)) throw badRequest('accounts.usernameRule', { field: 'username' });
  return value;
}

export function checkPassword(value: string, field = 'password'): string {
  if (value.length < PASSWORD_LENGTH.min) throw badRequest('accounts.passwordTooShort', { field });
  if (value.length > PASSWORD_LENGTH.max) throw badRequest('accounts.passwordTooLong', { field });
  return value;
}

export function isPlausibleMail(value: string): boolean {
  return value.length <= 254 && MAIL.test(value) && value.indexOf('@') <= 64;
}

/** Returns the address trimmed; the lower-cased form is its key for uniqueness. */
export function checkMail(value: string): string {
  const mail = value.trim();
  if (!isPlausibleMail(mail)) throw badRequest('accounts.mailRule', { field: 'mail' });
  return mail;
}

export const mailKey = (mail: string) => mail.trim().toLowerCase();
export const usernameKey = (username: string) => username.toLowerCase();

/** Every column that follows from a player name: the name, its key for uniqueness, its offline-mode UUID. */
export const usernameColumns = (username: string) => ({
  username,
  username_key: usernameKey(username),
  offline_uuid: offlinePlayerUuid(username),
});
