// Secrets clients send: reading a bearer token, comparing a shared secret, and the hash a token is stored as.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Whether the Authorization header is `Bearer <secret>`. Both sides are hashed first, so that the comparison runs on
 * equal lengths in constant time and tells nothing of the secret's length either.
 */
export function bearerMatches(header: string | undefined, secret: string): boolean {
  return timingSafeEqual(digest(header ?? ''), digest(`Bearer ${secret}`));
}

/** The token of an `Authorization: Bearer <token>` header, or null when the header is missing or of another form. */
export function bearerToken(header: string | undefined): string | null {
  return (header && /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1]) || null;
}

/** How a random token is stored: its SHA-256 in hex. Fast on purpose: the token itself has 128 bits or more. */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
