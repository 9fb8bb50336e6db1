// Verifying a chat report's messages (contract section 24; wire-shapes-26 §4.2): each message's signature against the
// chat keys this service certified for its sender, over exactly the bytes the game signed (1.19.3+), and the order of
// the evidence against the chains the messages carry. Pure: the keys are looked up by the caller.
import { createVerify } from 'node:crypto';
import type { CertifiedKey } from '../yggdrasil/certified-keys.ts';

/** A reported or context message as the game sends it, parsed. */
export interface EvidenceMessage {
  /** MessageLink.index within the sender's chat session. */
  index: number;
  /** The sender's profile UUID, with dashes. */
  profileId: string;
  /** The sender's chat session UUID, with dashes. */
  sessionId: string;
  /** Unix milliseconds (the game signs whole seconds). */
  timestamp: number;
  /** A signed 64-bit integer, exactly. */
  salt: bigint;
  /** Base64 signatures of the messages the sender had seen. */
  lastSeen: string[];
  message: string;
  /** Base64; null for an unsigned message. */
  signature: string | null;
  messageReported: boolean;
}

/** altered, broken-chain and unverifiable come only from 1.19.1-1.19.2 reports (legacy-report.ts). */
export type MessageProblem = 'unsigned' | 'no-key' | 'bad-signature' | 'out-of-order' | 'altered' | 'broken-chain' | 'unverifiable';

export interface MessageCheck {
  verified: boolean;
  problem: MessageProblem | null;
}

export type Attestation = 'full' | 'partial' | 'none';

/** A key may sign shortly before the service's clock says it was issued (clocks differ by a little). */
const CLOCK_SLACK_MS = 5 * 60_000;

/** Whether a key was valid at a message's time (Unix milliseconds), give or take the clocks' slack. */
export const coversTime = (key: CertifiedKey, timestamp: number) =>
  key.issuedAt - CLOCK_SLACK_MS <= timestamp && timestamp <= key.expiresAt + CLOCK_SLACK_MS;

export const uuidBytes = (uuid: string) => Buffer.from(uuid.replace(/-/g, ''), 'hex');

/** The bytes the game signs (SignedMessage.update: version, MessageLink, MessageBody, LastSeenMessageList). */
export function signedBytes(message: Omit<EvidenceMessage, 'signature' | 'messageReported'>): Buffer {
  const head = Buffer.alloc(4 + 16 + 16 + 4 + 8 + 8);
  head.writeInt32BE(1, 0);
  uuidBytes(message.profileId).copy(head, 4);
  uuidBytes(message.sessionId).copy(head, 20);
  head.writeInt32BE(message.index, 36);
  head.writeBigInt64BE(message.salt, 40);
  head.writeBigInt64BE(BigInt(Math.floor(message.timestamp / 1000)), 48);
  const content = Buffer.from(message.message, 'utf8');
  const contentLength = Buffer.alloc(4);
  contentLength.writeInt32BE(content.length);
  const seenCount = Buffer.alloc(4);
  seenCount.writeInt32BE(message.lastSeen.length);
  return Buffer.concat([head, contentLength, content, seenCount, ...message.lastSeen.map((seen) => Buffer.from(seen, 'base64'))]);
}

export const verifies = (key: CertifiedKey, data: Buffer, signature: Buffer) =>
  createVerify('SHA256').update(data).verify(key.key, signature);

/**
 * Checks every message in the order the report lists them (oldest first, as the game sends them). A message verifies
 * when its signature is right under a key certified to its sender at its time, under the same key as the other
 * messages of its chat session, and it comes after the messages of its session with a lower index and after the
 * messages it had seen.
 */
export function checkMessages(messages: EvidenceMessage[], keysOf: (profileId: string) => CertifiedKey[]): MessageCheck[] {
  const position = new Map<string, number>();
  messages.forEach((message, at) => {
    if (message.signature !== null && !position.has(message.signature)) position.set(message.signature, at);
  });
  const sessionKeys = new Map<string, CertifiedKey>();
  const lastInSession = new Map<string, { index: number; timestamp: number }>();
  return messages.map((message, at): MessageCheck => {
    if (message.signature === null) return { verified: false, problem: 'unsigned' };
    const session = `${message.profileId}|${message.sessionId}`;
    const bound = sessionKeys.get(session);
    const candidates = bound ? [bound] : keysOf(message.profileId).filter((key) => coversTime(key, message.timestamp));
    if (candidates.length === 0) return { verified: false, problem: 'no-key' };
    const data = signedBytes(message);
    const signature = Buffer.from(message.signature, 'base64');
    const key = candidates.find((candidate) => verifies(candidate, data, signature));
    if (!key) return { verified: false, problem: 'bad-signature' };
    sessionKeys.set(session, key);
    const previous = lastInSession.get(session);
    const seenLater = message.lastSeen.some((seen) => (position.get(seen) ?? -1) >= at);
    if ((previous && (message.index <= previous.index || message.timestamp < previous.timestamp)) || seenLater)
      return { verified: false, problem: 'out-of-order' };
    lastInSession.set(session, { index: message.index, timestamp: message.timestamp });
    return { verified: true, problem: null };
  });
}

/** full: every message verifies; none: no reported message does; partial: the rest. */
export function attestationOf(messages: { messageReported: boolean }[], checks: MessageCheck[]): Attestation {
  if (checks.every((check) => check.verified)) return 'full';
  return messages.some((message, at) => message.messageReported && checks[at]!.verified) ? 'partial' : 'none';
}
