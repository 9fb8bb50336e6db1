// The player's wardrobe (contract section 6) and the admin texture endpoints (interface.md 4.2).
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../accounts/authenticate.ts';
import { actorOf } from '../accounts/service.ts';
import { envelopeSchema, ok } from '../http/envelope.ts';
import { pageEnvelope, pageQuerySchema, type PageQuery } from '../http/pagination.ts';
import { optionalBoolean, readUpload, userIdList } from './multipart.ts';
import type { Wardrobe } from './wardrobe.ts';

const skinRecordSchema = {
  type: 'object',
  properties: {
    uuid: { type: 'string' },
    name: { type: 'string' },
    owner: { type: 'integer' },
    slim: { type: 'boolean' },
    hd: { type: 'boolean' },
    cloak_id: { type: 'string' },
    digest: { type: 'string' },
    url: { type: 'string' },
    selected: { type: 'boolean' },
  },
} as const;
const capeRecordSchema = {
  type: 'object',
  properties: {
    uuid: { type: 'string' },
    name: { type: 'string' },
    owners: { type: 'array', items: { type: 'integer' } },
    digest: { type: 'string' },
    url: { type: 'string' },
    selected: { type: 'boolean' },
  },
} as const;
const listOf = (items: object) => ({ 200: envelopeSchema({ type: 'array', items }) });
const uuidParam = { type: 'object', required: ['uuid'], properties: { uuid: { type: 'string', maxLength: 64 } } } as const;
const skinChanges = {
  name: { type: 'string', maxLength: 256 },
  slim: { type: 'boolean' },
  cloakid: { type: 'string', maxLength: 64 },
} as const;

export async function textureRoutes(app: FastifyInstance, wardrobe: Wardrobe, maxTextureBytes: number) {
  // Multipart parsing exists only inside this scope, on the two upload routes that need it.
  await app.register(async (uploads) => {
    await uploads.register(multipart, { limits: { fileSize: maxTextureBytes, files: 1, fields: 20, fieldSize: 4096, parts: 25 } });

    uploads.post('/api/home/skins', { config: { access: 'player' }, schema: { response: { 200: envelopeSchema(skinRecordSchema) } } }, async (request) => {
      const upload = await readUpload(request, 'skin', maxTextureBytes);
      const skin = await wardrobe.uploadSkin(callerOf(request), {
        png: upload.file,
        name: upload.fields.get('name')?.at(-1),
        slim: optionalBoolean(upload.fields, 'slim'),
      });
      return ok(skin, 'Skin uploaded');
    });

    uploads.post('/api/admin/user/cape/upload', { config: { access: 'admin' }, schema: { response: { 200: envelopeSchema(capeRecordSchema) } } }, async (request) => {
      const upload = await readUpload(request, 'cape', maxTextureBytes);
      const cape = await wardrobe.uploadCape(actorOf(callerOf(request).user), {
        png: upload.file,
        name: upload.fields.get('name')?.at(-1) ?? '',
        owners: userIdList(upload.fields, 'owners'),
      });
      return ok(cape, 'Cape uploaded');
    });
  });

  app.get('/api/home/skins', { config: { access: 'player' }, schema: { response: listOf(skinRecordSchema) } }, async (request) =>
    ok(await wardrobe.ownSkins(callerOf(request).user.id)),
  );

  app.get('/api/home/capes', { config: { access: 'player' }, schema: { response: listOf(capeRecordSchema) } }, async (request) =>
    ok(await wardrobe.ownCapes(callerOf(request).user.id)),
  );

  app.patch<{ Params: { uuid: string }; Body: { name?: string; slim?: boolean; cloakid?: string } }>(
    '/api/home/skins/:uuid',
    {
      config: { access: 'player' },
      schema: { params: uuidParam, body: { type: 'object', additionalProperties: false, properties: skinChanges }, response: { 200: envelopeSchema(skinRecordSchema) } },
    },
    async (request) => ok(await wardrobe.updateOwnSkin(callerOf(request), request.params.uuid, request.body), 'Skin saved'),
  );

  app.delete<{ Params: { uuid: string } }>(
    '/api/home/skins/:uuid',
    { config: { access: 'player' }, schema: { params: uuidParam, response: { 200: envelopeSchema({ type: 'object', properties: { uuid: { type: 'string' } } }) } } },
    async (request) => ok(await wardrobe.deleteOwnSkin(callerOf(request), request.params.uuid), 'Skin deleted'),
  );

  app.get<{ Querystring: PageQuery }>(
    '/api/admin/skins',
    { config: { access: 'moderator' }, schema: { querystring: pageQuerySchema, response: listOf(skinRecordSchema) } },
    async (request, reply) => pageEnvelope(reply, await wardrobe.allSkins(request.query)),
  );

  app.patch<{ Params: { uuid: string }; Body: { name?: string; slim?: boolean; hd?: boolean; cloakid?: string } }>(
    '/api/admin/skin/:uuid',
    {
      config: { access: 'admin' },
      schema: {
        params: uuidParam,
        body: { type: 'object', additionalProperties: false, properties: { ...skinChanges, hd: { type: 'boolean' } } },
        response: { 200: envelopeSchema(skinRecordSchema) },
      },
    },
    async (request) => ok(await wardrobe.adminUpdateSkin(actorOf(callerOf(request).user), request.params.uuid, request.body), 'Skin saved'),
  );

  app.get<{ Params: { uuid: string } }>(
    '/api/admin/users/skin/:uuid',
    { config: { access: 'moderator' }, schema: { params: uuidParam, response: listOf(skinRecordSchema) } },
    async (request) => ok(await wardrobe.skinsOfUser(request.params.uuid)),
  );

  app.delete<{ Body: { capeid: string } }>(
    '/api/admin/user/cape/upload',
    {
      config: { access: 'admin' },
      schema: {
        body: { type: 'object', required: ['capeid'], properties: { capeid: { type: 'string', maxLength: 64 } } },
        response: { 200: envelopeSchema({ type: 'object', properties: { uuid: { type: 'string' } } }) },
      },
    },
    async (request) => ok(await wardrobe.deleteCape(actorOf(callerOf(request).user), request.body.capeid), 'Cape deleted'),
  );

  app.post<{ Params: { identifier: string }; Body: { user?: number; cape: string[] } }>(
    '/api/admin/user/cape/:identifier',
    {
      config: { access: 'admin' },
      schema: {
        params: { type: 'object', properties: { identifier: { type: 'string', maxLength: 64 } } },
        body: {
          type: 'object',
          required: ['cape'],
          properties: { user: { type: 'integer' }, cape: { type: 'array', maxItems: 1000, items: { type: 'string', maxLength: 64 } } },
        },
        response: { 200: envelopeSchema({ type: 'object', properties: { id: { type: 'integer' }, capes: { type: 'array', items: { type: 'string' } } } }) },
      },
    },
    async (request) => ok(await wardrobe.setUserCapes(actorOf(callerOf(request).user), request.params.identifier, request.body), 'Capes saved'),
  );

  app.get<{ Querystring: PageQuery }>(
    '/api/admin/allcapes',
    { config: { access: 'moderator' }, schema: { querystring: pageQuerySchema, response: listOf(capeRecordSchema) } },
    async (request, reply) => pageEnvelope(reply, await wardrobe.allCapes(request.query)),
  );
}
