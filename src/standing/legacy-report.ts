// Chat evidence of the 1.19.1-1.19.2 games (authlib 3.11; contract section 24; wire-shapes-26 §4.1 "Legacy"): each
// message a signed header ({signatureOfPreviousHeader, profileId, hashOfBody, signature}) and, unless it is only
// context, its body ({timestamp, salt, lastSeenSignatures, message: {plain, decorated}}). authlib's Gson writes byte
// buffers as base64 and instants as ISO 8601 text, and leaves null fields out. What the sender signed (1.19.2
// SignedMessageHeader / SignedMessageBody): SHA256withRSA over [the previous header's signature] + the sender UUID +
// the body digest; the digest SHA-256 of the salt, the time in seconds, the plain text, 'F', then 'F' + UUID +
// signature per last-seen entry. A decorated message also hashes Minecraft's component JSON, which this service
// cannot reproduce byte for byte: such a message is stored as unverifiable rather than guessed at.
import { createHash } from 'node:crypto';
import type { CertifiedKey } from '../yggdrasil/certified-keys.ts';
import { coversTime, uuidBytes, verifies, type MessageCheck, type MessageProblem } from './chat-attestation.ts';
import { instantField, isObject, malformed, MAX_CHAT_CHARS, MAX_LAST_SEEN, saltField, signatureField, uuidField } from './report-fields.ts';

/** Minecraft's longest string on the wire: bounds the decorated component and the overridden message. */
const MAX_COMPONENT_CHARS = 32767;
const SEPARATOR = 70;

interface LegacyBody {
  /** Unix milliseconds (the game signs whole seconds). */
  timestamp: number;
  salt: bigint;
  lastSeen: { profileId: string; signature: string }[];
  message: string;
  /** The decorated component as the game sent it; null when the message was not decorated. */
  decorated: unknown;
}

/** A 1.19.1-1.19.2 evidence message, parsed. */
export interface LegacyMessage {
  profileId: string;
  /** Base64; null for the first message of a chain. */
  previousSignature: string | null;
  /** Base64 SHA-256 of the body. */
  hashOfBody: string;
  /** Base64 signature of the header. */
  signature: string;
  /** null for a context message the game sent as a header only. */
  body: LegacyBody | null;
  overriddenMessage: string | null;
  messageReported: boolean;
}

/** A 1.19.1-1.19.2 message as stored with its verification (beside the 1.19.3+ ones, told apart by `format`). */
export interface LegacyCheckedMessage {
  format: 'legacy';
  profileId: string;
  /** Unix milliseconds; null for a header only. */
  timestamp: number | null;
  /** The 64-bit salt as decimal text (exact); null for a header only. */
  salt: string | null;
  lastSeen: { profileId: string; signature: string }[];
  /** The plain text; null for a header only. */
  message: string | null;
  decorated: unknown;
  overriddenMessage: string | null;
  previousSignature: string | null;
  hashOfBody: string;
  signature: string;
  messageReported: boolean;
  verified: boolean;
  problem: MessageProblem | null;
}

const optional = <T>(value: unknown, read: (value: unknown) => T): T | null => (value === null || value === undefined ? null : read(value));

function boundedJson(value: unknown, what: string): unknown {
  if (JSON.stringify(value).length > MAX_COMPONENT_CHARS) throw malformed(`${what} must be at most ${MAX_COMPONENT_CHARS} characters`);
  return value;
}

function parseBody(value: unknown, at: number): LegacyBody {
  const what = `evidence message ${at}: body`;
  if (!isObject(value) || !isObject(value.message)) throw malformed(`${what} must be an object with a message`);
  const plain = value.message.plain;
  if (typeof plain !== 'string' || plain.length > MAX_CHAT_CHARS)
    throw malformed(`${what}.message.plain must be text of at most ${MAX_CHAT_CHARS} characters`);
  const lastSeen = value.lastSeenSignatures ?? [];
  if (!Array.isArray(lastSeen) || lastSeen.length > MAX_LAST_SEEN)
    throw malformed(`${what}.lastSeenSignatures must be a list of at most ${MAX_LAST_SEEN} entries`);
  return {
    timestamp: instantField(value.timestamp, `${what}.timestamp`),
    salt: saltField(value.salt),
    lastSeen: lastSeen.map((seen) => {
      if (!isObject(seen)) throw malformed(`${what}.lastSeenSignatures entries must be objects`);
      return {
        profileId: uuidField(seen.profileId, `${what}.lastSeenSignatures profileId`),
        signature: signatureField(seen.lastSignature, `${what}.lastSeenSignatures lastSignature`),
      };
    }),
    message: plain,
    decorated: optional(value.message.decorated, (decorated) => boundedJson(decorated, `${what}.message.decorated`)),
  };
}

