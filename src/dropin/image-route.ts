// One image URL of another service (contract section 13), over the image service: parse what the route knows,
// answer a repeat from the answer cache under a key of the parsed values, else produce and remember.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { cachedImageRoute, imageClientOf } from '../images/routes.ts';
import type { ImageClient, ImageResult, ImageService } from '../images/service.ts';
import type { Query } from './params.ts';

export type DropInRequest<P> = FastifyRequest<{ Params: P; Querystring: Query }>;

interface DropInImage<P, T> {
  /** Reads what the route knows from the path and query; throws the API error for a value it refuses. */
  parse: (request: DropInRequest<P>) => T;
  /** The answer-cache key: built from the parsed values only, so that unknown (cache-busting) parameters share it. */
  key: (parsed: T) => string;
  produce: (parsed: T, client: ImageClient) => Promise<ImageResult>;
  headers?: Record<string, string>;
}

/**
 * An image URL of another service: answer-cached like the own image routes, but under a key built from the parsed
 * parameters, never from the request URL. The request is parsed once; a refused value is answered with its error.
 */
export function dropInImageRoute<P, T>(app: FastifyInstance, images: ImageService, url: string, route: DropInImage<P, T>) {
  cachedImageRoute(app, images, url, {
    parse: route.parse,
    key: route.key,
    produce: (parsed, request) => route.produce(parsed, imageClientOf(request)),
    headers: route.headers,
  });
}
