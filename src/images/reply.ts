// How every image answer is sent (contract section 7): ETag, Cache-Control, 304 to a matching If-None-Match.
// Shared by the service's own image routes and the drop-in URLs of other services (src/dropin/).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { matchesEtag } from './etag.ts';
import type { ImageResult } from './service.ts';

/** Short max-age: a player's image changes when they change skin; the ETag makes revalidation cheap. */
export const CHANGING = 'public, max-age=60';
/** A content-addressed file never changes: its address is the digest of its bytes. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Sends an answer with its ETag and Cache-Control (immutable for an image found by texture digests alone, else
 * CHANGING), or 304 when If-None-Match names the ETag. The body is a PNG unless `contentType` says otherwise
 * (CustomSkinAPI's JSON profile is sent the same way).
 */
export function sendImage(
  request: FastifyRequest,
  reply: FastifyReply,
  image: ImageResult | { etag: string; png: string },
  cacheControl = 'immutable' in image && image.immutable ? IMMUTABLE : CHANGING,
  contentType = 'image/png',
) {
  reply.header('etag', image.etag).header('cache-control', cacheControl);
  if (matchesEtag(request.headers['if-none-match'], image.etag)) return reply.code(304).send();
  return reply.type(contentType).send(image.png);
}
