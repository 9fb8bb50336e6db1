// The public image endpoints of interface.md 4.3. No token needed; every image carries an ETag and
// answers If-None-Match with 304.
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { envelopeSchema, errorResponses, ok } from '../http/envelope.ts';
import { BASE, SKIN_DIGEST } from '../http/shapes/example-story.ts';
import { recordSchema } from '../http/shapes/record-schema.ts';
import { LAUNCHER_DOCUMENT_EXAMPLE, LAUNCHER_DOCUMENT_SCHEMA } from '../http/shapes/launcher-document.ts';
import { MAX_RENDER_SIZE, MIN_RENDER_SIZE, type RenderType } from '../rendering/render.ts';
import { IMMUTABLE, sendImage } from './reply.ts';
import type { ImageClient, ImageResult, ImageService, RecentSkin } from './service.ts';
import { withSchemaTypes } from '../http/schema-types.ts';

interface ImageQuery {
  size: number;
  type: RenderType;
  overlay: 'true' | 'false';
}

// Unknown parameters are refused (400): each distinct URL that passes validation may be remembered as an answer.
const imageQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    size: { type: 'integer', minimum: MIN_RENDER_SIZE, maximum: MAX_RENDER_SIZE, default: 100 },
    type: { type: 'string', enum: ['skin', 'player'], default: 'skin' },
    // The second layer (contract section 13): drawn unless `false`.
    overlay: { type: 'string', enum: ['true', 'false'], default: 'true' },
  },
} as const;
// The file endpoints take `type` too (interface.md), and answer with the texture file for either value.
const fileQuery = { type: 'object', additionalProperties: false, properties: { type: imageQuery.properties.type } } as const;
const pathOf = (name: string, description?: string) =>
  ({
    type: 'object',
    required: [name],
    properties: { [name]: { type: 'string', minLength: 1, maxLength: 64, ...(description && { description }) } },
  }) as const;
/** What an image path takes (contract sections 7 and 25). */
const IDENTIFIERS = {
  player:
    'a player UUID (with or without dashes) or name, a skin UUID, or the texture digest of a skin (64 hex digits: the answer is then immutable)',
  cloak:
    'a cape UUID or texture digest (the cloak), or a player UUID or name, skin UUID or skin texture digest (the skin file); a digest is answered immutable',
  cape: 'a cape UUID or texture digest (answered immutable), or a player UUID or name, or skin UUID (the cape worn)',
};

const tags = ['images'];
// No envelope (interface.md 4.3): `{}` for a player without textures and for an identifier nothing has.
const launcherDocumentSchema = { ...LAUNCHER_DOCUMENT_SCHEMA, examples: [LAUNCHER_DOCUMENT_EXAMPLE] };
/** The answers of an image route that only sends files. */
const fileResponses = {
  200: {
    description: 'The PNG',
    headers: { etag: { type: 'string', description: 'made of the texture digests and the parameters' } },
    content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
  },
  304: { description: 'Not modified: the If-None-Match ETag still holds', type: 'null' },
  ...errorResponses(404),
};
/** An image not in the render cache counts on the address's renders of the minute (429) and waits its turn (503). */
const renderResponses = { ...fileResponses, ...errorResponses(429, 503) };

/** `/textures/{hash}`, and any other path that must answer exactly like it (CustomSkinAPI's `/csl/textures/{hash}`). */
export function textureFileRoute(fastify: FastifyInstance, images: ImageService, url: string, summary: string) {
  const app = withSchemaTypes(fastify);
  app.get(
    url,
    {
      schema: {
        summary,
        tags,
        params: { type: 'object', required: ['hash'], properties: { hash: { type: 'string', pattern: '^[0-9a-f]{64}$' } } },
        response: fileResponses,
      },
    },
    async (request, reply) => sendImage(request, reply, await images.textureFile(request.params.hash), IMMUTABLE),
  );
}

/** What an answer-cached image route needs: see cachedImageRoute. */
export interface CachedImage<P, Q, T> {
  schema?: FastifySchema;
  /**
   * Reads what the answer-cache key is made of, once, in the onRequest hook (before schema validation); throws the
   * API error for a value it refuses. The handler gets the same value back.
   */
  parse: (request: FastifyRequest<{ Params: P; Querystring: Q }>) => T;
  /** The answer-cache key of the parsed value. */
  key: (parsed: T) => string;
  produce: (parsed: T, request: FastifyRequest<{ Params: P; Querystring: Q }>) => Promise<ImageResult>;
  headers?: Record<string, string>;
}

/**
 * An image route whose answer is remembered (for the image service's answer time) under a key: a repeat is sent
 * from the onRequest hook, before the rest of the request's life (validation, lookup), which were the largest
 * remaining costs of a cached image. Only an answer the handler produced is remembered, so a request that fails
 * parsing or validation never makes a key. An error thrown by `parse` goes to the error handler.
 */
