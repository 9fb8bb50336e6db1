// The player's wardrobe (contract section 6) and the admin texture endpoints (interface.md 4.2).
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../accounts/authenticate.ts';
import { envelopeSchema, errorResponses, message, ok } from '../http/envelope.ts';
import type { Message } from '../i18n/i18n.ts';
import { pageEnvelope, pageQuerySchema, pageResponse } from '../http/pagination.ts';
import { CAPE_EXAMPLE, CAPE_RECORD_SCHEMA } from '../http/shapes/cape-record.ts';
import { SKIN_EXAMPLE, SKIN_RECORD_SCHEMA } from '../http/shapes/skin-record.ts';
import { USER_IDENTIFIER_PARAMS } from '../http/shapes/user-identifier.ts';
import { optionalBoolean, readUpload, uploadLimits, userIdList } from './multipart.ts';
import type { OwnCapes } from './own-capes.ts';
import type { Wardrobe } from './wardrobe.ts';
import { withSchemaTypes } from '../http/schema-types.ts';

const listOf = (items: object, example: unknown) => ({ 200: envelopeSchema({ type: 'array', items }, ok([example])) });
const deletedSchema = (uuid: string, msg: Message) =>
  envelopeSchema({ type: 'object', properties: { uuid: { type: 'string' } } }, ok({ uuid }, msg));
const png = (description: string) => ({ type: 'string', format: 'binary', description });
const home = ['home'];
const admin = ['admin'];
const SKIN_UPLOADED = message('textures.skinUploaded');
const CAPE_UPLOADED = message('textures.capeUploaded');
const SKIN_SAVED = message('textures.skinSaved');
const SKIN_DELETED = message('textures.skinDeleted');
const CAPE_DELETED = message('textures.capeDeleted');
const CAPES_SAVED = message('textures.capesSaved');
const uuidParam = { type: 'object', required: ['uuid'], properties: { uuid: { type: 'string', maxLength: 64 } } } as const;
const skinChanges = {
  name: { type: 'string', maxLength: 256 },
  slim: { type: 'boolean' },
  cloakid: { type: 'string', maxLength: 64 },
} as const;

