// Reports of library entries and the moderation queue's routes (contract section 19).
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../accounts/authenticate.ts';
import { envelopeSchema, errorResponses, message, ok } from '../http/envelope.ts';
import { pageEnvelope, pageResponse } from '../http/pagination.ts';
import { BASE, PLAYER_UUID, SKIN_DIGEST } from '../http/shapes/example-story.ts';
import { recordSchema } from '../http/shapes/record-schema.ts';
import { withSchemaTypes } from '../http/schema-types.ts';
import { REPORT_ACTIONS, REPORT_REASONS, type ReportAction, type ReportQuery, type ReportRecord, type Reports } from './reports.ts';

const REPORTED = message('reports.reported');
const RESOLVED = message('reports.resolved');

const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] });
const person = { type: 'object', properties: { uuid: { type: 'string' }, name: { type: 'string' } } } as const;

const REPORT_SCHEMA = recordSchema<ReportRecord>({
  id: { type: 'integer' },
  kind: { type: 'string', enum: ['library', 'chat', 'name', 'skin'] },
  state: { type: 'string', enum: ['open', 'dismissed', 'actioned'] },
  reason: { type: 'string', enum: [...REPORT_REASONS] },
  message: { type: 'string' },
  created: { type: 'integer', description: 'Unix seconds' },
  closed: { type: ['integer', 'null'], description: 'Unix seconds' },
  closed_by: { type: ['string', 'null'] },
  action: { type: ['string', 'null'], enum: [...REPORT_ACTIONS, null] },
  action_reason: { type: ['string', 'null'] },
  reporter: nullable(person),
  entry: nullable({
    type: 'object',
    properties: {
      id: { type: 'integer' },
      kind: { type: 'string', enum: ['skin', 'cape'] },
      model: { type: ['string', 'null'] },
      name: { type: 'string' },
      digest: { type: 'string' },
      url: { type: 'string' },
      state: { type: 'string', enum: ['public', 'pending', 'refused', 'withdrawn'] },
      owner: person,
    },
  }),
  history: {
    type: 'array',
    items: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        state: { type: 'string' },
        reason: { type: 'string' },
        action: { type: ['string', 'null'] },
        created: { type: 'integer' },
        closed: { type: ['integer', 'null'] },
      },
    },
  },
});

const REPORT_EXAMPLE: ReportRecord = {
  id: 5,
  kind: 'library',
  state: 'open',
  reason: 'copyright',
  message: 'I drew this; it was posted without asking',
  created: 1_767_225_600,
  closed: null,
  closed_by: null,
  action: null,
  action_reason: null,
  reporter: { uuid: '0f3a2b1c-4d5e-4f60-8a7b-9c0d1e2f3a4b', name: 'Alex' },
  entry: {
    id: 12,
    kind: 'skin',
    model: 'slim',
    name: 'Autumn hoodie',
    digest: SKIN_DIGEST,
    url: `${BASE}/textures/${SKIN_DIGEST}`,
    state: 'public',
    owner: { uuid: PLAYER_UUID, name: 'Steve' },
  },
  history: [],
};

const entryIdParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } },
} as const;
const actionBody = {
  type: 'object',
  required: ['action'],
  additionalProperties: false,
  properties: {
    action: {
      type: 'string',
      enum: [...REPORT_ACTIONS],
      description: 'moderators: dismiss, unpublish; admins also remove_everywhere, block_digest, ban_owner',
    },
    reason: { type: 'string', maxLength: 500, description: "why: kept with the report, and in the owners' mail" },
  },
  examples: [{ action: 'unpublish', reason: 'Not drawn by the publisher' }],
} as const;
const tags = ['library'];
const admin = ['admin'];
const reportResponses = { 201: envelopeSchema(REPORT_SCHEMA, ok(REPORT_EXAMPLE, REPORTED)), ...errorResponses(404, 409, 429) };

