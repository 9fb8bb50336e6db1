// A software WebAuthn authenticator for the API tests, built from the WebAuthn Level 3 specification (sections 6.1
// authenticator data, 6.5.4 the "none" attestation, 5.8.1 client data) with node:crypto: an ES256 key pair per
// passkey, a signature counter, and a client that says which origin it runs on. The API tests use it to send what a
// browser would and what no honest browser would (another origin, another relying party, a counter gone back); the
// browser tests use Chromium's own virtual authenticator instead.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/** CBOR (RFC 8949) of the few kinds the attestation object and a COSE key need. */
function cbor(value: unknown): Buffer {
  const head = (major: number, length: number) => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 256) return Buffer.from([(major << 5) | 24, length]);
    const bytes = Buffer.alloc(3);
    bytes[0] = (major << 5) | 25;
    bytes.writeUInt16BE(length, 1);
    return bytes;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (value instanceof Map) {
    return Buffer.concat([head(5, value.size), ...[...value].flatMap(([key, item]) => [cbor(key), cbor(item)])]);
  }
  throw new Error(`no CBOR for ${typeof value}`);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer) => data.toString('base64url');

/** Flags of the authenticator data: user present, user verified, backup eligible and state, attested credential data. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export interface SoftPasskey {
  id: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  userHandle: string;
  counter: number;
}

export interface ClientContext {
  /** The page's origin, as the browser would write it into the client data. */
  origin: string;
  /** The relying party id the authenticator hashes into its data (the page's host, for an honest browser). */
  rpId: string;
  /** Whether the authenticator verified the user (a PIN, a fingerprint). */
  userVerified?: boolean;
}

function authenticatorData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
  const counterBytes = Buffer.alloc(4);
  counterBytes.writeUInt32BE(counter);
  return Buffer.concat([sha256(rpId), Buffer.from([flags]), counterBytes, ...(attested ? [attested] : [])]);
}

const clientData = (type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string) =>
  Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

/** A new passkey for creation `options` (the JSON the API answered), and the browser's JSON of it. */
export function createPasskey(options: { challenge: string; user: { id: string } }, context: ClientContext) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const coseKey = new Map<number, unknown>([
    [1, 2], // kty: EC2
    [3, -7], // alg: ES256
    [-1, 1], // crv: P-256
    [-2, Buffer.from(jwk.x!, 'base64url')],
    [-3, Buffer.from(jwk.y!, 'base64url')],
  ]);
  const id = randomBytes(32);
  const idLength = Buffer.alloc(2);
  idLength.writeUInt16BE(id.length);
  const attested = Buffer.concat([Buffer.alloc(16), idLength, id, cbor(coseKey)]);
  const flags = UP | AT | (context.userVerified === false ? 0 : UV);
  const authData = authenticatorData(context.rpId, flags, 0, attested);
  const attestationObject = cbor(
    new Map<string, unknown>([
      ['fmt', 'none'],
      ['attStmt', new Map()],
      ['authData', authData],
    ]),
  );
  const passkey: SoftPasskey = { id, privateKey, publicKey, userHandle: options.user.id, counter: 0 };
  const response = {
    id: b64url(id),
    rawId: b64url(id),
    type: 'public-key',
    response: {
      clientDataJSON: b64url(clientData('webauthn.create', options.challenge, context.origin)),
      attestationObject: b64url(attestationObject),
      transports: ['internal'],
    },
    clientExtensionResults: {},
  };
  return { passkey, response };
}

/** The browser's JSON of an assertion by `passkey` for request `options`; the counter goes up by one unless `counter` says. */
export function assert(passkey: SoftPasskey, options: { challenge: string }, context: ClientContext & { counter?: number }) {
  passkey.counter = context.counter ?? passkey.counter + 1;
  const authData = authenticatorData(context.rpId, UP | (context.userVerified === false ? 0 : UV), passkey.counter);
  const client = clientData('webauthn.get', options.challenge, context.origin);
  const signature = sign('sha256', Buffer.concat([authData, sha256(client)]), passkey.privateKey);
  return {
    id: b64url(passkey.id),
    rawId: b64url(passkey.id),
    type: 'public-key',
    response: {
      clientDataJSON: b64url(client),
      authenticatorData: b64url(authData),
      signature: b64url(signature),
      userHandle: passkey.userHandle,
    },
    clientExtensionResults: {},
  };
}
