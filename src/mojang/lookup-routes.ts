// Look-ups of profiles by name and UUID under every path the game, authlib-injector and Loki ask (contract section
// 25, research wire-shapes-26 §0.1 and §6.4): api.mojang.com's under {root}/api/, api.minecraftservices.com's under
// {root}/minecraftservices/. Unauthenticated; errors in Mojang's services shape.
import type { FastifyInstance } from 'fastify';
import { withSchemaTypes } from '../http/schema-types.ts';
import { yggdrasilErrors } from '../yggdrasil/errors.ts';
import { PROFILE_REF_EXAMPLE, PROFILE_REF_SCHEMA } from '../yggdrasil/shapes.ts';
import { ACCOUNT_API_ROOT, SERVICES_ROOT, ServicesError, servicesErrors } from './errors.ts';
import { MAX_NAMES_PER_LOOKUP, type ProfileLookups } from './lookups.ts';

const tags = ['game login (Yggdrasil)'];
const nameParam = { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 64 } } } as const;
const uuidParam = { type: 'object', required: ['uuid'], properties: { uuid: { type: 'string', maxLength: 64 } } } as const;
const found = { 200: { ...PROFILE_REF_SCHEMA, examples: [PROFILE_REF_EXAMPLE] } } as const;

/** The paths of each look-up: 1.21 clients ask api/…, authlib-injector with 26.3+ api/users…, Loki minecraftservices/…. */
export const BULK_LOOKUP_PATHS = [
  `${ACCOUNT_API_ROOT}profiles/minecraft`,
  `${ACCOUNT_API_ROOT}minecraft/profile/lookup/bulk/byname`,
  `${SERVICES_ROOT}minecraft/profile/lookup/bulk/byname`,
];
export const NAME_LOOKUP_PATHS = [
  `${ACCOUNT_API_ROOT}users/profiles/minecraft/:name`,
  `${ACCOUNT_API_ROOT}minecraft/profile/lookup/name/:name`,
  `${SERVICES_ROOT}minecraft/profile/lookup/name/:name`,
];
const UUID_LOOKUP_PATHS = [`${ACCOUNT_API_ROOT}minecraft/profile/lookup/:uuid`, `${SERVICES_ROOT}minecraft/profile/lookup/:uuid`];

export function lookupRoutes(fastify: FastifyInstance, lookups: ProfileLookups) {
  const app = withSchemaTypes(fastify);
  for (const path of BULK_LOOKUP_PATHS) {
    app.post(
      path,
      {
        schema: {
          summary: `Player names to profiles (at most ${MAX_NAMES_PER_LOOKUP}, without regard to letter case); unknown names are left out`,
          tags,
          // Bounded here; the count Mojang allows is checked by the service, with Mojang's words.
          body: { type: 'array', maxItems: 1000, items: { type: 'string', maxLength: 64 }, examples: [['Steve', 'Alex']] },
          response: { 200: { type: 'array', items: PROFILE_REF_SCHEMA, examples: [[PROFILE_REF_EXAMPLE]] }, ...servicesErrors(400) },
        },
      },
      async (request) => lookups.byNames(request.body),
    );
  }
  for (const path of NAME_LOOKUP_PATHS) {
    app.get(
      path,
      {
        schema: {
          summary: 'One player name to its profile; 404 when nobody has it',
          tags,
          params: nameParam,
          response: { ...found, ...servicesErrors(400, 404) },
        },
      },
      async (request) => lookups.byName(request.params.name),
    );
  }
  for (const path of UUID_LOOKUP_PATHS) {
    app.get(
      path,
      {
        schema: {
          summary: 'A profile UUID (with or without dashes) to its name; 404 when unknown',
          tags,
          params: uuidParam,
          response: { ...found, ...servicesErrors(400, 404) },
        },
      },
      async (request) => {
        const profile = await lookups.byUuid(request.params.uuid);
        if (!profile) throw new ServicesError(404, 'NOT FOUND', 'Not Found');
        return profile;
      },
    );
  }
  // api.mojang.com's older spelling: 204 for nobody (mojang-api-docs), under the Yggdrasil API's error shape, which
  // its path shares with the launcher's texture uploads.
  app.get(
    `${ACCOUNT_API_ROOT}user/profile/:uuid`,
    {
      schema: {
        summary: 'A profile UUID to its name, as api.mojang.com answered it: 204 when unknown',
        tags,
        params: uuidParam,
        response: { ...found, 204: { description: 'Nobody has this UUID', type: 'null' }, ...yggdrasilErrors(400) },
      },
    },
    async (request, reply) => (await lookups.byUuid(request.params.uuid)) ?? reply.code(204).send(),
  );
}
