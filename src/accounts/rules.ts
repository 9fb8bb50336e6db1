// The account field rules of contract section 2, each returning the value to store or throwing a 400 naming the field.
import { isPlayerName, playerNameKey, type PlayerNameRule } from '../minecraft/player-names.ts';
import { badRequest } from '../http/envelope.ts';
import { PASSWORD_LENGTH } from '../shared/account-rules.ts';
import { isCommonPassword } from './common-passwords.ts';

// A plausible shape, not RFC 5322: one @, no spaces, a dot in the domain, no empty labels.
// No white space, no control character (\p{Cc}: a NUL, which PostgreSQL's text refuses, or a line break in a mail
// header), none of the characters that would make the address a list or a display name.
const MAIL = /^[^\s\p{Cc}@"<>()[\]\\,;:]+@(?:[^\s\p{Cc}@."<>()[\]\\,;:]+\.)+[^\s\p{Cc}@."<>()[\]\\,;:]{2,}$/u;

// The audit names the service's own actions `system` and the operator CLI's `cli` (src/audit/audit.ts,
// src/admin/cli.ts): no account may take them now, so that no entry a player made reads as the service's own.
const RESERVED_USERNAME_KEYS = new Set(['system', 'cli']);

/** Whether no account may take `name` (any letter case): the names the audit gives the service and the operator. */
export const isReservedUsername = (name: string) => RESERVED_USERNAME_KEYS.has(usernameKey(name));

/** A username is the primary profile's name: the PROFILE_NAME_RULE applies (`field` names it in the error). */
export function checkUsername(value: string, rule: PlayerNameRule, field = 'username'): string {
  if (!isPlayerName(value, rule)) throw badRequest(rule === 'cjk' ? 'accounts.usernameRuleCjk' : 'accounts.usernameRule', { field });
  return value;
}

/** checkUsername for a name an account is about to take: also refuses the names the audit gives the service itself. */
export function checkNewUsername(value: string, rule: PlayerNameRule, field = 'username'): string {
  checkUsername(value, rule, field);
  if (isReservedUsername(value)) throw badRequest('accounts.usernameReserved', { field, username: value });
  return value;
}

// One character repeated (eight spaces, `aaaaaaaa`): no list holds them all, and they are as easy to guess.
const ONE_CHARACTER_REPEATED = /^(.)\1*$/su;

/**
 * The rules for a password being set (never at login, so that older passwords still work): the length, then not a
 * common password, and not the account's own mail address or player names (`ownIdentifiers`), all without regard
 * to case.
 */
export function checkPassword(value: string, ownIdentifiers: readonly (string | null | undefined)[] = []): string {
  const field = 'password';
  if (value.length < PASSWORD_LENGTH.min) throw badRequest('accounts.passwordTooShort', { field });
  if (value.length > PASSWORD_LENGTH.max) throw badRequest('accounts.passwordTooLong', { field });
  if (isCommonPassword(value) || ONE_CHARACTER_REPEATED.test(value)) throw badRequest('accounts.passwordCommon', { field });
  const lowerCased = value.toLowerCase();
  if (ownIdentifiers.some((identifier) => identifier?.toLowerCase() === lowerCased))
    throw badRequest('accounts.passwordIsOwnIdentifier', { field });
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
export const usernameKey = playerNameKey;
