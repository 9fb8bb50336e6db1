// Registration control in the API (issue 14, item 10): the mode the pages read, the owner's switch, and the admins'
// invitations (create, list, withdraw).
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../accounts/authenticate.ts';
import { MAX_USER_ID } from '../accounts/identifiers.ts';
import { envelopeSchema, errorResponses, languageOf, message, ok } from '../http/envelope.ts';
import { pageEnvelope, pageQuerySchema, pageResponse } from '../http/pagination.ts';
import {
  MODE_OR_NULL_SCHEMA,
  INVITE_RECORD_EXAMPLE,
  INVITE_RECORD_SCHEMA,
  NEW_INVITE_EXAMPLE,
  NEW_INVITE_SCHEMA,
  PUBLIC_REGISTRATION_EXAMPLE,
  PUBLIC_REGISTRATION_SCHEMA,
  REGISTRATION_STATE_EXAMPLE,
  REGISTRATION_STATE_SCHEMA,
} from '../http/shapes/registration.ts';
import { DEFAULT_INVITE_DAYS, MAX_INVITE_DAYS, MAX_NOTE_LENGTH, type Registration } from './service.ts';
import { withSchemaTypes } from '../http/schema-types.ts';

const MODE_SET = message('registration.modeSet');
const INVITE_CREATED = message('registration.inviteCreated');
const INVITE_REVOKED = message('registration.inviteRevoked');

export function registrationRoutes(fastify: FastifyInstance, registration: Registration) {
  const app = withSchemaTypes(fastify);
  app.get(
    '/api/auth/registration',
    {
      schema: {
        summary: 'Who may register: open, invite (by invitation only) or closed; with invite, whether that invitation can be used',
        tags: ['auth'],
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { invite: { type: 'string', maxLength: 256, description: 'the code of an invitation link' } },
        },
        response: { 200: envelopeSchema(PUBLIC_REGISTRATION_SCHEMA, ok(PUBLIC_REGISTRATION_EXAMPLE)), ...errorResponses(429) },
      },
    },
    async (request) => ok(await registration.publicState(request.query.invite, request.ip, languageOf(request))),
  );

  const tags = ['admin'];
  app.get(
    '/api/admin/registration',
    {
      config: { access: 'moderator' },
      schema: {
        summary: 'The registration mode in force, the REGISTRATION setting, and the console’s choice that overrides it',
        tags,
        response: { 200: envelopeSchema(REGISTRATION_STATE_SCHEMA, ok(REGISTRATION_STATE_EXAMPLE)) },
      },
    },
    async () => ok(await registration.state()),
  );

  app.put(
    '/api/admin/registration',
    {
      config: { access: 'owner' },
      schema: {
        summary: 'Set the registration mode for every instance at once (null: follow the REGISTRATION setting again); audited',
        tags,
        body: {
          type: 'object',
          required: ['mode'],
          additionalProperties: false,
          properties: { mode: MODE_OR_NULL_SCHEMA },
          examples: [{ mode: 'invite' }],
        },
        response: { 200: envelopeSchema(REGISTRATION_STATE_SCHEMA, ok(REGISTRATION_STATE_EXAMPLE, MODE_SET)) },
      },
    },
    async (request) => ok(await registration.setMode(callerOf(request), request.body.mode), MODE_SET),
  );

  app.get(
    '/api/admin/invites',
    {
      config: { access: 'moderator' },
      schema: {
        summary: 'Invitations, newest first, with their state (usable, used, expired, withdrawn) and who used them; paginated',
        tags,
        querystring: pageQuerySchema,
        response: { 200: pageResponse(INVITE_RECORD_SCHEMA, INVITE_RECORD_EXAMPLE) },
      },
    },
    async (request, reply) => pageEnvelope(reply, await registration.listInvites(request.query)),
  );

  app.post(
    '/api/admin/invites',
    {
      config: { access: 'admin' },
      schema: {
        summary: `Create an invitation: a single-use link {PUBLIC_URL}/register?invite=CODE, shown once, valid for days (default ${DEFAULT_INVITE_DAYS}); audited`,
        tags,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            note: { type: 'string', maxLength: MAX_NOTE_LENGTH, description: 'who it is for, for the list' },
            days: { type: 'integer', minimum: 1, maximum: MAX_INVITE_DAYS, default: DEFAULT_INVITE_DAYS },
          },
          examples: [{ note: 'for Alex from the server forum', days: 7 }],
        },
        response: { 200: envelopeSchema(NEW_INVITE_SCHEMA, ok(NEW_INVITE_EXAMPLE, INVITE_CREATED)) },
      },
    },
    async (request) => ok(await registration.createInvite(callerOf(request), request.body ?? {}), INVITE_CREATED),
  );

  app.delete(
    '/api/admin/invites/:id',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Withdraw an unused invitation: its link then refuses to register anyone (409 once used); audited',
        tags,
        params: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: MAX_USER_ID } } },
        response: {
          200: envelopeSchema(
            INVITE_RECORD_SCHEMA,
            ok({ ...INVITE_RECORD_EXAMPLE, status: 'revoked', used_at: null, used_by: null, revoked_at: 1767312000 }, INVITE_REVOKED),
          ),
          ...errorResponses(404, 409),
        },
      },
    },
    async (request) => ok(await registration.revokeInvite(callerOf(request), request.params.id), INVITE_REVOKED),
  );
}
