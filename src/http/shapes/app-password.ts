// A player's app password (contract section 18, GET/POST /api/home/app-passwords): types, response schemas and
// examples. The password itself is in the answer to its creation only.
import { NAMED_CREDENTIAL_FIELDS, type NamedCredential } from './named-credential.ts';
import { recordSchema } from './record-schema.ts';

/** At most this many app passwords per account (contract section 18). */
export const MAX_APP_PASSWORDS = 20;
/** The longest name a player gives an app password. */
export const MAX_APP_PASSWORD_NAME = 64;

/** An app password as the profile lists it: the named-credential record, nothing more. */
export type AppPasswordRecord = NamedCredential;

/** The answer to a creation: the only time the password is shown. */
export interface NewAppPassword {
  id: number;
  name: string;
  password: string;
}

export const APP_PASSWORD_SCHEMA = recordSchema<AppPasswordRecord>(NAMED_CREDENTIAL_FIELDS);

export const NEW_APP_PASSWORD_SCHEMA = recordSchema<NewAppPassword>({
  id: { type: 'integer' },
  name: { type: 'string' },
  password: { type: 'string', description: 'shown this once: only its hash is stored' },
});

export const APP_PASSWORDS_EXAMPLE: AppPasswordRecord[] = [
  { id: 3, name: 'HMCL on the laptop', created: 1767225600, last_used: 1767312000 },
  { id: 7, name: 'PojavLauncher', created: 1767400000, last_used: null },
];

export const NEW_APP_PASSWORD_EXAMPLE: NewAppPassword = {
  id: 7,
  name: 'PojavLauncher',
  password: 'app-k7q2m9p-hx4rcn8-w3tzb5e-jd6vfl2',
};
