// One image URL of another service (contract section 13), over the image service: parse what the route knows,
// answer a repeat from the answer cache under a key of the parsed values, else produce and remember.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CHANGING, sendImage } from '../images/reply.ts';
import type { ImageResult, ImageService } from '../images/service.ts';
import type { Query } from './params.ts';

export type DropInRequest<P> = FastifyRequest<{ Params: P; Querystring: Query }>;

export interface DropInImage<P, T> {
  /** Reads what the route knows from the path and query; throws the API error for a value it refuses. */
  parse: (request: DropInRequest<P>) => T;
  /** The answer-cache key: built from the parsed values only, so that unknown (cache-busting) parameters share it. */
  key: (parsed: T) => string;
  produce: (parsed: T) => Promise<ImageResult>;
  headers?: Record<string, string>;
}

/**
 * An image URL of another service. Like the own image routes, an answer is remembered (for the image service's
 * answer time) and a repeat is sent from the onRequest hook, before the rest of the request's life; unlike them the
 * key is built from the parsed parameters, never from the request URL.
 */
export function dropInImageRoute<P, T>(app: FastifyInstance, images: ImageService, url: string, route: DropInImage<P, T>) {
  const send = (request: FastifyRequest, reply: FastifyReply, image: ImageResult) => {
    if (route.headers) reply.headers(route.headers);
    return sendImage(request, reply, image, CHANGING);
  };
  app.get<{ Params: P; Querystring: Query }>(
    url,
    {
      onRequest: (request, reply, done) => {
        let recent: ImageResult | undefined;
        try {
          recent = images.recentAnswer(route.key(route.parse(request)));
        } catch {
          // A refused value: the handler parses again and answers with the error.
        }
        if (recent) send(request, reply, recent);
        else done();
      },
    },
    async (request, reply) => {
      const parsed = route.parse(request);
      const image = await route.produce(parsed);
      images.rememberAnswer(route.key(parsed), image);
      return send(request, reply, image);
    },
  );
}
