// The drop-in URLs of other services (contract section 13): thin routes over the image service, which resolves
// identifiers, renders and caches exactly as for the service's own image endpoints.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CHANGING, sendImage } from '../images/reply.ts';
import type { ImageResult, ImageService } from '../images/service.ts';
import { crafatarRoutes } from './crafatar.ts';
import { customSkinApiRoutes } from './csl.ts';
import { minotarRoutes } from './minotar.ts';

/**
 * Answers with an image, remembering it under `key` (built from the parameters the route knows, never from the
 * request URL, so that cache-busting junk shares the entry) for the image service's answer time; a repeat within it
 * skips resolution and rendering. `key` must come from parameters that already passed their checks.
 */
export async function answerImage(
  request: FastifyRequest,
  reply: FastifyReply,
  images: ImageService,
  key: string,
  produce: () => Promise<ImageResult>,
  headers: Record<string, string> = {},
) {
  let image = images.recentAnswer(key);
  if (!image) {
    image = await produce();
    images.rememberAnswer(key, image);
  }
  reply.headers(headers);
  return sendImage(request, reply, image, CHANGING);
}

export function dropInRoutes(app: FastifyInstance, images: ImageService) {
  customSkinApiRoutes(app, images);
  crafatarRoutes(app, images);
  minotarRoutes(app, images);
}
