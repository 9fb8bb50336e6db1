// The public image endpoints of interface.md 4.3. No token needed; every image carries an ETag and
// answers If-None-Match with 304.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_RENDER_SIZE, MIN_RENDER_SIZE, type RenderType } from '../rendering/render.ts';
import type { ImageResult, ImageService } from './service.ts';

interface ImageQuery {
  size: number;
  type: RenderType;
}

const imageQuery = {
  type: 'object',
  properties: {
    size: { type: 'integer', minimum: MIN_RENDER_SIZE, maximum: MAX_RENDER_SIZE, default: 100 },
    type: { type: 'string', enum: ['skin', 'player'], default: 'skin' },
  },
} as const;
// The file endpoints take `type` too (interface.md), and answer with the texture file for either value.
const fileQuery = { type: 'object', properties: { type: imageQuery.properties.type } } as const;
const pathOf = (name: string) => ({ type: 'object', required: [name], properties: { [name]: { type: 'string', minLength: 1, maxLength: 64 } } }) as const;

function matchesEtag(header: string | undefined, etag: string) {
  return header !== undefined && header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag || candidate.trim() === '*');
}

function sendImage(request: FastifyRequest, reply: FastifyReply, image: ImageResult) {
  // Short max-age: a player's image changes when they change skin; the ETag makes revalidation cheap.
  reply.header('etag', image.etag).header('cache-control', 'public, max-age=60');
  if (matchesEtag(request.headers['if-none-match'], image.etag)) return reply.code(304).send();
  return reply.type('image/png').send(image.png);
}

export function imageRoutes(app: FastifyInstance, images: ImageService) {
  app.get<{ Params: { uuid: string } }>('/api/skin/launcher/:uuid', { schema: { params: pathOf('uuid') } }, async (request) =>
    images.launcherDocument(request.params.uuid),
  );

  /**
   * An image route whose answer is remembered by its exact request URL: a repeat within the resolution time
   * is answered before validation and lookup, which were the largest remaining costs of a cached image.
   */
  const imageRoute = <P extends string>(url: string, param: P, produce: (params: Record<P, string>, query: ImageQuery) => Promise<ImageResult>, query: object = imageQuery) =>
    app.get<{ Params: Record<P, string>; Querystring: ImageQuery }>(
      url,
      {
        schema: { params: pathOf(param), querystring: query },
        onRequest: (request, reply, done) => {
          const recent = images.recentAnswer(request.url);
          if (recent) sendImage(request, reply, recent);
          else done();
        },
      },
      async (request, reply) => {
        const image = await produce(request.params as Record<P, string>, request.query);
        images.rememberAnswer(request.url, image);
        return sendImage(request, reply, image);
      },
    );

  for (const view of ['head', 'body'] as const) {
    imageRoute(`/api/skin/${view}/:uuid`, 'uuid', (params, query) => images.playerImage(view, params.uuid, query.type, query.size));
  }
  imageRoute('/api/skin/cloak/:id', 'id', (params, query) => images.cloakPath(params.id, query.type, query.size));
  imageRoute('/api/skin/standart/cape/:uuid', 'uuid', (params) => images.capeFile(params.uuid), fileQuery);
}
