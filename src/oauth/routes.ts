// Yggdrasil Connect's routes (contract section 18): the OpenID Provider's own endpoints, handed to oidc-provider
// untouched (it reads the body itself) once the requests that store a row are counted against the address's limit,
// the consent page's API, the players' grants and the clients admins register.
import { STATUS_CODES } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { callerOf } from '../accounts/authenticate.ts';
import { envelopeSchema, errorResponses, message, ok, useErrorShape, type ErrorBody } from '../http/envelope.ts';
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
import { RULES, type RateLimiter } from '../ratelimit/limiter.ts';
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

/** The service's own refusals on the provider's paths (a limit, a path it does not serve), in OAuth's error shape. */
const OAUTH_ERROR_SCHEMA = {
  $id: 'OAuthError',
  type: 'object',
  required: ['error', 'error_description'],
  properties: {
    error: { type: 'string', description: 'temporarily_unavailable (429), server_error (5xx) or invalid_request' },
    error_description: { type: 'string' },
  },
  examples: [
    { error: 'temporarily_unavailable', error_description: 'Too many launcher logins begun from your address; try again in 12 minutes' },
  ],
} as const;
const oauthErrorBody: ErrorBody = (status, message) => ({
  error: status === 429 ? 'temporarily_unavailable' : status >= 500 ? 'server_error' : 'invalid_request',
  error_description: message || STATUS_CODES[status],
});

/** A device request, or an authorization request: each stores a row until it ends (an interaction, a device code). */
const storesARow = (request: FastifyRequest) =>
  (request.routeOptions.url === ROUTES.device_authorization && request.method === 'POST') ||
  (request.routeOptions.url === ROUTES.authorization && request.method !== 'OPTIONS');

export async function providerRoutes(app: FastifyInstance, provider: Provider, publicUrl: string, limiter: RateLimiter) {
  const handle = provider.callback();
  const { host, protocol } = new URL(publicUrl);
  useErrorShape(app, '/oauth/', oauthErrorBody, OAUTH_ERROR_SCHEMA);
  await app.register(async (scope) => {
    // The library parses its own bodies: no parser here reads the stream.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    const pass = async (request: FastifyRequest, reply: FastifyReply) => {
      // Counted before the library stores anything; a refusal is a 429 with Retry-After in OAuth's shape.
      if (storesARow(request)) await limiter.take(RULES.oauthRequestsPerAddress, request.ip);
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

/** The request a body names; for a uid, whether this browser began it (its interaction cookie names the same uid). */
async function refOf(consent: Consent, body: { user_code?: string; uid?: string }, request: FastifyRequest, reply: FastifyReply) {
  const { user_code, uid = '' } = body;
  if (user_code !== undefined) return { user_code } satisfies RequestRef;
  return { uid, begunHere: (await consent.interactionOfBrowser(request.raw, reply.raw)) === uid } satisfies RequestRef;
}

export function consentRoutes(fastify: FastifyInstance, consent: Consent) {
  const app = withSchemaTypes(fastify);
  app.post(
    '/api/oauth/request',
    {
      config: { access: 'player' },
      schema: {
        summary: "A launcher's request waiting for you: by the code it shows (user_code) or the page's uid",
        description:
          "A uid is answered only to the browser that began the authorization request (the provider's interaction cookie, " +
          'sent to /api/oauth only): from any other, 400. client.shared marks the built-in client any launcher uses.',
        tags,
        body: refBody,
        response: { 200: envelopeSchema(OAUTH_REQUEST_SCHEMA, ok(OAUTH_REQUEST_EXAMPLE)), ...errorResponses(400, 404, 429) },
      },
    },
    async (request, reply) => ok(await consent.describe(callerOf(request), await refOf(consent, request.body, request, reply))),
  );

  app.post(
    '/api/oauth/consent',
    {
      config: { access: 'player' },
      schema: {
        summary: "Approve (with the profile when it asks to choose one) or refuse a launcher's request; redirect: where the page goes next",
        description:
          'A uid is answered only from the browser that began the authorization request (its interaction cookie): from any ' +
          'other, 400 and nothing is granted. An approval is audited (oauth.grant) and mailed to the player.',
        tags,
        body: consentBody,
        response: { 200: envelopeSchema(redirectSchema, ok({ redirect: null })), ...errorResponses(400, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const ref = await refOf(consent, request.body, request, reply);
      const answer = request.body.approve ? await consent.approve(caller, ref, request.body.profile) : await consent.deny(caller, ref);
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
      await grants.revoke(callerOf(request), request.params.id);
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
      return ok(await clients.create(callerOf(request), request.body), message('oauth.clientCreated'));
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
    async (request) => ok(await clients.update(callerOf(request), request.params.id, request.body), message('oauth.clientSaved')),
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
      await clients.remove(callerOf(request), request.params.id);
      return ok({}, message('oauth.clientDeleted'));
    },
  );
}