/** Checks one message of a 1.19.1-1.19.2 report; anything else is malformed. */
export function parseLegacyMessage(value: unknown, at: number): LegacyMessage {
  if (!isObject(value) || !isObject(value.header)) throw malformed(`evidence message ${at} must be an object with a header`);
  const header = value.header;
  const what = `evidence message ${at}: header`;
  const hashOfBody = signatureField(header.hashOfBody, `${what}.hashOfBody`);
  if (Buffer.from(hashOfBody, 'base64').length !== 32) throw malformed(`${what}.hashOfBody must be a SHA-256 digest`);
  const overridden = value.overriddenMessage;
  if (overridden !== undefined && overridden !== null && (typeof overridden !== 'string' || overridden.length > MAX_COMPONENT_CHARS))
    throw malformed(`evidence message ${at}: overriddenMessage must be text of at most ${MAX_COMPONENT_CHARS} characters`);
  return {
    profileId: uuidField(header.profileId, `${what}.profileId`),
    previousSignature: optional(header.signatureOfPreviousHeader, (previous) =>
      signatureField(previous, `${what}.signatureOfPreviousHeader`),
    ),
    hashOfBody,
    signature: signatureField(header.signature, `${what}.signature`),
    body: optional(value.body, (body) => parseBody(body, at)),
    overriddenMessage: typeof overridden === 'string' ? overridden : null,
    messageReported: value.messageReported === true,
  };
}

const int64 = (value: bigint) => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64BE(value);
  return bytes;
};

/** SignedMessageBody.hash of an undecorated body. */
function bodyDigest(body: LegacyBody): Buffer {
  const hash = createHash('sha256')
    .update(int64(body.salt))
    .update(int64(BigInt(Math.floor(body.timestamp / 1000))))
    .update(Buffer.from(body.message, 'utf8'))
    .update(Buffer.of(SEPARATOR));
  for (const seen of body.lastSeen)
    hash.update(Buffer.of(SEPARATOR)).update(uuidBytes(seen.profileId)).update(Buffer.from(seen.signature, 'base64'));
  return hash.digest();
}

const sameBytes = (a: string, b: string) => Buffer.from(a, 'base64').equals(Buffer.from(b, 'base64'));

function checkOne(message: LegacyMessage, previous: string | undefined, keysOf: (profileId: string) => CertifiedKey[]): MessageCheck {
  const failing = (problem: MessageProblem): MessageCheck => ({ verified: false, problem });
  if (message.body?.decorated !== null && message.body?.decorated !== undefined) return failing('unverifiable');
  if (message.body && !bodyDigest(message.body).equals(Buffer.from(message.hashOfBody, 'base64'))) return failing('altered');
  const keys = keysOf(message.profileId).filter((key) => !message.body || coversTime(key, message.body.timestamp));
  if (keys.length === 0) return failing('no-key');
  const data = Buffer.concat([
    ...(message.previousSignature === null ? [] : [Buffer.from(message.previousSignature, 'base64')]),
    uuidBytes(message.profileId),
    Buffer.from(message.hashOfBody, 'base64'),
  ]);
  const signature = Buffer.from(message.signature, 'base64');
  if (!keys.some((key) => verifies(key, data, signature))) return failing('bad-signature');
  if (previous !== undefined && message.previousSignature !== null && !sameBytes(message.previousSignature, previous))
    return failing('broken-chain');
  return { verified: true, problem: null };
}

/**
 * Checks every message in the order the report lists them: the body against its hash, the header's signature under a
 * key certified to the sender (at the message's time when it has a body), and the chain: a header that names a
 * previous signature must name the signature of the sender's message listed just before it.
 */
export function checkLegacyMessages(messages: LegacyMessage[], keysOf: (profileId: string) => CertifiedKey[]): MessageCheck[] {
  const lastOf = new Map<string, string>();
  return messages.map((message) => {
    const check = checkOne(message, lastOf.get(message.profileId), keysOf);
    lastOf.set(message.profileId, message.signature);
    return check;
  });
}

/** The messages as stored, each with its check. */
export function storedLegacyMessages(messages: LegacyMessage[], checks: MessageCheck[]): LegacyCheckedMessage[] {
  return messages.map((message, at) => ({
    format: 'legacy',
    profileId: message.profileId,
    timestamp: message.body?.timestamp ?? null,
    salt: message.body?.salt.toString() ?? null,
    lastSeen: message.body?.lastSeen ?? [],
    message: message.body?.message ?? null,
    decorated: message.body?.decorated ?? null,
    overriddenMessage: message.overriddenMessage,
    previousSignature: message.previousSignature,
    hashOfBody: message.hashOfBody,
    signature: message.signature,
    messageReported: message.messageReported,
    ...checks[at]!,
  }));
}
