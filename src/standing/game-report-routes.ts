// Reports from the game and forced actions (contract section 24): POST player/report under minecraftservices/ (only
// with GAME_SERVICES), the moderators' queue of game reports with its actions, and the forced rename / blocked skin
// of a profile. Thin: parse, call the services, shape the answers.
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../accounts/authenticate.ts';
import { envelopeSchema, errorResponses, message, ok } from '../http/envelope.ts';
import { objectSchema, withSchemaTypes } from '../http/schema-types.ts';
import { recordSchema } from '../http/shapes/record-schema.ts';
import { LATEST_UNIX_SECONDS } from '../http/pagination.ts';
import { BAN_REASONS } from '../shared/ban-reasons.ts';
import { API_ROOT_PATH, yggdrasilErrors } from '../yggdrasil/errors.ts';
import type { ProfileActionType } from '../yggdrasil/shapes.ts';
import { FORCED_ACTIONS, type ForcedAction, type ForcedActions } from './forced-actions.ts';
import { REPORT_ACTIONS, type GameReport, type GameReports } from './game-reports.ts';

const gameTags = ['game login (Yggdrasil)'];
const adminTags = ['admin'];
const REPORT_CLOSED = message('gameReports.actioned');
const ACTION_FORCED = message('forcedActions.forced');
const ACTION_LIFTED = message('forcedActions.lifted');

const REPORT_EXAMPLE_BODY = {
  version: 1,
  id: '3f0c2a5e9d2b4c1a8e7f6d5c4b3a2918',
  reportType: 'CHAT',
  report: {
    opinionComments: 'Insults after every round',
    reason: 'HARASSMENT_OR_BULLYING',
    evidence: {
      messages: [
        {
          index: 0,
          profileId: '069a79f444e94726a5befca90e38aaf5',
          sessionId: '5b0f3c1e2d4a4b6c8e9f0a1b2c3d4e5f',
          timestamp: '2026-09-01T12:00:00.123Z',
          salt: -1234567890123456789,
          lastSeen: [],
          message: 'the signed plain text',
          signature: '<base64 of 256 bytes>',
          messageReported: true,
        },
      ],
    },
    reportedEntity: { profileId: '069a79f444e94726a5befca90e38aaf5' },
    createdTime: '2026-09-01T12:00:05Z',
  },
  clientInfo: { clientVersion: '1.21.11', locale: 'en-US' },
  thirdPartyServerInfo: { address: 'play.example.org' },
};

