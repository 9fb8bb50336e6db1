// Yggdrasil Connect's routes (contract section 18): the OpenID Provider's own endpoints, handed to oidc-provider
// untouched (it reads the body itself), the consent page's API, the players' grants and the clients admins register.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { callerOf } from '../accounts/authenticate.ts';
import { actorOf } from '../audit/audit.ts';
import { envelopeSchema, errorResponses, message, ok } from '../http/envelope.ts';
import {
  NEW_OAUTH_CLIENT_EXAMPLE,
  NEW_OAUTH_CLIENT_SCHEMA,
  OAUTH_CLIENT_EXAMPLE,
  OAUTH_CLIENT_SCHEMA,
  OAUTH_GRANT_SCHEMA,
  OAUTH_GRANTS_EXAMPLE,
  OAUTH_REQUEST_EXAMPLE,
  OAUTH_REQUEST_SCHEMA,
} from '../http/shapes/oauth.ts';
import type { Consent, RequestRef } from './consent.ts';
import type { OAuthGrants } from './grants.ts';
import { ROUTES } from './provider.ts';
import { withSchemaTypes } from '../http/schema-types.ts';
import type { RegisteredClients } from './registered-clients.ts';

export const DISCOVERY_PATH = '/.well-known/openid-configuration';
const PROVIDER_PATHS = [
  DISCOVERY_PATH,
  ROUTES.authorization,
  `${ROUTES.authorization}/:uid`,
  ROUTES.device_authorization,
  ROUTES.token,
  ROUTES.userinfo,
  ROUTES.jwks,
  ROUTES.revocation,
];

export async function providerRoutes(app: FastifyInstance, provider: Provider, publicUrl: string) {
  const handle = provider.callback();
  const { host, protocol } = new URL(publicUrl);
  await app.register(async (scope) => {
    // The library parses its own bodies: no parser here reads the stream.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    const pass = async (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      // Its links and cookies are the public address's, whatever address the request came to.
      request.raw.headers['x-forwarded-host'] = host;
      request.raw.headers['x-forwarded-proto'] = protocol.slice(0, -1);
      handle(request.raw, reply.raw);
    };
    for (const url of PROVIDER_PATHS) scope.route({ method: ['GET', 'POST', 'OPTIONS'], url, schema: { hide: true }, handler: pass });
  });
}

const refBody = {
  type: 'object',
  additionalProperties: false,
  properties: { user_code: { type: 'string', maxLength: 32 }, uid: { type: 'string', maxLength: 128 } },
  minProperties: 1,
  maxProperties: 1,
  examples: [{ user_code: 'WDJB-MJHT' }],
} as const;
const consentBody = {
  ...refBody,
  required: ['approve'],
  properties: { ...refBody.properties, approve: { type: 'boolean' }, profile: { type: 'string', maxLength: 64 } },
  minProperties: 2,
  maxProperties: 3,
  examples: [{ user_code: 'WDJB-MJHT', approve: true, profile: OAUTH_REQUEST_EXAMPLE.profiles[0]!.id }],
} as const;
const redirectSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['redirect'],
  properties: { redirect: { type: ['string', 'null'] } },
} as const;
const tags = ['Yggdrasil Connect'];

const refOf = (body: { user_code?: string; uid?: string }): RequestRef =>
  body.user_code !== undefined ? { user_code: body.user_code } : { uid: body.uid ?? '' };

export function consentRoutes(fastify: FastifyInstance, consent: Consent) {
  const app = withSchemaTypes(fastify);
  app.post(
    '/api/oauth/request',
    {
      config: { access: 'player' },
      schema: {
        summary: "A launcher's request waiting for you: by the code it shows (user_code) or the page's uid",
        tags,
        body: refBody,
        response: { 200: envelopeSchema(OAUTH_REQUEST_SCHEMA, ok(OAUTH_REQUEST_EXAMPLE)), ...errorResponses(404, 429) },
      },
    },
    async (request) => ok(await consent.describe(callerOf(request).user, refOf(request.body))),
  );

  app.post(
    '/api/oauth/consent',
    {
      config: { access: 'player' },
      schema: {
        summary: "Approve (with the profile when it asks to choose one) or refuse a launcher's request; redirect: where the page goes next",
        tags,
        body: consentBody,
        response: { 200: envelopeSchema(redirectSchema, ok({ redirect: null })), ...errorResponses(403, 404, 429) },
      },
    },
    async (request) => {
      const { user } = callerOf(request);
      const ref = refOf(request.body);
      const answer = request.body.approve ? await consent.approve(user, ref, request.body.profile) : await consent.deny(user, ref);
      return ok(answer, message(request.body.approve ? 'oauth.approved' : 'oauth.refused'));
    },
  );
}

