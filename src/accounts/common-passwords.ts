// The list of common passwords that contract section 15 refuses: the 49,233 of zxcvbn-ts (MIT licence), read once at start.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const listPath = createRequire(import.meta.url).resolve('@zxcvbn-ts/language-common/src/passwords.json');
// Read and parsed rather than require()d: the module cache would keep the array alive beside the set.
const commonPasswords: ReadonlySet<string> = new Set(
  (JSON.parse(readFileSync(listPath, 'utf8')) as string[]).map((password) => password.toLowerCase()),
);

/** Whether the list holds the password in any case: `PassWord` is as easy to guess as `password`. */
export const isCommonPassword = (password: string) => commonPasswords.has(password.toLowerCase());
