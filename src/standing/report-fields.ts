// The checks of a game report's fields (contract section 24): each refusal a 400 in the game API's shape, naming the
// field. Shared by the 1.19.3+ and the 1.19.1-1.19.2 (legacy-report.ts) chat evidence.
import { normalizeUuid } from '../accounts/identifiers.ts';
import { GameServiceError } from '../yggdrasil/errors.ts';

export const REPORT_PATH = '/player/report';
/** The game's limits on one chat message: its last-seen list and its text. */
export const MAX_LAST_SEEN = 20;
export const MAX_CHAT_CHARS = 256;

export const refuse = (status: number, text: string) =>
  new GameServiceError(status, status === 404 ? 'NOT_FOUND' : 'IllegalArgumentException', text, REPORT_PATH);
export const malformed = (what: string) => refuse(400, `Malformed report: ${what}`);

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export function uuidField(value: unknown, what: string): string {
  const uuid = typeof value === 'string' ? normalizeUuid(value) : null;
  if (!uuid) throw malformed(`${what} must be a UUID`);
  return uuid;
}

export function instantField(value: unknown, what: string): number {
  const ms = typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms) || ms < 0) throw malformed(`${what} must be an ISO 8601 instant`);
  return ms;
}

export function saltField(value: unknown): bigint {
  // The JSON parser keeps this route's salts as their exact digits (src/app.ts); a plain number is accepted too.
  const text = typeof value === 'string' ? value : typeof value === 'number' && Number.isInteger(value) ? String(value) : '';
  if (!/^-?\d{1,19}$/.test(text)) throw malformed('salt must be a 64-bit integer');
  const salt = BigInt(text);
  if (salt < INT64_MIN || salt > INT64_MAX) throw malformed('salt must be a 64-bit integer');
  return salt;
}

export function signatureField(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length > 700 || !BASE64.test(value)) throw malformed(`${what} must be a base64 signature`);
  return value;
}
