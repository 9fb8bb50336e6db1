// Passkeys (contract section 21): the player's own under /api/home/passkeys, the login with one under
// /api/auth/passkey, and an administrator's removal of a player's. Thin: parse, call Passkeys, shape the envelope.
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../accounts/authenticate.ts';
import { MAX_USER_ID } from '../accounts/identifiers.ts';
import { envelopeSchema, errorResponses, message, ok } from '../http/envelope.ts';
import {
  LOGIN_CHALLENGE_EXAMPLE,
  LOGIN_CHALLENGE_SCHEMA,
  MAX_PASSKEY_NAME,
  MAX_PASSKEYS,
  NEW_PASSKEY_EXAMPLE,
  PASSKEY_LOGIN_EXAMPLE,
  PASSKEY_SCHEMA,
  PASSKEYS_EXAMPLE,
  WEBAUTHN_OPTIONS_SCHEMA,
  webauthnResponseSchema,
} from '../http/shapes/passkey.ts';
import { USER_IDENTIFIER_PARAMS } from '../http/shapes/user-identifier.ts';
import { LOGGED_IN, WEB_LOGIN_RESPONSE_SCHEMA } from '../http/shapes/web-login.ts';
import { withSchemaTypes } from '../http/schema-types.ts';
import type { Passkeys } from './service.ts';

const ADDED = message('passkeys.added');
const RENAMED = message('passkeys.renamed');
const REMOVED = message('passkeys.removed');
const REMOVED_FOR = message('passkeys.removedFor');
const tags = ['home'];
const NAME = { type: 'string', minLength: 1, maxLength: MAX_PASSKEY_NAME, description: 'say, the device it is on' } as const;
const ID_PARAMS = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: MAX_USER_ID } } } as const;