/** POST player/report (only with GAME_SERVICES): the game's chat, name and skin reports. */
export function gameReportGameRoute(fastify: FastifyInstance, reports: GameReports) {
  const app = withSchemaTypes(fastify);
  app.post(
    `${API_ROOT_PATH}minecraftservices/player/report`,
    {
      config: { access: 'game' },
      schema: {
        summary:
          'A chat, name or skin report as the game sends it (1.19.1+: the 1.19.1-1.19.2 and the 1.19.3+ chat evidence); chat messages are checked against the keys certified to their sender',
        tags: gameTags,
        body: {
          type: 'object',
          description:
            'the game’s report: reportType CHAT, USERNAME or SKIN; report with reason, evidence.messages, reportedEntity; clientInfo',
          examples: [REPORT_EXAMPLE_BODY],
        },
        response: { 204: { type: 'null', description: 'Stored' }, ...yggdrasilErrors(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await reports.submit(callerOf(request), request.body);
      return reply.code(204).send();
    },
  );
}

const PERSON = { type: 'object', additionalProperties: true } as const;
const REPORT_SCHEMA = recordSchema<GameReport>({
  id: { type: 'integer' },
  kind: { type: 'string', enum: ['chat', 'name', 'skin'] },
  reportId: { type: 'string', description: 'the id the game gave the report' },
  reporter: PERSON,
  subject: { ...PERSON, description: 'the reported profile: uuid, name when reported, currentName (null: deleted)' },
  reason: { type: ['string', 'null'], description: 'the game’s report reason; null for name reports' },
  comment: { type: 'string' },
  attestation: { type: ['string', 'null'], enum: ['full', 'partial', 'none', null] },
  failed: { type: 'array', items: { type: 'integer' }, description: 'positions of the messages that failed verification' },
  evidence: {
    type: 'object',
    additionalProperties: true,
    description: 'messages (in order, each with verified and problem), skin and cape at receipt, client, server',
  },
  state: { type: 'string', enum: ['open', 'dismissed', 'actioned'] },
  created: { type: 'integer', description: 'Unix seconds' },
  closed: { type: ['integer', 'null'] },
  closedBy: { type: ['string', 'null'] },
  action: { type: ['string', 'null'], enum: [...REPORT_ACTIONS, null] },
});
const REPORT_EXAMPLE: GameReport = {
  id: 7,
  kind: 'chat',
  reportId: '3f0c2a5e9d2b4c1a8e7f6d5c4b3a2918',
  reporter: { uuid: 'f1bfcbdd-c68b-49bf-aac9-fb9d8ce5293d', name: 'Steve' },
  subject: { uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5', name: 'Notch', currentName: 'Notch' },
  reason: 'HARASSMENT_OR_BULLYING',
  comment: 'Insults after every round',
  attestation: 'full',
  failed: [],
  evidence: { client: { version: '1.21.11', locale: 'en-US' }, server: 'play.example.org', realm: false, messages: [] },
  state: 'open',
  created: 1788220805,
  closed: null,
  closedBy: null,
  action: null,
};
const REPORT_PARAMS = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } },
} as const;

export function gameReportAdminRoutes(fastify: FastifyInstance, reports: GameReports) {
  const app = withSchemaTypes(fastify);
  app.get(
    '/api/admin/game-reports',
    {
      config: { access: 'moderator' },
      schema: {
        summary: 'Reports from the game: the open ones oldest first, or the closed ones newest first (200 at most)',
        tags: adminTags,
        querystring: { type: 'object', properties: { state: { type: 'string', enum: ['open', 'closed'], default: 'open' } } },
        response: { 200: envelopeSchema({ type: 'array', items: REPORT_SCHEMA }, ok([REPORT_EXAMPLE])), ...errorResponses(400) },
      },
    },
    async (request) => ok(await reports.list(request.query.state ?? 'open')),
  );
  app.post(
    '/api/admin/game-reports/:id/actions',
    {
      config: { access: 'moderator' },
      schema: {
        summary:
          'Close a report from the game with an action on the reported player: dismiss, warn (a mail), ban_multiplayer (until expires), ban_account (admins), force_rename, block_skin',
        tags: adminTags,
        params: REPORT_PARAMS,
        body: objectSchema(
          ['action'],
          {
            action: { type: 'string', enum: [...REPORT_ACTIONS] },
            reason: { type: 'string', enum: [...BAN_REASONS] },
            message: { type: 'string', maxLength: 500 },
            expires: { type: 'integer', minimum: 0, maximum: LATEST_UNIX_SECONDS },
          },
          { action: 'ban_multiplayer', reason: 'HARASSMENT_OR_BULLYING', message: 'Insults in chat', expires: 1790812800 },
        ),
        response: {
          200: envelopeSchema(
            REPORT_SCHEMA,
            ok({ ...REPORT_EXAMPLE, state: 'actioned', closed: 1788300000, closedBy: 'Admin', action: 'ban_multiplayer' }, REPORT_CLOSED),
          ),
          ...errorResponses(400, 403, 404, 409),
        },
      },
    },
    async (request) => ok(await reports.act(callerOf(request), request.params.id, request.body), REPORT_CLOSED),
  );
}

const FORCED_SCHEMA = recordSchema<ForcedAction>({
  action: { type: 'string', enum: [...FORCED_ACTIONS] },
  value: { type: 'string', description: 'the name (lower case) that must change, or the digest of the blocked skin' },
  created: { type: 'integer', description: 'Unix seconds' },
  by: { type: 'string' },
});
const FORCED_EXAMPLE: ForcedAction = { action: 'FORCED_NAME_CHANGE', value: 'notch', created: 1788220800, by: 'Moderator' };
const PROFILE_PARAMS = { type: 'object', required: ['uuid'], properties: { uuid: { type: 'string', maxLength: 64 } } } as const;

export function forcedActionRoutes(fastify: FastifyInstance, forced: ForcedActions) {
  const app = withSchemaTypes(fastify);
  app.get(
    '/api/admin/profiles/:uuid/forced-actions',
    {
      config: { access: 'moderator' },
      schema: {
        summary: 'The rename and skin change forced on a profile that still hold',
        tags: adminTags,
        params: PROFILE_PARAMS,
        response: { 200: envelopeSchema({ type: 'array', items: FORCED_SCHEMA }, ok([FORCED_EXAMPLE])), ...errorResponses(404) },
      },
    },
    async (request) => ok(await forced.list(request.params.uuid)),
  );
  app.post(
    '/api/admin/profiles/:uuid/forced-actions',
    {
      config: { access: 'moderator' },
      schema: {
        summary:
          'Force a rename (FORCED_NAME_CHANGE: no online play until the player renames) or block the skin the profile wears (USING_BANNED_SKIN: left out of its textures until changed); audited',
        tags: adminTags,
        params: PROFILE_PARAMS,
        body: objectSchema(['action'], { action: { type: 'string', enum: [...FORCED_ACTIONS] } }, { action: 'FORCED_NAME_CHANGE' }),
        response: { 201: envelopeSchema(FORCED_SCHEMA, ok(FORCED_EXAMPLE, ACTION_FORCED)), ...errorResponses(400, 403, 404) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(ok(await forced.force(callerOf(request), request.params.uuid, request.body.action as ProfileActionType), ACTION_FORCED)),
  );
  app.delete(
    '/api/admin/profiles/:uuid/forced-actions/:action',
    {
      config: { access: 'moderator' },
      schema: {
        summary: 'Lift a forced rename or skin block before the player acted (audited)',
        tags: adminTags,
        params: {
          type: 'object',
          required: ['uuid', 'action'],
          properties: { uuid: { type: 'string', maxLength: 64 }, action: { type: 'string', enum: [...FORCED_ACTIONS] } },
        },
        response: { 200: envelopeSchema({ type: 'object' }, ok({}, ACTION_LIFTED)), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      await forced.lift(callerOf(request), request.params.uuid, request.params.action);
      return ok({}, ACTION_LIFTED);
    },
  );
}
