// The drop-in URLs of other services (contract section 13): thin routes over the image service, which resolves
// identifiers, renders and caches exactly as for the service's own image endpoints.
import type { FastifyInstance } from 'fastify';
import type { ImageService } from '../images/service.ts';
import { crafatarRoutes } from './crafatar.ts';
import { customSkinApiRoutes } from './csl.ts';
import { minotarRoutes } from './minotar.ts';

export function dropInRoutes(app: FastifyInstance, images: ImageService) {
  customSkinApiRoutes(app, images);
  crafatarRoutes(app, images);
  minotarRoutes(app, images);
}
