// The skin library's routes (contract section 19): publishing from the wardrobe, the public library, saving copies.
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../accounts/authenticate.ts';
import { envelopeSchema, errorResponses, message, ok } from '../http/envelope.ts';
import { pageEnvelope, pageResponse } from '../http/pagination.ts';
import { CAPE_RECORD_SCHEMA } from '../http/shapes/cape-record.ts';
import { SKIN_DIGEST, SKIN_UUID } from '../http/shapes/example-story.ts';
import { LIBRARY_ENTRY_EXAMPLE, LIBRARY_ENTRY_SCHEMA, type EntryKind } from '../http/shapes/library-entry.ts';
import { recordSchema } from '../http/shapes/record-schema.ts';
import { SKIN_EXAMPLE, SKIN_RECORD_SCHEMA } from '../http/shapes/skin-record.ts';
import { withSchemaTypes } from '../http/schema-types.ts';
import type { TextureBlock, TextureBlocks } from './blocks.ts';
import type { LibraryService } from './service.ts';

const PUBLISHED = message('library.published');
const WITHDRAWN = message('library.withdrawn');
const SAVED = message('library.saved');
const REMOVED = message('library.removed');
const BLOCKED = message('library.blocked');
const UNBLOCKED = message('library.unblocked');
const DECIDED = message('review.decided');

const entryIdParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } },
} as const;
const wardrobeParams = { type: 'object', required: ['uuid'], properties: { uuid: { type: 'string', maxLength: 64 } } } as const;
const publishBody = {
  type: 'object',
  required: ['source'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', maxLength: 64, description: "default: the wardrobe record's name" },
    description: { type: 'string', maxLength: 500 },
    source: { type: 'string', enum: ['original', 'derivative', 'repost'] },
    source_url: { type: 'string', maxLength: 500, description: 'where the picture comes from (http:// or https://)' },
  },
  examples: [{ name: 'Autumn hoodie', description: 'Drawn for the autumn event', source: 'original' }],
} as const;
const libraryQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    kind: { type: 'string', enum: ['skin', 'cape'] },
    model: { type: 'string', enum: ['classic', 'slim'] },
    q: { type: 'string', maxLength: 64, description: 'part of the name, without regard to case' },
    uploader: { type: 'string', maxLength: 64, description: "the publisher's player name or UUID" },
    sort: { type: 'string', enum: ['new', 'popular'], default: 'new' },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 48 },
    offset: { type: 'integer', minimum: 0, maximum: 2_147_483_647, default: 0 },
  },
} as const;
const tags = ['library'];
const withdrawnSchema = envelopeSchema({ type: 'object', properties: { id: { type: 'integer' } } }, ok({ id: 12 }, WITHDRAWN));

