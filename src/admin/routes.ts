// Admin routes for users, roles and the audit log (interface.md 4.2).
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../accounts/authenticate.ts';
import { envelopeSchema, errorResponses, languageOf, message, ok } from '../http/envelope.ts';
import { t } from '../i18n/i18n.ts';
import { pageEnvelope, pageQuerySchema, pageResponse, unixSecondsQuerySchema } from '../http/pagination.ts';
import { MAX_USER_ID } from '../accounts/identifiers.ts';
import { USER_IDENTIFIER_PARAMS } from '../http/shapes/user-identifier.ts';
import type { Broadcaster } from '../mail/broadcast.ts';
import { AUDIT_ENTRY_EXAMPLE, AUDIT_ENTRY_SCHEMA } from '../http/shapes/audit-entry.ts';
import { ROLE_GRANT_EXAMPLE, ROLE_GRANT_SCHEMA } from '../http/shapes/role-grant.ts';
import { USER_DETAIL_EXAMPLE, USER_DETAIL_SCHEMA } from '../http/shapes/user-detail.ts';
import { USER_RECORD_EXAMPLE, USER_RECORD_SCHEMA } from '../http/shapes/user-record.ts';
import type { UserAdmin } from './service.ts';
import { withSchemaTypes } from '../http/schema-types.ts';

const tags = ['admin'];
const USER_SAVED = message('admin.userSaved');
const ROLE_GRANTED = message('admin.roleGranted');
const ROLE_REVOKED = message('admin.roleRevoked');