export function reportRoutes(fastify: FastifyInstance, reports: Reports) {
  const app = withSchemaTypes(fastify);

  app.post(
    '/api/library/:id/reports',
    {
      config: { access: 'player' },
      schema: {
        summary:
          'Report a public library entry to the moderators (one open report per player and entry, else 409; at most 10 in any 24 hours)',
        tags,
        params: entryIdParams,
        body: {
          type: 'object',
          required: ['reason'],
          additionalProperties: false,
          properties: {
            reason: { type: 'string', enum: [...REPORT_REASONS] },
            message: { type: 'string', maxLength: 500, description: 'what is wrong (needed with the reason other)' },
          },
          examples: [{ reason: 'copyright', message: 'I drew this; it was posted without asking' }],
        },
        response: reportResponses,
      },
    },
    async (request, reply) => reply.code(201).send(ok(await reports.report(callerOf(request), request.params.id, request.body), REPORTED)),
  );

  app.post(
    '/api/library/:id/report',
    {
      config: { access: 'player' },
      schema: {
        summary: "Report a public library entry with a reason in one's own words (the same as .../reports with the reason other)",
        tags,
        params: entryIdParams,
        body: {
          type: 'object',
          required: ['reason'],
          additionalProperties: false,
          properties: { reason: { type: 'string', minLength: 1, maxLength: 500 } },
          examples: [{ reason: 'Offensive picture' }],
        },
        response: reportResponses,
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(ok(await reports.report(callerOf(request), request.params.id, { reason: 'other', message: request.body.reason }), REPORTED)),
  );

  app.get(
    '/api/admin/reports',
    {
      config: { access: 'moderator' },
      schema: {
        summary:
          'The moderation queue: reports with the entry, its owner, the reporter, the reason and the other reports of the entry; open ones oldest first, closed ones newest first',
        tags: admin,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            kind: { type: 'string', enum: ['library'], default: 'library' },
            state: { type: 'string', enum: ['open', 'closed', 'dismissed', 'actioned'], description: 'default open' },
            status: { type: 'string', enum: ['open', 'resolved', 'dismissed'], description: 'the same as state (resolved: actioned)' },
            limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
            offset: { type: 'integer', minimum: 0, maximum: 2_147_483_647, default: 0 },
          },
        },
        response: { 200: pageResponse(REPORT_SCHEMA, REPORT_EXAMPLE) },
      },
    },
    async (request, reply) => {
      const { kind, state, status, limit, offset } = request.query;
      const wanted: ReportQuery['state'] = state ?? (status === 'resolved' ? 'actioned' : (status ?? 'open'));
      return pageEnvelope(reply, await reports.list({ kind, state: wanted, limit, offset }));
    },
  );

  const act = {
    config: { access: 'moderator' },
    schema: {
      tags: admin,
      params: entryIdParams,
      body: actionBody,
      response: {
        200: envelopeSchema(REPORT_SCHEMA, ok({ ...REPORT_EXAMPLE, state: 'actioned' }, RESOLVED)),
        ...errorResponses(403, 404, 409),
      },
    },
  } as const;
  const summary =
    'Close a report, and every open report of the same entry, with an action: moderators dismiss or unpublish; admins also remove_everywhere (every wardrobe copy deleted, owners mailed), block_digest or ban_owner';
  const handler = async (
    request: { params: { id: number }; body: { action: ReportAction; reason?: string } },
    caller: ReturnType<typeof callerOf>,
  ) => ok(await reports.act(caller, request.params.id, request.body.action, request.body.reason), RESOLVED);
  app.post('/api/admin/reports/:id/actions', { ...act, schema: { ...act.schema, summary } }, async (request) =>
    handler(request, callerOf(request)),
  );
  app.patch(
    '/api/admin/reports/:id',
    { ...act, schema: { ...act.schema, summary: `${summary} (the same as POST .../actions)` } },
    async (request) => handler(request, callerOf(request)),
  );
}
