// The profile routes of contract section 16: the player's own under /api/home/profiles, and the admin's under
// /api/admin/user/{identifier}/profiles (with the transfer). Thin: parse, call AccountProfiles, shape the envelope.
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../accounts/authenticate.ts';
import type { LoginFailures } from '../accounts/login-failures.ts';
import { envelopeSchema, errorResponses, message, ok, unauthorized } from '../http/envelope.ts';
import { PROFILE_RECORD_SCHEMA, PROFILE_RECORDS_EXAMPLE } from '../http/shapes/profile-record.ts';
import { USER_IDENTIFIER_PARAMS } from '../http/shapes/user-identifier.ts';
import type { AccountProfiles } from './service.ts';
import { withSchemaTypes } from '../http/schema-types.ts';

const text = { type: 'string', maxLength: 64 } as const;
const choice = { type: ['string', 'null'], maxLength: 64 } as const;
const uuidParams = { type: 'object', required: ['uuid'], properties: { uuid: text } } as const;
const adminProfileParams = {
  type: 'object',
  required: ['identifier', 'uuid'],
  properties: { ...USER_IDENTIFIER_PARAMS.properties, uuid: text },
} as const;
const nameBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: text },
  examples: [{ name: 'Alex_' }],
} as const;
const changesBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { name: text, selected_skin: choice, selected_cape: choice },
  examples: [{ name: 'Alex_', selected_skin: PROFILE_RECORDS_EXAMPLE[0]!.selected_skin }],
} as const;
const listResponse = envelopeSchema({ type: 'array', items: PROFILE_RECORD_SCHEMA }, ok(PROFILE_RECORDS_EXAMPLE));
const recordResponse = (status: string) => envelopeSchema(PROFILE_RECORD_SCHEMA, ok(PROFILE_RECORDS_EXAMPLE[1]!, message(status)));
const tags = ['profiles'];

export function profileRoutes(fastify: FastifyInstance, profiles: AccountProfiles, failures: LoginFailures) {
  const app = withSchemaTypes(fastify);
  const own = (request: Parameters<typeof callerOf>[0]) => {
    const caller = callerOf(request);
    return { acting: caller, userId: caller.accountId };
  };

  app.get(
    '/api/home/profiles',
    { config: { access: 'player' }, schema: { summary: 'Your game profiles, in creation order', tags, response: { 200: listResponse } } },
    async (request) => ok(await profiles.list(callerOf(request).user.id)),
  );

  app.post(
    '/api/home/profiles',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Add a game profile (400 a name against the rule, 403 at your limit, 409 a name taken in any letter case)',
        tags,
        body: nameBody,
        response: { 201: recordResponse('profiles.created'), ...errorResponses(403, 409) },
      },
    },
    async (request, reply) => {
      const { acting, userId } = own(request);
      return reply.code(201).send(ok(await profiles.create(acting, userId, request.body.name), message('profiles.created')));
    },
  );

  app.patch(
    '/api/home/profiles/:uuid',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Rename a profile (the primary one renames the account) or choose its skin and cape (null or "" for none)',
        tags,
        params: uuidParams,
        body: changesBody,
        response: { 200: recordResponse('profiles.saved'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => {
      const { acting, userId } = own(request);
      return ok(await profiles.update(acting, userId, request.params.uuid, request.body), message('profiles.saved'));
    },
  );

  app.delete(
    '/api/home/profiles/:uuid',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Delete a profile other than the primary one; needs your password. Launchers logged in as it are logged out',
        tags,
        params: uuidParams,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { password: { type: 'string', maxLength: 1024 } },
          examples: [{ password: 'your password' }],
        },
        response: { 200: envelopeSchema(), ...errorResponses(401, 404, 409, 429) },
      },
    },
    async (request) => {
      const { acting, userId } = own(request);
      const password = request.body?.password;
      // Counted on the login limits like any password check, before anything changes.
      if (password === undefined || !(await failures.confirmOwnPassword(userId, password, request.ip)))
        throw unauthorized('accounts.passwordWrong', { field: 'password' });
      await profiles.remove(acting, userId, request.params.uuid);
      return ok({}, message('profiles.deleted'));
    },
  );

  // ---- admins ----
  const editable = async (request: Parameters<typeof callerOf>[0], identifier: string) => {
    const editor = callerOf(request);
    return { acting: editor, userId: await profiles.editableAccount(editor, identifier) };
  };

  app.get(
    '/api/admin/user/:identifier/profiles',
    {
      config: { access: 'admin' },
      schema: {
        summary: "A user's game profiles",
        tags,
        params: USER_IDENTIFIER_PARAMS,
        response: { 200: listResponse, ...errorResponses(403, 404) },
      },
    },
    async (request) => ok(await profiles.list((await editable(request, request.params.identifier)).userId)),
  );

  app.post(
    '/api/admin/user/:identifier/profiles',
    {
      config: { access: 'admin' },
      schema: {
        summary: "Add a game profile to a user's account (the account's limit does not bind admins)",
        tags,
        params: USER_IDENTIFIER_PARAMS,
        body: nameBody,
        response: { 201: recordResponse('profiles.created'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { acting, userId } = await editable(request, request.params.identifier);
      return reply.code(201).send(ok(await profiles.create(acting, userId, request.body.name), message('profiles.created')));
    },
  );

  app.patch(
    '/api/admin/user/:identifier/profiles/:uuid',
    {
      config: { access: 'admin' },
      schema: {
        summary: "Rename or dress a user's profile",
        tags,
        params: adminProfileParams,
        body: changesBody,
        response: { 200: recordResponse('profiles.saved'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => {
      const { acting, userId } = await editable(request, request.params.identifier);
      return ok(await profiles.update(acting, userId, request.params.uuid, request.body), message('profiles.saved'));
    },
  );

  app.delete(
    '/api/admin/user/:identifier/profiles/:uuid',
    {
      config: { access: 'admin' },
      schema: {
        summary: "Delete a user's profile other than the primary one",
        tags,
        params: adminProfileParams,
        response: { 200: envelopeSchema(), ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => {
      const { acting, userId } = await editable(request, request.params.identifier);
      await profiles.remove(acting, userId, request.params.uuid);
      return ok({}, message('profiles.deleted'));
    },
  );

  app.post(
    '/api/admin/user/:identifier/profiles/:uuid/transfer',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Move a profile other than the primary one to another account (named as in paths); its skin and cape choice is cleared',
        tags,
        params: adminProfileParams,
        body: { type: 'object', additionalProperties: false, required: ['to'], properties: { to: text }, examples: [{ to: 'Steve' }] },
        response: { 200: recordResponse('profiles.transferred'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => {
      const { acting, userId } = await editable(request, request.params.identifier);
      // The mover must be above both owners' levels.
      const { userId: toUserId } = await editable(request, request.body.to);
      return ok(await profiles.transfer(acting, userId, request.params.uuid, toUserId), message('profiles.transferred'));
    },
  );
}
