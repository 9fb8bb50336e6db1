// A player's passkey (contract section 21, GET /api/home/passkeys) and the login's challenge: types, response schemas
// and examples. The WebAuthn options and responses themselves are the browser's JSON forms (WebAuthn Level 3,
// PublicKeyCredential.toJSON), which @simplewebauthn/browser builds and reads.
import { BASE } from './example-story.ts';
import { NAMED_CREDENTIAL_FIELDS, type NamedCredential } from './named-credential.ts';
import { recordSchema } from './record-schema.ts';

/** At most this many passkeys per account (contract section 21). */
export const MAX_PASSKEYS = 10;
/** The longest name a player gives a passkey. */
export const MAX_PASSKEY_NAME = 64;

/** A passkey as the profile lists it: the named-credential record and whether it is synced. */
export interface PasskeyRecord extends NamedCredential {
  /** Whether it is synced between devices (a password manager's or a platform's passkey), not bound to one device. */
  synced: boolean;
}

export const PASSKEY_SCHEMA = recordSchema<PasskeyRecord>({
  ...NAMED_CREDENTIAL_FIELDS,
  synced: { type: 'boolean' },
});

export const PASSKEYS_EXAMPLE: PasskeyRecord[] = [
  { id: 4, name: 'Phone', created: 1767225600, last_used: 1767312000, synced: true },
  { id: 9, name: 'Security key', created: 1767400000, last_used: null, synced: false },
];

/** The options of navigator.credentials.create() or get(), as JSON: an object of the browser's own form. */
export const WEBAUTHN_OPTIONS_SCHEMA = {
  type: 'object',
  additionalProperties: true,
  description: 'PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON (WebAuthn Level 3)',
} as const;

/** A login's challenge: its id (sent back with the response) and the options for navigator.credentials.get(). */
export const LOGIN_CHALLENGE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['challenge_id', 'options'],
  properties: { challenge_id: { type: 'string' }, options: WEBAUTHN_OPTIONS_SCHEMA },
} as const;

export const LOGIN_CHALLENGE_EXAMPLE = {
  challenge_id: 'Y2hhbGxlbmdlLWlkLWV4YW1wbGUtMzItYnl0ZXMtbG9uZw',
  options: {
    challenge: 'r8wqYk3vQ0m9c2Xh1ZpE7tLb5NnA4sD6fG0hJ3kL8oE',
    timeout: 300000,
    rpId: new URL(BASE).hostname,
    allowCredentials: [],
    userVerification: 'required',
  },
};

/** A new passkey as the browser's JSON of it: the body of POST /api/home/passkeys (base64url shortened). */
export const NEW_PASSKEY_EXAMPLE = {
  name: 'Phone',
  response: {
    id: 'Gm3fA1xq8sJt0bK2cQ7wYv',
    rawId: 'Gm3fA1xq8sJt0bK2cQ7wYv',
    type: 'public-key',
    response: {
      clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0',
      attestationObject: 'o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVjF',
      transports: ['internal', 'hybrid'],
    },
    clientExtensionResults: {},
  },
};

/** A login with a passkey: the body of POST /api/auth/passkey (base64url shortened). */
export const PASSKEY_LOGIN_EXAMPLE = {
  challenge_id: LOGIN_CHALLENGE_EXAMPLE.challenge_id,
  response: {
    id: 'Gm3fA1xq8sJt0bK2cQ7wYv',
    rawId: 'Gm3fA1xq8sJt0bK2cQ7wYv',
    type: 'public-key',
    response: {
      clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0',
      authenticatorData: 'SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAABQ',
      signature: 'MEUCIQDq3v0Xw9kY2nJ',
      userHandle: 'Yf3kQ9mZ2pL7vB1xR8tW4sN6cD0hJ5eA',
    },
    clientExtensionResults: {},
  },
};

const BASE64URL = { type: 'string', minLength: 1, maxLength: 4096, pattern: '^[A-Za-z0-9_-]+={0,2}$' } as const;
const CREDENTIAL_ID = { type: 'string', minLength: 1, maxLength: 1400, pattern: '^[A-Za-z0-9_-]+={0,2}$' } as const;

/**
 * The browser's answer to navigator.credentials.create() or get() as JSON (RegistrationResponseJSON or
 * AuthenticationResponseJSON), bounded: every part is base64url of a few kilobytes at most.
 */
export function webauthnResponseSchema(kind: 'create' | 'get') {
  const inner =
    kind === 'create'
      ? {
          type: 'object',
          required: ['clientDataJSON', 'attestationObject'],
          properties: {
            clientDataJSON: BASE64URL,
            attestationObject: { ...BASE64URL, maxLength: 16384 },
            transports: { type: 'array', maxItems: 8, items: { type: 'string', maxLength: 32 } },
          },
        }
      : {
          type: 'object',
          required: ['clientDataJSON', 'authenticatorData', 'signature'],
          properties: {
            clientDataJSON: BASE64URL,
            authenticatorData: BASE64URL,
            signature: BASE64URL,
            userHandle: { type: 'string', maxLength: 256, pattern: '^[A-Za-z0-9_-]*={0,2}$' },
          },
        };
  return {
    type: 'object',
    required: ['id', 'rawId', 'type', 'response'],
    properties: {
      id: CREDENTIAL_ID,
      rawId: CREDENTIAL_ID,
      type: { type: 'string', const: 'public-key' },
      response: inner,
      authenticatorAttachment: { type: 'string', maxLength: 32 },
      clientExtensionResults: { type: 'object' },
    },
  } as const;
}