/** Also while YGGDRASIL_CONNECT=false: a player may still look at and revoke what they granted. */
export function grantRoutes(fastify: FastifyInstance, grants: OAuthGrants) {
  const app = withSchemaTypes(fastify);
  app.get(
    '/api/home/oauth/grants',
    {
      config: { access: 'player' },
      schema: {
        summary: 'The launchers you let in through Yggdrasil Connect',
        tags,
        response: { 200: envelopeSchema({ type: 'array', items: OAUTH_GRANT_SCHEMA }, ok(OAUTH_GRANTS_EXAMPLE)) },
      },
    },
    async (request) => ok(await grants.list(callerOf(request).user.id)),
  );

  app.delete(
    '/api/home/oauth/grants/:id',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Revoke a grant: its access and refresh tokens stop working',
        tags,
        params: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } },
        response: { 200: envelopeSchema(), ...errorResponses(404) },
      },
    },
    async (request) => {
      const { user } = callerOf(request);
      await grants.revoke(user.id, request.params.id, actorOf(user));
      return ok({}, message('oauth.revoked'));
    },
  );
}

export const MAX_REDIRECT_URIS = 10;
const clientFields = {
  // At least one character that is not a space.
  name: { type: 'string', minLength: 1, maxLength: 64, pattern: '\\S' },
  redirect_uris: {
    type: 'array',
    maxItems: MAX_REDIRECT_URIS,
    uniqueItems: true,
    items: { type: 'string', minLength: 1, maxLength: 2000 },
  },
  device: { type: 'boolean' },
} as const;
const clientIdParam = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;

/** Also while YGGDRASIL_CONNECT=false: admins prepare clients before turning it on. Moderators may look. */
export function clientRoutes(fastify: FastifyInstance, clients: RegisteredClients) {
  const app = withSchemaTypes(fastify);
  app.get(
    '/api/admin/oauth/clients',
    {
      config: { access: 'moderator' },
      schema: {
        summary: 'The OAuth clients admins registered for Yggdrasil Connect (not the shared client), without their secrets',
        tags,
        response: { 200: envelopeSchema({ type: 'array', items: OAUTH_CLIENT_SCHEMA }, ok([OAUTH_CLIENT_EXAMPLE])) },
      },
    },
    async () => ok(await clients.list()),
  );

  app.post(
    '/api/admin/oauth/clients',
    {
      config: { access: 'admin' },
      schema: {
        summary:
          'Register an OAuth client: redirect_uris are https addresses or http loopback ones; a confidential client (public: false) gets its secret in this answer only',
        tags,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'redirect_uris', 'public', 'device'],
          properties: { ...clientFields, public: { type: 'boolean' } },
          examples: [{ name: 'Server website', redirect_uris: ['https://play.example.org/oauth/callback'], public: false, device: false }],
        },
        response: { 201: envelopeSchema(NEW_OAUTH_CLIENT_SCHEMA, ok(NEW_OAUTH_CLIENT_EXAMPLE)), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return ok(await clients.create(request.body, actorOf(callerOf(request).user)), message('oauth.clientCreated'));
    },
  );

  app.patch(
    '/api/admin/oauth/clients/:id',
    {
      config: { access: 'admin' },
      schema: {
        summary: "Change a client's name, redirect_uris or device grant; grants it has keep working",
        tags,
        params: clientIdParam,
        body: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: clientFields,
          examples: [{ redirect_uris: ['https://play.example.org/oauth/callback'] }],
        },
        response: { 200: envelopeSchema(OAUTH_CLIENT_SCHEMA, ok(OAUTH_CLIENT_EXAMPLE)), ...errorResponses(400, 404) },
      },
    },
    async (request) =>
      ok(await clients.update(request.params.id, request.body, actorOf(callerOf(request).user)), message('oauth.clientSaved')),
  );

  app.delete(
    '/api/admin/oauth/clients/:id',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Delete a client: every grant players gave it ends, with its tokens',
        tags,
        params: clientIdParam,
        response: { 200: envelopeSchema(), ...errorResponses(404) },
      },
    },
    async (request) => {
      await clients.remove(request.params.id, actorOf(callerOf(request).user));
      return ok({}, message('oauth.clientDeleted'));
    },
  );
}
