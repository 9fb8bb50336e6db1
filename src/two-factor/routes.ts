// Routes of two-factor login (contract section 12): the player's switch under /api/home/2fa, and the admin's
// switch-off for a player below them. The logins themselves ask for the code through accounts/credentials.ts.
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../accounts/authenticate.ts';
import { envelopeSchema, errorResponses, message, ok } from '../http/envelope.ts';
import { USER_IDENTIFIER_PARAMS } from '../http/shapes/user-identifier.ts';
import type { TwoFactorService } from './service.ts';
import { withSchemaTypes } from '../http/schema-types.ts';

const SETUP_MADE = message('twoFactor.setupMade');
const TURNED_ON = message('twoFactor.turnedOn');
const TURNED_OFF = message('twoFactor.turnedOff');
const TURNED_OFF_FOR = message('twoFactor.turnedOffFor');

const SECRET_EXAMPLE = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const SETUP_SCHEMA = {
  type: 'object',
  required: ['secret', 'uri', 'qr'],
  additionalProperties: false,
  properties: {
    secret: { type: 'string', description: 'the TOTP secret in base32 (SHA-1, 6 digits, 30 seconds), to type into an app' },
    uri: { type: 'string', description: 'the otpauth://totp/ URI of the secret, for apps that open or scan it' },
    qr: { type: 'string', description: 'the URI as a QR code: a PNG data URL (data:image/png;base64,...) for an img element' },
  },
} as const;
const SETUP_EXAMPLE = {
  secret: SECRET_EXAMPLE,
  uri: `otpauth://totp/Skin%20service:Steve?issuer=Skin%20service&secret=${SECRET_EXAMPLE}&algorithm=SHA1&digits=6&period=30`,
  qr: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAQAAAAEACAYAAABccqhmAAAAAklEQVR4AewaftIAAA',
};
const RECOVERY_SCHEMA = {
  type: 'object',
  required: ['recovery_codes'],
  additionalProperties: false,
  properties: { recovery_codes: { type: 'array', items: { type: 'string' }, minItems: 10, maxItems: 10 } },
} as const;
const RECOVERY_EXAMPLE = {
  recovery_codes: [
    '7KQ2M-9PX4R',
    'H3N8W-QZ5TB',
    'C6VJ2-L9MKE',
    'R4T7Y-8NPXD',
    'F2GK9-W3QHU',
    'M5ZB7-2TRVC',
    'X8DJ3-K6NPE',
    'P9QW4-7HLZA',
    'T3MC8-V5RJK',
    'B7XN2-6FGYQ',
  ],
};
const code = { type: 'string', minLength: 1, maxLength: 32 } as const;
const password = { type: 'string', maxLength: 1024 } as const;

export function twoFactorRoutes(fastify: FastifyInstance, twoFactor: TwoFactorService) {
  const app = withSchemaTypes(fastify);
  app.post(
    '/api/home/2fa',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Start turning on two-factor login with the password: a new secret as text, as an otpauth:// URI and as a QR code image',
        description:
          'Nothing changes at login until POST /api/home/2fa/confirm with a first code; starting again replaces a secret ' +
          'not confirmed yet. A wrong password is a 401 (the token stays valid) and counts as a failed login (429 after ' +
          'too many). 409 while two-factor login is on.',
        tags: ['home'],
        // password is not required by the schema: a missing one is a wrong one (401, counted).
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { password },
          examples: [{ password: 'correct horse battery' }],
        },
        response: { 200: envelopeSchema(SETUP_SCHEMA, ok(SETUP_EXAMPLE, SETUP_MADE)), ...errorResponses(401, 409, 429) },
      },
    },
    async (request) => ok(await twoFactor.begin(callerOf(request), request.body.password ?? '', request.ip), SETUP_MADE),
  );

  app.post(
    '/api/home/2fa/confirm',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Turn two-factor login on with a first code of the new secret; answers 10 single-use recovery codes, shown this once',
        description: 'A wrong code is a 400 and counts as a failed login (429 after too many).',
        tags: ['home'],
        body: { type: 'object', required: ['code'], additionalProperties: false, properties: { code }, examples: [{ code: '123456' }] },
        response: { 200: envelopeSchema(RECOVERY_SCHEMA, ok(RECOVERY_EXAMPLE, TURNED_ON)), ...errorResponses(409, 429) },
      },
    },
    async (request) => ok({ recovery_codes: await twoFactor.confirm(callerOf(request), request.body.code, request.ip) }, TURNED_ON),
  );

  app.delete(
    '/api/home/2fa',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Turn two-factor login off with the password and a code (or a recovery code)',
        description: 'A wrong password or code is a 401 (the token stays valid) and counts as a failed login.',
        tags: ['home'],
        body: {
          type: 'object',
          required: ['password', 'code'],
          additionalProperties: false,
          properties: { password, code },
          examples: [{ password: 'correct horse battery', code: '123456' }],
        },
        response: { 200: envelopeSchema(undefined, ok({}, TURNED_OFF)), ...errorResponses(401, 409, 429) },
      },
    },
    async (request) => {
      await twoFactor.turnOff(callerOf(request), request.body.password, request.body.code, request.ip);
      return ok({}, TURNED_OFF);
    },
  );

  app.delete(
    '/api/admin/user/:identifier/2fa',
    {
      config: { access: 'admin' },
      schema: {
        summary: "Turn off a player's two-factor login (a lost phone); only for players below your own level",
        description: 'Audited as user.2fa_off; the player is mailed. 409 when it is not on.',
        tags: ['admin'],
        params: USER_IDENTIFIER_PARAMS,
        response: {
          200: envelopeSchema(
            { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'integer' } } },
            ok({ id: 7 }, TURNED_OFF_FOR),
          ),
          ...errorResponses(403, 404, 409),
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return ok(await twoFactor.turnOffFor(caller, request.params.identifier), TURNED_OFF_FOR);
    },
  );
}