export function passkeyRoutes(fastify: FastifyInstance, passkeys: Passkeys) {
  const app = withSchemaTypes(fastify);
  app.get(
    '/api/home/passkeys',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Your passkeys, oldest first',
        tags,
        response: { 200: envelopeSchema({ type: 'array', items: PASSKEY_SCHEMA }, ok(PASSKEYS_EXAMPLE)) },
      },
    },
    async (request) => ok(await passkeys.list(callerOf(request))),
  );

  app.post(
    '/api/home/passkeys/options',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Begin adding a passkey, with your password: the options for navigator.credentials.create()',
        description:
          'A passkey is a new way in, so this asks for the current password, and the code of the authenticator app (or a ' +
          'recovery code) as totp when two-factor login is on, as linking Discord does: a wrong password or code is a 401 ' +
          'counted as a failed login, a missing code a 401 with data.totp_required. The options: a resident key with user ' +
          "verification, for PUBLIC_URL's host, named SERVER_NAME; the challenge works once, for 5 minutes, in this " +
          `session only. 403 at ${MAX_PASSKEYS} passkeys.`,
        tags,
        body: {
          type: 'object',
          required: ['password'],
          additionalProperties: false,
          properties: { password: { type: 'string', maxLength: 1024 }, totp: { type: 'string', maxLength: 1024 } },
          examples: [{ password: 'correct horse battery' }],
        },
        response: { 200: envelopeSchema(WEBAUTHN_OPTIONS_SCHEMA), ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => {
      const body = request.body as { password: string; totp?: string };
      return ok(await passkeys.creationOptions(callerOf(request), body, request.ip));
    },
  );

  app.post(
    '/api/home/passkeys',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Add the passkey the browser made (the JSON form of its credential) under a name; audited, and you are mailed',
        description:
          "400 for a challenge not from this session's options or no longer usable, and for a response that does not " +
          "verify (another origin than PUBLIC_URL's, another relying party, no user verification); 409 for a passkey " +
          'already added; 403 at the limit.',
        tags,
        body: {
          type: 'object',
          required: ['response', 'name'],
          properties: { response: webauthnResponseSchema('create'), name: NAME },
          examples: [NEW_PASSKEY_EXAMPLE],
        },
        response: { 201: envelopeSchema(PASSKEY_SCHEMA, ok(PASSKEYS_EXAMPLE[0], ADDED)), ...errorResponses(400, 403, 409) },
      },
    },
    async (request, reply) => {
      const body = request.body as { response: RegistrationResponseJSON; name: string };
      const added = await passkeys.add(callerOf(request), body.response, body.name);
      return reply.code(201).send(ok(added, ADDED));
    },
  );

  app.patch(
    '/api/home/passkeys/:id',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Rename one of your passkeys (404 when you have none of that id)',
        tags,
        params: ID_PARAMS,
        body: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { name: NAME },
          examples: [{ name: 'Work laptop' }],
        },
        response: { 200: envelopeSchema(undefined, ok({}, RENAMED)), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      await passkeys.rename(callerOf(request), request.params.id, request.body.name);
      return ok({}, RENAMED);
    },
  );

  app.delete(
    '/api/home/passkeys/:id',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Remove one of your passkeys, confirmed with your password; audited',
        description:
          'A wrong password counts as a failed login (401). An account whose password cannot be checked (imported from a ' +
          'service whose hash this one cannot verify) sets one with the password reset first (409).',
        tags,
        params: ID_PARAMS,
        body: {
          type: 'object',
          required: ['password'],
          additionalProperties: false,
          properties: { password: { type: 'string', maxLength: 1024 } },
          examples: [{ password: 'correct horse battery' }],
        },
        response: { 200: envelopeSchema(undefined, ok({}, REMOVED)), ...errorResponses(401, 404, 409, 429) },
      },
    },
    async (request) => {
      await passkeys.remove(callerOf(request), request.params.id, request.body.password, request.ip);
      return ok({}, REMOVED);
    },
  );

  app.post(
    '/api/auth/passkey/options',
    {
      schema: {
        summary: 'Begin a login with a passkey: a challenge id and the options for navigator.credentials.get()',
        description:
          'Any passkey of this site, user verification required. The challenge works once, for 5 minutes. 60 per client ' +
          'address in 15 minutes (429).',
        tags: ['auth'],
        response: { 200: envelopeSchema(LOGIN_CHALLENGE_SCHEMA, ok(LOGIN_CHALLENGE_EXAMPLE)), ...errorResponses(429) },
      },
    },
    async (request) => ok(await passkeys.loginOptions(request.ip)),
  );

  app.post(
    '/api/auth/passkey',
    {
      schema: {
        summary: 'Log in with a passkey: the same answer as POST /api/auth/login',
        description:
          'A passkey verifies the player, so an account with two-factor login needs no code. Banned, unconfirmed and ' +
          'unfinished accounts are answered as at the password login. 400 for an unusable challenge or a response that ' +
          "does not verify (another origin than PUBLIC_URL's, another relying party, a bad signature, no user " +
          'verification); 401 for a passkey not known here, or one whose signature counter went backwards (a copied ' +
          'authenticator: refused and audited). Refusals after the challenge count on the login limits.',
        tags: ['auth'],
        body: {
          type: 'object',
          required: ['challenge_id', 'response'],
          properties: { challenge_id: { type: 'string', minLength: 1, maxLength: 128 }, response: webauthnResponseSchema('get') },
          examples: [PASSKEY_LOGIN_EXAMPLE],
        },
        response: { 200: WEB_LOGIN_RESPONSE_SCHEMA, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const body = request.body as { challenge_id: string; response: AuthenticationResponseJSON };
      const { jwt, url } = await passkeys.logIn(body.challenge_id, body.response, request.ip);
      return ok({ jwt }, LOGGED_IN, url);
    },
  );

  app.delete(
    '/api/admin/user/:identifier/passkeys',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Remove every passkey of a player (a lost device); only for players below your own level',
        description: 'Audited as passkey.remove. Answers how many were removed (0 when the player had none).',
        tags: ['admin'],
        params: USER_IDENTIFIER_PARAMS,
        response: {
          200: envelopeSchema(
            {
              type: 'object',
              required: ['id', 'removed'],
              additionalProperties: false,
              properties: { id: { type: 'integer' }, removed: { type: 'integer' } },
            },
            ok({ id: 7, removed: 2 }, REMOVED_FOR),
          ),
          ...errorResponses(403, 404),
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return ok(await passkeys.removeAllFor(caller, request.params.identifier), REMOVED_FOR);
    },
  );
}