export async function textureRoutes(fastify: FastifyInstance, wardrobe: Wardrobe, ownCapes: OwnCapes, maxTextureBytes: number) {
  const app = withSchemaTypes(fastify);
  // Multipart parsing exists only inside this scope, on the two upload routes that need it.
  await fastify.register(async (plugin) => {
    const uploads = withSchemaTypes(plugin);
    await uploads.register(multipart, { limits: uploadLimits(maxTextureBytes) });

    uploads.post(
      '/api/home/skins',
      {
        config: { access: 'player' },
        schema: {
          summary: 'Upload a skin (PNG, 64x32 or 64x64 and HD multiples); the first skin becomes the selected one',
          tags: home,
          uploadForm: {
            type: 'object',
            required: ['skin'],
            properties: {
              skin: png('the skin, a PNG'),
              name: { type: 'string', maxLength: 64, description: 'default "Skin"' },
              slim: { type: 'string', enum: ['true', 'false'], description: 'the arm model; detected from the picture when absent' },
            },
          },
          response: { 200: envelopeSchema(SKIN_RECORD_SCHEMA, ok(SKIN_EXAMPLE, SKIN_UPLOADED)) },
        },
      },
      async (request) => {
        const upload = await readUpload(request, 'skin', maxTextureBytes);
        const skin = await wardrobe.uploadSkin(callerOf(request), {
          png: upload.file,
          name: upload.fields.get('name')?.at(-1),
          slim: optionalBoolean(upload.fields, 'slim'),
        });
        return ok(skin, SKIN_UPLOADED);
      },
    );

    uploads.post(
      '/api/home/capes',
      {
        config: { access: 'player' },
        schema: {
          summary:
            'Upload a cape of your own (PNG, 64x32 or 22x17 and multiples; at most 100); the first one becomes the worn one. Only with USER_CAPES=true, else 403',
          tags: home,
          uploadForm: {
            type: 'object',
            required: ['cape'],
            properties: {
              cape: png('the cape, a PNG'),
              name: { type: 'string', maxLength: 64, description: 'default "Cape"' },
            },
          },
          response: { 200: envelopeSchema(CAPE_RECORD_SCHEMA, ok(CAPE_EXAMPLE, CAPE_UPLOADED)), ...errorResponses(403) },
        },
      },
      async (request) => {
        // Refused before the body is read.
        ownCapes.checkEnabled();
        const upload = await readUpload(request, 'cape', maxTextureBytes);
        const cape = await ownCapes.upload(callerOf(request), { png: upload.file, name: upload.fields.get('name')?.at(-1) });
        return ok(cape, CAPE_UPLOADED);
      },
    );

    uploads.post(
      '/api/admin/user/cape/upload',
      {
        config: { access: 'admin' },
        schema: {
          summary: 'Upload a cape (PNG) and give it to its owners',
          tags: admin,
          uploadForm: {
            type: 'object',
            required: ['cape', 'name'],
            properties: {
              cape: png('the cape, a PNG'),
              name: { type: 'string', minLength: 1, maxLength: 64 },
              owners: {
                type: 'string',
                description: 'user ids: repeated fields, a JSON array ("[7, 9]") or a comma-separated list ("7,9")',
              },
            },
          },
          response: { 200: envelopeSchema(CAPE_RECORD_SCHEMA, ok(CAPE_EXAMPLE, CAPE_UPLOADED)) },
        },
      },
      async (request) => {
        const upload = await readUpload(request, 'cape', maxTextureBytes);
        const cape = await wardrobe.uploadCape(callerOf(request), {
          png: upload.file,
          name: upload.fields.get('name')?.at(-1) ?? '',
          owners: userIdList(upload.fields, 'owners'),
        });
        return ok(cape, CAPE_UPLOADED);
      },
    );
  });

  app.get(
    '/api/home/skins',
    {
      config: { access: 'player' },
      schema: {
        summary: "The caller's skins; selected is true on the selected one",
        tags: home,
        response: listOf(SKIN_RECORD_SCHEMA, { ...SKIN_EXAMPLE, selected: true }),
      },
    },
    async (request) => ok(await wardrobe.ownSkins(callerOf(request).user.id)),
  );

  app.get(
    '/api/home/capes',
    {
      config: { access: 'player' },
      schema: {
        summary: 'The capes the caller owns; selected is true on the selected one',
        tags: home,
        response: listOf(CAPE_RECORD_SCHEMA, { ...CAPE_EXAMPLE, selected: true }),
      },
    },
    async (request) => ok(await wardrobe.ownCapes(callerOf(request).user.id)),
  );

  app.patch(
    '/api/home/skins/:uuid',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Change the name, arm model or cape (a cape you own, "" for none) of one of your skins',
        tags: home,
        params: uuidParam,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: skinChanges,
          examples: [{ name: 'Summer', slim: true, cloakid: CAPE_EXAMPLE.uuid }],
        },
        response: { 200: envelopeSchema(SKIN_RECORD_SCHEMA, ok(SKIN_EXAMPLE, SKIN_SAVED)), ...errorResponses(404) },
      },
    },
    async (request) => ok(await wardrobe.updateOwnSkin(callerOf(request), request.params.uuid, request.body), SKIN_SAVED),
  );

  app.delete(
    '/api/home/skins/:uuid',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Delete one of your skins; its texture goes when nothing else uses it',
        tags: home,
        params: uuidParam,
        response: { 200: deletedSchema(SKIN_EXAMPLE.uuid, SKIN_DELETED), ...errorResponses(404) },
      },
    },
    async (request) => ok(await wardrobe.deleteOwnSkin(callerOf(request), request.params.uuid), SKIN_DELETED),
  );

  app.delete(
    '/api/home/capes/:uuid',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Delete a cape you uploaded yourself (capes an admin gave you stay); its texture goes when nothing else uses it',
        tags: home,
        params: uuidParam,
        response: { 200: deletedSchema(CAPE_EXAMPLE.uuid, CAPE_DELETED), ...errorResponses(404) },
      },
    },
    async (request) => ok(await ownCapes.delete(callerOf(request), request.params.uuid), CAPE_DELETED),
  );

  app.get(
    '/api/admin/skins',
    {
      config: { access: 'moderator' },
      schema: {
        summary: 'Every skin, paginated',
        tags: admin,
        querystring: pageQuerySchema,
        response: { 200: pageResponse(SKIN_RECORD_SCHEMA, SKIN_EXAMPLE) },
      },
    },
    async (request, reply) => pageEnvelope(reply, await wardrobe.allSkins(request.query)),
  );

  app.patch(
    '/api/admin/skin/:uuid',
    {
      config: { access: 'admin' },
      schema: {
        summary: "Change any skin's name, arm model, HD flag or cape (a cape the skin's owner owns)",
        tags: admin,
        params: uuidParam,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { ...skinChanges, hd: { type: 'boolean' } },
          examples: [{ name: 'Summer', slim: true, hd: false, cloakid: '' }],
        },
        response: { 200: envelopeSchema(SKIN_RECORD_SCHEMA, ok(SKIN_EXAMPLE, SKIN_SAVED)), ...errorResponses(404) },
      },
    },
    async (request) => ok(await wardrobe.adminUpdateSkin(callerOf(request), request.params.uuid, request.body), SKIN_SAVED),
  );

  app.delete(
    '/api/admin/skin/:uuid',
    {
      config: { access: 'admin' },
      schema: {
        summary:
          "Moderation: delete a player's skin (owners below your own level only); audited as skin.moderate_delete, the owner is mailed with the reason",
        tags: admin,
        params: uuidParam,
        body: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: { reason: { type: 'string', maxLength: 500, description: 'told to the owner in the mail' } },
          examples: [{ reason: 'Offensive picture' }],
        },
        response: { 200: deletedSchema(SKIN_EXAMPLE.uuid, SKIN_DELETED), ...errorResponses(404) },
      },
    },
    async (request) => ok(await wardrobe.moderateDeleteSkin(callerOf(request), request.params.uuid, request.body?.reason), SKIN_DELETED),
  );

  app.get(
    '/api/admin/users/skin/:uuid',
    {
      config: { access: 'moderator' },
      schema: {
        summary: "A user's skins (the path value is a user id, player UUID or username); selected is true on the selected one",
        tags: admin,
        params: uuidParam,
        response: { ...listOf(SKIN_RECORD_SCHEMA, { ...SKIN_EXAMPLE, selected: true }), ...errorResponses(404) },
      },
    },
    async (request) => ok(await wardrobe.skinsOfUser(request.params.uuid)),
  );

  app.delete(
    '/api/admin/user/cape/upload',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Delete a cape with its grants and skin links',
        tags: admin,
        body: {
          type: 'object',
          required: ['capeid'],
          properties: { capeid: { type: 'string', maxLength: 64 } },
          examples: [{ capeid: CAPE_EXAMPLE.uuid }],
        },
        response: { 200: deletedSchema(CAPE_EXAMPLE.uuid, CAPE_DELETED), ...errorResponses(404) },
      },
    },
    async (request) => ok(await wardrobe.deleteCape(callerOf(request), request.body.capeid), CAPE_DELETED),
  );

  app.post(
    '/api/admin/user/cape/:identifier',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Replace the set of capes a user owns (the identifier is a user id, player UUID or username)',
        tags: admin,
        params: USER_IDENTIFIER_PARAMS,
        body: {
          type: 'object',
          required: ['cape'],
          properties: { user: { type: 'integer' }, cape: { type: 'array', maxItems: 1000, items: { type: 'string', maxLength: 64 } } },
          examples: [{ user: 7, cape: [CAPE_EXAMPLE.uuid] }],
        },
        response: {
          200: envelopeSchema(
            { type: 'object', properties: { id: { type: 'integer' }, capes: { type: 'array', items: { type: 'string' } } } },
            ok({ id: 7, capes: [CAPE_EXAMPLE.uuid] }, CAPES_SAVED),
          ),
          ...errorResponses(404),
        },
      },
    },
    async (request) => ok(await wardrobe.setUserCapes(callerOf(request), request.params.identifier, request.body), CAPES_SAVED),
  );

  app.get(
    '/api/admin/allcapes',
    {
      config: { access: 'moderator' },
      schema: {
        summary: 'Every cape with its owners, paginated',
        tags: admin,
        querystring: pageQuerySchema,
        response: { 200: pageResponse(CAPE_RECORD_SCHEMA, CAPE_EXAMPLE) },
      },
    },
    async (request, reply) => pageEnvelope(reply, await wardrobe.allCapes(request.query)),
  );
}
