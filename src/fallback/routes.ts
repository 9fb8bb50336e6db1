// Routes of the premium link (contract section 20): the challenge skin, its check, the links, the official skin once,
// and a profile with the official name and UUID. Only registered while MOJANG_FALLBACK is skins or auth: with `off`
// they are 404 like any unknown path.
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../accounts/authenticate.ts';
import { envelopeSchema, errorResponses, message, ok } from '../http/envelope.ts';
import { withSchemaTypes } from '../http/schema-types.ts';
import { USER_IDENTIFIER_PARAMS } from '../http/shapes/user-identifier.ts';
import { SKIN_EXAMPLE, SKIN_RECORD_SCHEMA } from '../http/shapes/skin-record.ts';
import type { PremiumService } from './premium.ts';

const tags = ['home', 'premium'];
const name = { type: 'string', maxLength: 64 } as const;
const source = {
  type: 'string',
  maxLength: 64,
  description: "A source's shown name (GET /api/home/premium: sources); absent: the first, Mojang",
} as const;
const token = { type: 'string', maxLength: 1024 } as const;
const link = {
  type: 'object',
  required: ['uuid', 'name', 'source'],
  properties: { uuid: { type: 'string' }, name: { type: 'string' }, source: { type: 'string' } },
} as const;
const LINK_EXAMPLE = { uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5', name: 'Notch', source: 'Mojang' };
const TOKEN_EXAMPLE = 'eyJ1IjoxLCJzIjoibW9qYW5nIiwibiI6Im5vdGNoIiwiZSI6MTc2NDk5NTIwMDAwMH0.3q2-7w';
const CHALLENGE_MADE = message('premium.challengeMade');
const LINKED = message('premium.linked');
const UNLINKED = message('premium.unlinked');
const UNLINKED_FOR = message('premium.unlinkedFor');
const PROFILE_MADE = message('premium.profileMade');
const SKIN_IMPORTED = message('premium.skinImported');

export function premiumRoutes(fastify: FastifyInstance, premium: PremiumService) {
  const app = withSchemaTypes(fastify);

  app.get(
    '/api/home/premium',
    {
      // Also before registration's step 3, whose page offers joining with an existing account when `import` is true.
      config: { access: 'registering' },
      schema: {
        summary:
          "The caller's linked official accounts, one per source, the sources one may link an account of, in order, and whether " +
          "registration's step 3 may join with an existing account (PREMIUM_IMPORT)",
        tags,
        response: {
          200: envelopeSchema(
            {
              type: 'object',
              required: ['links', 'sources', 'import'],
              properties: {
                links: { type: 'array', items: link },
                sources: { type: 'array', items: { type: 'string' } },
                import: { type: 'boolean' },
              },
            },
            ok({ links: [LINK_EXAMPLE], sources: ['Mojang', 'Ely.by'], import: false }),
          ),
        },
      },
    },
    async (request) =>
      ok({ links: await premium.links(callerOf(request).accountId), sources: await premium.sourceNames(), import: premium.importOn }),
  );

  app.post(
    '/api/home/premium/challenge',
    {
      // Also before registration's step 3: joining with an existing account (PREMIUM_IMPORT) begins with a challenge.
      config: { access: 'registering' },
      schema: {
        summary:
          'Begin linking an official account: a token (valid one hour) and a challenge skin (a data: URL of a PNG: your ' +
          'current skin, or the default, with a strip of pixels that encodes a keyed hash of the name and the token) to wear on that account ' +
          '(429: too many challenges by this account, 30 in 15 minutes)',
        tags,
        body: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { name, source },
          examples: [{ name: 'Notch', source: 'Mojang' }],
        },
        response: {
          200: envelopeSchema(
            {
              type: 'object',
              required: ['token', 'skin', 'source'],
              properties: { token: { type: 'string' }, skin: { type: 'string' }, source: { type: 'string' } },
            },
            ok({ token: TOKEN_EXAMPLE, skin: 'data:image/png;base64,iVBORw0KGgo…', source: 'Mojang' }, CHALLENGE_MADE),
          ),
          ...errorResponses(400, 429),
        },
      },
    },
    async (request) => ok(await premium.challenge(callerOf(request), request.body), CHALLENGE_MADE),
  );

  app.post(
    '/api/home/premium/verify',
    {
      config: { access: 'player' },
      schema: {
        summary:
          "Finish linking: the source's profile and skin of that account are read, uncached, and compared with the challenge " +
          '(400 a wrong or expired token, another name or a skin that is not the challenge; 404 no such account there; 409 ' +
          'a link at this source already, or that account linked to another account here; 503 the source does not answer). ' +
          'With PREMIUM_RECLAIM a profile here of another account holding that name passes to the caller, its owner mailed. ' +
          '429: too many checks by this account (10 in 15 minutes), counted before the source is asked',
        tags,
        body: {
          type: 'object',
          required: ['name', 'token'],
          additionalProperties: false,
          properties: { name, token, source },
          examples: [{ name: 'Notch', token: TOKEN_EXAMPLE, source: 'Mojang' }],
        },
        response: { 200: envelopeSchema(link, ok(LINK_EXAMPLE, LINKED)), ...errorResponses(400, 404, 409, 429, 503) },
      },
    },
    async (request) => ok(await premium.verify(callerOf(request), request.body), LINKED),
  );

  app.delete(
    '/api/home/premium',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Unlink the official account of a source (query source; absent: the first, Mojang); the official textures it lent go',
        tags,
        querystring: { type: 'object', additionalProperties: false, properties: { source } },
        response: { 200: envelopeSchema(undefined, ok({}, UNLINKED)), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      await premium.unlink(callerOf(request), request.query.source);
      return ok({}, UNLINKED);
    },
  );

  app.delete(
    '/api/admin/user/:identifier/premium',
    {
      config: { access: 'admin' },
      schema: {
        summary:
          "Unlink a player's official account of a source (query source; absent: the first, Mojang), as the player's own unlink " +
          'does; only for players below your own level',
        description: "Audited as premium.unlink. The player's linked accounts are in GET /api/admin/user/{identifier} (PremiumLinks).",
        tags: ['admin', 'premium'],
        params: USER_IDENTIFIER_PARAMS,
        querystring: { type: 'object', additionalProperties: false, properties: { source } },
        response: {
          200: envelopeSchema(
            { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'integer' } } },
            ok({ id: 7 }, UNLINKED_FOR),
          ),
          ...errorResponses(400, 403, 404),
        },
      },
    },
    async (request) => ok(await premium.unlinkFor(callerOf(request), request.params.identifier, request.query.source), UNLINKED_FOR),
  );

  app.post(
    '/api/home/premium/profile',
    {
      config: { access: 'player' },
      schema: {
        summary:
          "A new profile with the linked official account's name and UUID (the profile limit applies; 409 when a profile " +
          'here has that UUID or name, unless PREMIUM_RECLAIM renames a non-primary profile of another account away)',
        tags,
        body: { type: 'object', additionalProperties: false, properties: { source }, examples: [{ source: 'Mojang' }] },
        response: {
          200: envelopeSchema(
            { type: 'object', required: ['uuid', 'name'], properties: { uuid: { type: 'string' }, name: { type: 'string' } } },
            ok({ uuid: LINK_EXAMPLE.uuid, name: LINK_EXAMPLE.name }, PROFILE_MADE),
          ),
          ...errorResponses(400, 403, 404, 409),
        },
      },
    },
    async (request) => ok(await premium.createProfile(callerOf(request), request.body?.source), PROFILE_MADE),
  );

  app.post(
    '/api/home/skins/import-premium',
    {
      config: { access: 'player' },
      schema: {
        summary:
          'Copy the linked official account\'s current skin into the wardrobe, named "From <source>" (only from that ' +
          "source's texture hosts, through the upload checks)",
        tags,
        body: { type: 'object', additionalProperties: false, properties: { source }, examples: [{ source: 'Mojang' }] },
        response: { 200: envelopeSchema(SKIN_RECORD_SCHEMA, ok(SKIN_EXAMPLE, SKIN_IMPORTED)), ...errorResponses(400, 403, 404, 503) },
      },
    },
    async (request) => ok(await premium.importSkin(callerOf(request), request.body?.source), SKIN_IMPORTED),
  );
}