export function libraryRoutes(fastify: FastifyInstance, library: LibraryService, blocks: TextureBlocks) {
  const app = withSchemaTypes(fastify);

  for (const kind of ['skin', 'cape'] as const satisfies EntryKind[]) {
    const what = kind === 'skin' ? 'one of your wardrobe skins' : 'a cape you uploaded';
    app.post(
      `/api/home/${kind}s/:uuid/publish`,
      {
        config: { access: 'player' },
        schema: {
          summary: `Publish ${what} to the library (one public entry per picture: 409 with data.id of the one there is; at most 20 in any 24 hours)`,
          tags,
          params: wardrobeParams,
          body: publishBody,
          response: { 201: envelopeSchema(LIBRARY_ENTRY_SCHEMA, ok(LIBRARY_ENTRY_EXAMPLE, PUBLISHED)), ...errorResponses(404, 409, 429) },
        },
      },
      async (request, reply) =>
        reply.code(201).send(ok(await library.publish(callerOf(request), kind, request.params.uuid, request.body), PUBLISHED)),
    );
    app.delete(
      `/api/home/${kind}s/:uuid/publish`,
      {
        config: { access: 'player' },
        schema: {
          summary: `Withdraw ${what} from the library; copies others saved stay theirs`,
          tags,
          params: wardrobeParams,
          response: { 200: withdrawnSchema, ...errorResponses(404) },
        },
      },
      async (request) => ok(await library.withdraw(callerOf(request), kind, request.params.uuid), WITHDRAWN),
    );
  }

  app.get(
    '/api/library',
    {
      schema: {
        summary: 'The public library: filtered, sorted (new or popular) and paged; the total in X-Total-Count',
        tags,
        querystring: libraryQuery,
        response: { 200: pageResponse(LIBRARY_ENTRY_SCHEMA, LIBRARY_ENTRY_EXAMPLE) },
      },
    },
    async (request, reply) => pageEnvelope(reply, await library.list(request.query)),
  );

  app.get(
    '/api/library/:id',
    {
      schema: {
        summary:
          'One library entry: a public one to anyone; a pending or refused one only to its owner and moderators (send their token), else 404',
        tags,
        params: entryIdParams,
        response: { 200: envelopeSchema(LIBRARY_ENTRY_SCHEMA, ok(LIBRARY_ENTRY_EXAMPLE)), ...errorResponses(404) },
      },
    },
    async (request) => ok(await library.entry(request.params.id, () => fastify.callerIfAny(request))),
  );

  app.post(
    '/api/library/:id/save',
    {
      config: { access: 'player' },
      schema: {
        summary:
          'Save a copy of a public entry into your wardrobe (a skin counts in the 100-skin limit; a cape is one of your own, with USER_CAPES=true); your own entry or one saved already: 409',
        tags,
        params: entryIdParams,
        body: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: { name: { type: 'string', maxLength: 64, description: "default: the entry's name" } },
          examples: [{ name: 'Autumn hoodie' }],
        },
        response: {
          201: envelopeSchema({ anyOf: [SKIN_RECORD_SCHEMA, CAPE_RECORD_SCHEMA] }, ok({ ...SKIN_EXAMPLE, uuid: SKIN_UUID }, SAVED)),
          ...errorResponses(403, 404, 409),
        },
      },
    },
    async (request, reply) => reply.code(201).send(ok(await library.save(callerOf(request), request.params.id, request.body?.name), SAVED)),
  );

  app.delete(
    '/api/library/:id/save',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Remove your saved copy of an entry from your wardrobe',
        tags,
        params: entryIdParams,
        response: {
          200: envelopeSchema({ type: 'object', properties: { id: { type: 'integer' } } }, ok({ id: 12 }, REMOVED)),
          ...errorResponses(404),
        },
      },
    },
    async (request) => ok(await library.unsave(callerOf(request), request.params.id), REMOVED),
  );

  app.get(
    '/api/home/library',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Your own library entries: public, pending (waiting for review with LIBRARY_REVIEW=true) and refused, newest first',
        tags,
        response: { 200: envelopeSchema({ type: 'array', items: LIBRARY_ENTRY_SCHEMA }, ok([LIBRARY_ENTRY_EXAMPLE])) },
      },
    },
    async (request) => ok(await library.own(callerOf(request))),
  );

  app.get(
    '/api/admin/library',
    {
      config: { access: 'moderator' },
      schema: {
        summary: 'The review queue (LIBRARY_REVIEW=true): pending entries oldest first, or refused ones newest first',
        tags: ['admin'],
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            state: { type: 'string', enum: ['pending', 'refused'], default: 'pending' },
            limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
            offset: { type: 'integer', minimum: 0, maximum: 2_147_483_647, default: 0 },
          },
        },
        response: { 200: pageResponse(LIBRARY_ENTRY_SCHEMA, { ...LIBRARY_ENTRY_EXAMPLE, state: 'pending' }) },
      },
    },
    async (request, reply) => pageEnvelope(reply, await library.reviewQueue(request.query)),
  );

  app.patch(
    '/api/admin/library/:id',
    {
      config: { access: 'moderator' },
      schema: {
        summary: "Decide on a pending entry: public publishes it; refused withdraws it and mails its owner (in the owner's language)",
        tags: ['admin'],
        params: entryIdParams,
        body: {
          type: 'object',
          required: ['state'],
          additionalProperties: false,
          properties: {
            state: { type: 'string', enum: ['public', 'refused'] },
            reason: { type: 'string', maxLength: 500, description: 'why (told to the owner when refused)' },
          },
          examples: [{ state: 'refused', reason: 'Not drawn by the publisher' }],
        },
        response: { 200: envelopeSchema(LIBRARY_ENTRY_SCHEMA, ok(LIBRARY_ENTRY_EXAMPLE, DECIDED)), ...errorResponses(404, 409) },
      },
    },
    async (request) => ok(await library.decide(callerOf(request), request.params.id, request.body.state, request.body.reason), DECIDED),
  );

  const blockSchema = recordSchema<TextureBlock>({
    digest: { type: 'string' },
    reason: { type: 'string' },
    created: { type: 'integer' },
  });
  const blockExample: TextureBlock = { digest: SKIN_DIGEST, reason: 'Offensive picture', created: 1_767_225_600 };
  const admin = ['admin'];
  app.get(
    '/api/admin/texture-blocks',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'The blocked pictures, newest first',
        tags: admin,
        response: { 200: envelopeSchema({ type: 'array', items: blockSchema }, ok([blockExample])) },
      },
    },
    async () => ok(await blocks.list()),
  );
  app.post(
    '/api/admin/texture-blocks',
    {
      config: { access: 'admin' },
      schema: {
        summary:
          'Block a picture by its canonical texture digest: no upload, launcher upload, import or library save accepts it (403), and its library entry is unpublished; blocked already: 409',
        tags: admin,
        body: {
          type: 'object',
          required: ['digest'],
          additionalProperties: false,
          properties: {
            digest: { type: 'string', maxLength: 64, description: 'the texture digest (64 hex digits), as records and entries show it' },
            reason: { type: 'string', maxLength: 500 },
          },
          examples: [{ digest: SKIN_DIGEST, reason: 'Offensive picture' }],
        },
        response: { 201: envelopeSchema(blockSchema, ok(blockExample, BLOCKED)), ...errorResponses(409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(ok(await blocks.block(callerOf(request), request.body.digest, request.body.reason), BLOCKED)),
  );
  app.delete(
    '/api/admin/texture-blocks/:digest',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Lift the block of a picture',
        tags: admin,
        params: { type: 'object', required: ['digest'], properties: { digest: { type: 'string', maxLength: 64 } } },
        response: {
          200: envelopeSchema({ type: 'object', properties: { digest: { type: 'string' } } }, ok({ digest: SKIN_DIGEST }, UNBLOCKED)),
          ...errorResponses(404),
        },
      },
    },
    async (request) => ok(await blocks.unblock(callerOf(request), request.params.digest), UNBLOCKED),
  );
}