export function cachedImageRoute<P, Q, T>(app: FastifyInstance, images: ImageService, url: string, route: CachedImage<P, Q, T>) {
  const send = (request: FastifyRequest, reply: FastifyReply, image: ImageResult) => {
    if (route.headers) reply.headers(route.headers);
    return sendImage(request, reply, image);
  };
  // The parsed value of a request not answered from the cache, for its handler (no second parse).
  const parsedOf = new WeakMap<FastifyRequest, T>();
  // The schema is the caller's, and `parse` reads the request before it is checked: the caller names the types.
  app.get<{ Params: P; Querystring: Q }>(
    url,
    {
      schema: route.schema,
      onRequest: (request, reply, done) => {
        let parsed: T;
        try {
          parsed = route.parse(request);
        } catch (error) {
          done(error as Error);
          return;
        }
        const recent = images.recentAnswer(route.key(parsed));
        if (recent) {
          send(request, reply, recent);
          return;
        }
        parsedOf.set(request, parsed);
        done();
      },
    },
    async (request, reply) => {
      const parsed = parsedOf.get(request) as T;
      const image = await route.produce(parsed, request);
      // A 304 answered without the image (the client had it, the render cache did not) has nothing to remember.
      if (!image.unchanged) images.rememberAnswer(route.key(parsed), image);
      return send(request, reply, image);
    },
  );
}

/** Who asks for an image, as the image service counts uncached renders and answers revalidations. */
export const imageClientOf = (request: FastifyRequest): ImageClient => ({
  address: request.ip,
  ifNoneMatch: request.headers['if-none-match'],
});

const RECENT_SKIN_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['skin'],
  properties: {
    skin: {
      anyOf: [
        recordSchema<RecentSkin>({
          url: { type: 'string', description: 'where the texture file is' },
          digest: { type: 'string', description: 'SHA-256 of the file, hexadecimal' },
          slim: { type: 'boolean' },
        }),
        { type: 'null' },
      ],
    },
  },
} as const;
const RECENT_SKIN_EXAMPLE = { skin: { url: `${BASE}/textures/${SKIN_DIGEST}`, digest: SKIN_DIGEST, slim: true } };

export function imageRoutes(fastify: FastifyInstance, images: ImageService) {
  const app = withSchemaTypes(fastify);
  // The front page's figure: a texture, never who wears it. Browsers may keep it a minute.
  app.get(
    '/api/skin/recent',
    {
      schema: {
        summary: 'The newest skin a player wears (its texture file only, never whose it is), or null; for the front page',
        tags,
        response: { 200: envelopeSchema(RECENT_SKIN_SCHEMA, ok(RECENT_SKIN_EXAMPLE)) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=60');
      return ok({ skin: await images.recentSkin() });
    },
  );

  app.get(
    '/api/skin/launcher/:uuid',
    {
      schema: {
        summary:
          "The launcher document (no envelope): a player's skin (by player UUID, username or skin UUID) and cape; {} for an identifier nothing has",
        tags,
        params: pathOf('uuid'),
        response: { 200: launcherDocumentSchema },
      },
    },
    async (request) => images.launcherDocument(request.params.uuid),
  );

  textureFileRoute(
    app,
    images,
    '/textures/:hash',
    'A texture file by the SHA-256 of its bytes (the game login hands out these addresses); never changes',
  );

  /**
   * An image route whose answer is remembered by its exact request URL. Only a URL that passed validation is
   * remembered, so a URL with junk in it is never a key and never skips validation.
   */
  const imageRoute = <P extends string>(
    url: string,
    param: P,
    identifier: keyof typeof IDENTIFIERS,
    summary: string,
    produce: (params: Record<P, string>, query: ImageQuery, client: ImageClient) => Promise<ImageResult>,
    query: object = imageQuery,
  ) =>
    cachedImageRoute(app, images, url, {
      schema: {
        summary,
        tags,
        params: pathOf(param, IDENTIFIERS[identifier]),
        querystring: query,
        response: query === fileQuery ? fileResponses : renderResponses,
      },
      parse: (request: FastifyRequest<{ Params: Record<P, string>; Querystring: ImageQuery }>) => request.url,
      key: (requestUrl) => requestUrl,
      produce: (_requestUrl, request) => produce(request.params as Record<P, string>, request.query, imageClientOf(request)),
    });

  const VIEW_SUMMARIES = {
    head: 'The head',
    body: 'The whole body',
    bust: 'The bust (head, and torso and arms down to two thirds of their height; no legs)',
  };
  for (const view of ['head', 'body', 'bust'] as const) {
    imageRoute(
      `/api/skin/${view}/:uuid`,
      'uuid',
      'player',
      `${VIEW_SUMMARIES[view]} of a player (player UUID or username) or skin (skin UUID): type=skin flat, type=player in 3D; overlay=false leaves the second layer out`,
      (params, query, client) =>
        images.playerImage(view, params.uuid, query.type, query.size, { client, overlay: query.overlay !== 'false' }),
    );
  }
  imageRoute(
    '/api/skin/cloak/:id',
    'id',
    'cloak',
    'A cape UUID: the cloak (type=skin its outer face, type=player the default player wearing it); a player or skin: the skin file',
    (params, query, client) => images.cloakPath(params.id, query.type, query.size, { client, overlay: query.overlay !== 'false' }),
  );
  imageRoute(
    '/api/skin/standart/cape/:uuid',
    'uuid',
    'cape',
    'The cape file of a cape UUID, or of the cape a player (or skin) wears',
    (params) => images.capeFile(params.uuid),
    fileQuery,
  );
}
