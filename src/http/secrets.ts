// Comparing a shared secret sent by a client (a bearer token in the Authorization header).
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Whether the Authorization header is `Bearer <secret>`. Both sides are hashed first, so that the comparison runs on
 * equal lengths in constant time and tells nothing of the secret's length either.
 */
export function bearerMatches(header: string | undefined, secret: string): boolean {
  return timingSafeEqual(digest(header ?? ''), digest(`Bearer ${secret}`));
}
