// The account field rules of contract section 2, each returning the value to store or throwing a 400 naming the field.
import { offlinePlayerUuid } from '../minecraft/offline-uuid.ts';
import { badRequest } from '../http/envelope.ts';

const USERNAME = /^[A-Za-z0-9_]{3,16}$/;
// A plausible shape, not RFC 5322: one @, no spaces, a dot in the domain, no empty labels.
const MAIL = /^[^\s@"<>()[\]\\,;:]+@(?:[^\s@."<>()[\]\\,;:]+\.)+[^\s@."<>()[\]\\,;:]{2,}$/;

export function checkUsername(value: string): string {
  if (!USERNAME.test(value)) throw badRequest('username must be 3 to 16 characters of letters A-Z, digits and _');
  return value;
}

export function checkPassword(value: string, field = 'password'): string {
  if (value.length < 8) throw badRequest(`${field} must be at least 8 characters long`);
  if (value.length > 256) throw badRequest(`${field} must be at most 256 characters long`);
  return value;
}

export function isPlausibleMail(value: string): boolean {
  return value.length <= 254 && MAIL.test(value) && value.indexOf('@') <= 64;
}

/** Returns the address trimmed; the lower-cased form is its key for uniqueness. */
export function checkMail(value: string): string {
  const mail = value.trim();
  if (!isPlausibleMail(mail)) throw badRequest('mail must be a valid mail address (name@example.org), at most 254 characters');
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