export function adminRoutes(fastify: FastifyInstance, admin: UserAdmin, broadcaster: Broadcaster) {
  const app = withSchemaTypes(fastify);
  // interface.md: the only answer without the envelope besides two others, an object with just `msg`.
  app.post(
    '/api/admin/mail',
    {
      config: { access: 'owner' },
      schema: {
        summary: 'Mail every verified, unbanned user (sent in the background); the answer is {msg}, without the envelope',
        tags,
        body: {
          type: 'object',
          required: ['subject', 'message'],
          properties: { subject: { type: 'string', maxLength: 1000 }, message: { type: 'string', maxLength: 100_000 } },
          examples: [{ subject: 'Server maintenance', message: 'The server is down for maintenance on Sunday from 10:00 to 11:00 UTC.' }],
        },
        response: {
          200: {
            type: 'object',
            required: ['msg'],
            additionalProperties: false,
            properties: { msg: { type: 'string' } },
            examples: [{ msg: 'The mail is being sent to all 1250 users with a verified mail address' }],
          },
        },
      },
    },
    async (request) => {
      const recipients = await broadcaster.create(callerOf(request), request.body.subject, request.body.message);
      return { msg: t(languageOf(request), 'admin.broadcastQueued', { count: recipients }) };
    },
  );

  app.get(
    '/api/admin/users',
    {
      config: { access: 'moderator' },
      schema: {
        summary: 'List users (the User records of interface.md 2.3), paginated; search matches part of a username or mail',
        tags,
        querystring: { ...pageQuerySchema, properties: { ...pageQuerySchema.properties, search: { type: 'string', maxLength: 254 } } },
        response: { 200: pageResponse(USER_RECORD_SCHEMA, USER_RECORD_EXAMPLE) },
      },
    },
    async (request, reply) => pageEnvelope(reply, await admin.list(callerOf(request), request.query)),
  );

  app.get(
    '/api/admin/user/:identifier',
    {
      config: { access: 'moderator' },
      schema: {
        summary: 'One user in the user detail shape; the identifier is an id, player UUID or username',
        tags,
        params: USER_IDENTIFIER_PARAMS,
        response: { 200: envelopeSchema(USER_DETAIL_SCHEMA, ok(USER_DETAIL_EXAMPLE)), ...errorResponses(404) },
      },
    },
    async (request) => ok(await admin.detail(request.params.identifier)),
  );

  app.patch(
    '/api/admin/user/:identifier',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Change a user below your own level (perms: owners only; -1 bans); all or nothing',
        tags,
        params: USER_IDENTIFIER_PARAMS,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            username: { type: 'string', maxLength: 64 },
            mail: { type: 'string', maxLength: 320 },
            mail_verify: { type: 'boolean' },
            selected_skin: { type: 'string', maxLength: 64 },
            password: { type: 'string', maxLength: 1024 },
            perms: { type: 'integer' },
            dsid: { type: 'boolean' },
            mail_verification: { type: 'boolean' },
            review_exempt: { type: 'boolean', description: "the account's library publications skip LIBRARY_REVIEW" },
            max_profiles: {
              type: ['integer', 'null'],
              minimum: -1,
              maximum: 1000,
              description: "the account's own profile limit (-1 unlimited); null: the MAX_PROFILES setting",
            },
            chat: { type: 'boolean', description: "false switches the player's online chat off in the game (contract section 24)" },
          },
          examples: [{ mail: 'steve@example.org', mail_verify: true, perms: -1 }],
        },
        response: { 200: envelopeSchema(USER_DETAIL_SCHEMA, ok(USER_DETAIL_EXAMPLE, USER_SAVED)), ...errorResponses(404, 409) },
      },
    },
    async (request) => ok(await admin.update(callerOf(request), request.params.identifier, request.body), USER_SAVED),
  );

  app.post(
    '/api/admin/user/role/:identifier',
    {
      config: { access: 'owner' },
      schema: {
        summary: 'Grant a role level (1-3) until expired_at (Unix seconds or ISO 8601; absent: permanent), replacing an earlier grant',
        tags,
        params: USER_IDENTIFIER_PARAMS,
        body: {
          type: 'object',
          required: ['role_level'],
          properties: { user: { type: 'integer' }, role_level: { type: 'integer' }, expired_at: { type: ['integer', 'string'] } },
          examples: [{ user: 7, role_level: 1, expired_at: 1769904000 }],
        },
        response: {
          200: envelopeSchema(
            {
              type: 'object',
              properties: { id: { type: 'integer' }, new_role_level: { type: 'integer' }, expired_at: { type: 'integer' } },
            },
            ok({ id: 7, new_role_level: 1, expired_at: 1769904000 }, ROLE_GRANTED),
          ),
          ...errorResponses(404),
        },
      },
    },
    async (request) => ok(await admin.grantRole(callerOf(request), request.params.identifier, request.body), ROLE_GRANTED),
  );

  app.get(
    '/api/admin/user/role/:identifier',
    {
      config: { access: 'moderator' },
      schema: {
        summary: "A user's role grants (at most one; granting again replaces it), expired or not; active says whether it counts now",
        tags,
        params: USER_IDENTIFIER_PARAMS,
        response: {
          200: envelopeSchema({ type: 'array', items: ROLE_GRANT_SCHEMA }, ok([ROLE_GRANT_EXAMPLE])),
          ...errorResponses(404),
        },
      },
    },
    async (request) => ok(await admin.roleGrants(request.params.identifier)),
  );

  app.delete(
    '/api/admin/user/role/:identifier',
    {
      config: { access: 'owner' },
      schema: {
        summary: "Revoke a user's role grant (audited as role.revoke); their level falls back to their perms at once",
        tags,
        params: USER_IDENTIFIER_PARAMS,
        response: {
          200: envelopeSchema(
            { type: 'object', properties: { id: { type: 'integer' }, level: { type: 'integer' } } },
            ok({ id: 7, level: 0 }, ROLE_REVOKED),
          ),
          ...errorResponses(404),
        },
      },
    },
    async (request) => ok(await admin.revokeRole(callerOf(request), request.params.identifier), ROLE_REVOKED),
  );

  app.get(
    '/api/admin/audit',
    {
      config: { access: 'moderator' },
      schema: {
        summary: 'Audit entries, newest first, paginated; filters for, iss, action, since and until (Unix seconds)',
        tags,
        querystring: {
          ...pageQuerySchema,
          properties: {
            ...pageQuerySchema.properties,
            for: { type: 'integer', minimum: 0, maximum: MAX_USER_ID },
            iss: { type: 'string', maxLength: 254 },
            action: { type: 'string', maxLength: 64 },
            since: unixSecondsQuerySchema,
            until: unixSecondsQuerySchema,
          },
        },
        response: { 200: pageResponse(AUDIT_ENTRY_SCHEMA, AUDIT_ENTRY_EXAMPLE) },
      },
    },
    async (request, reply) => pageEnvelope(reply, await admin.audit(request.query)),
  );
}
