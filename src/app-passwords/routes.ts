// The player's app passwords under /api/home/app-passwords (contract section 18). Thin: parse, call AppPasswords,
// shape the envelope.
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../accounts/authenticate.ts';
import { MAX_USER_ID } from '../accounts/identifiers.ts';
import { envelopeSchema, errorResponses, message, ok } from '../http/envelope.ts';
import {
  APP_PASSWORD_SCHEMA,
  APP_PASSWORDS_EXAMPLE,
  MAX_APP_PASSWORD_NAME,
  MAX_APP_PASSWORDS,
  NEW_APP_PASSWORD_EXAMPLE,
  NEW_APP_PASSWORD_SCHEMA,
} from '../http/shapes/app-password.ts';
import type { AppPasswords } from './service.ts';
import { withSchemaTypes } from '../http/schema-types.ts';

const CREATED = message('appPasswords.created');
const REVOKED = message('appPasswords.revoked');
const tags = ['home'];

export function appPasswordRoutes(fastify: FastifyInstance, appPasswords: AppPasswords) {
  const app = withSchemaTypes(fastify);
  app.get(
    '/api/home/app-passwords',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Your app passwords, oldest first, without the passwords themselves',
        tags,
        response: { 200: envelopeSchema({ type: 'array', items: APP_PASSWORD_SCHEMA }, ok(APP_PASSWORDS_EXAMPLE)) },
      },
    },
    async (request) => ok(await appPasswords.list(callerOf(request))),
  );

  app.post(
    '/api/home/app-passwords',
    {
      config: { access: 'player' },
      schema: {
        summary:
          'Make an app password, with your password, for a launcher that speaks only the password login; the app password is shown this once',
        description:
          'An app password is a new way in, so this asks for the current password, and the code of the authenticator app ' +
          '(or a recovery code) as totp when two-factor login is on, as adding a passkey does: a wrong or missing password ' +
          'is a 401 counted as a failed login (429 after too many), a missing code a 401 with data.totp_required. ' +
          "It works as the password of the game login's authenticate and signout and of the launcher API's authorize, " +
          "with the account's mail or a profile name, and needs no two-factor code; never on the web login. A password " +
          `change or reset and a ban revoke every one; logging out everywhere does not. At most ${MAX_APP_PASSWORDS} ` +
          'per account (403 beyond). Audited; the player is mailed.',
        tags,
        // password is not required by the schema: a missing one is a wrong one (401, counted), as the contract says.
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['name'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: MAX_APP_PASSWORD_NAME, description: 'say, the launcher it is for' },
            password: { type: 'string', maxLength: 1024, description: 'your current password' },
            totp: { type: 'string', maxLength: 1024, description: 'the code of your authenticator app, when two-factor login is on' },
          },
          examples: [{ name: NEW_APP_PASSWORD_EXAMPLE.name, password: 'correct horse battery' }],
        },
        response: {
          201: envelopeSchema(NEW_APP_PASSWORD_SCHEMA, ok(NEW_APP_PASSWORD_EXAMPLE, CREATED)),
          ...errorResponses(401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      const { name, password = '', totp } = request.body;
      const made = await appPasswords.create(callerOf(request), name, { password, totp }, request.ip);
      return reply.code(201).send(ok(made, CREATED));
    },
  );

  app.delete(
    '/api/home/app-passwords/:id',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Revoke one of your app passwords: logins with it fail from now on (404 when you have none of that id); audited',
        tags,
        params: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: MAX_USER_ID } } },
        response: { 200: envelopeSchema(undefined, ok({}, REVOKED)), ...errorResponses(404) },
      },
    },
    async (request) => {
      await appPasswords.revoke(callerOf(request), request.params.id);
      return ok({}, REVOKED);
    },
  );
}
