// `minecraft/profile` under {root}/minecraftservices/ (contract section 25): what Prism, HMCL, SJMCL, the in-game
// skin mods and @xmcl/user call to change skins, capes and names the Microsoft way. Bearer = a game access token
// (access 'game'), acting only on the profile it is bound to.
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../accounts/authenticate.ts';
import { recordSchema } from '../http/shapes/record-schema.ts';
import { objectSchema, withSchemaTypes } from '../http/schema-types.ts';
import { readUpload, uploadLimits } from '../textures/multipart.ts';
import { constraintViolation, SERVICES_ROOT, servicesErrors } from './errors.ts';
import type { MinecraftProfile } from '../yggdrasil/shapes.ts';
import { parseVariant, type MinecraftProfiles, type NameChange } from './profile.ts';

const tags = ['game login (Yggdrasil)'];
const at = (path: string) => `${SERVICES_ROOT}minecraft/profile${path}`;
const game = { access: 'game' } as const;
const PROFILE_URL = at('');

const SKIN_EXAMPLE = {
  id: '7800ee13-f75d-40e5-a5b2-9197c3e0125a',
  state: 'ACTIVE' as const,
  url: 'https://skins.example.org/textures/3b60a1f6d562f52aaebbf1434f1de147933a3affe0e764fa49ea057536623cd3',
  textureKey: '3b60a1f6d562f52aaebbf1434f1de147933a3affe0e764fa49ea057536623cd3',
  variant: 'SLIM' as const,
};
const CAPE_EXAMPLE = {
  id: '2d4de64a-da1b-4196-8e37-20740f6941ad',
  state: 'INACTIVE' as const,
  url: 'https://skins.example.org/textures/a2e8d97ec79100e90a75d369d1b3ba81273c4f82bc1b737e934eed4a854be1b6',
  alias: 'Founders',
};
export const MINECRAFT_PROFILE_EXAMPLE: MinecraftProfile = {
  id: '3f1d2c4b5a694e7d8c2b1a0f9e8d7c6b',
  name: 'Steve',
  skins: [SKIN_EXAMPLE],
  capes: [CAPE_EXAMPLE],
  profileActions: {},
};
const state = { type: 'string', enum: ['ACTIVE', 'INACTIVE'] } as const;
const MINECRAFT_PROFILE_SCHEMA = {
  ...recordSchema<MinecraftProfile>({
    id: { type: 'string' },
    name: { type: 'string' },
    skins: {
      type: 'array',
      items: recordSchema<MinecraftProfile['skins'][number]>({
        id: { type: 'string' },
        state,
        url: { type: 'string' },
        textureKey: { type: 'string' },
        variant: { type: 'string', enum: ['CLASSIC', 'SLIM'] },
      }),
    },
    capes: {
      type: 'array',
      items: recordSchema<MinecraftProfile['capes'][number]>({
        id: { type: 'string' },
        state,
        url: { type: 'string' },
        alias: { type: 'string' },
      }),
    },
    profileActions: { type: 'object', additionalProperties: false },
  }),
  examples: [MINECRAFT_PROFILE_EXAMPLE],
};
const profileAnswer = { 200: MINECRAFT_PROFILE_SCHEMA } as const;
const nameParam = { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 64 } } } as const;
const NAME_CHANGE_SCHEMA = {
  ...recordSchema<NameChange>({ changedAt: { type: 'string' }, createdAt: { type: 'string' }, nameChangeAllowed: { type: 'boolean' } }),
  examples: [{ changedAt: '2026-09-01T12:00:00Z', createdAt: '2026-06-08T05:44:42Z', nameChangeAllowed: true }],
};

export async function minecraftProfileRoutes(fastify: FastifyInstance, service: MinecraftProfiles, maxTextureBytes: number) {
  await fastify.register(async (plugin) => {
    const app = withSchemaTypes(plugin);
    await app.register(multipart, { limits: uploadLimits(maxTextureBytes) });
    // Mojang answers `application/json` without a charset, and @xmcl/user compares the header exactly.
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (String(reply.getHeader('content-type') ?? '').startsWith('application/json')) reply.header('content-type', 'application/json');
      done(null, payload);
    });

    app.get(
      PROFILE_URL,
      {
        config: game,
        schema: {
          summary: "The token's profile: every skin of the account's wardrobe and every cape it owns, the worn ones ACTIVE",
          tags,
          response: { ...profileAnswer, ...servicesErrors(404) },
        },
      },
      async (request) => service.profile(callerOf(request)),
    );

    app.post(
      at('/skins'),
      {
        config: game,
        schema: {
          summary: 'Upload a skin and wear it (multipart variant + file), or wear one of this service’s textures (JSON {variant, url})',
          description:
            'The JSON form takes only this service’s own texture URLs (PUBLIC_URL/textures/{digest}): a skin of the wardrobe with that texture and model is worn again, another enters the wardrobe. A URL from elsewhere is a 400, never fetched. The upload is the web’s: the same picture rules, wardrobe limit and audit.',
          tags,
          uploadForm: {
            type: 'object',
            required: ['file'],
            properties: {
              variant: { type: 'string', description: 'classic or slim (any letter case); without it, told from the picture' },
              file: { type: 'string', format: 'binary', description: 'the skin, a PNG' },
            },
          },
          response: { ...profileAnswer, ...servicesErrors(404) },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        if (request.isMultipart()) {
          const upload = await readUpload(request, 'file', maxTextureBytes);
          return service.uploadSkin(caller, upload.file, parseVariant(upload.fields.get('variant')?.at(-1)));
        }
        const body = request.body as { url?: unknown; variant?: unknown } | null;
        if (typeof body?.url !== 'string' || body.url.length > 2048) throw constraintViolation('url: must be a texture URL');
        return service.skinFromUrl(caller, body.url, parseVariant(body.variant));
      },
    );

    app.delete(
      at('/skins/active'),
      {
        config: game,
        schema: {
          summary: 'Wear no skin (the game draws its default); the wardrobe keeps it',
          tags,
          response: { ...profileAnswer, ...servicesErrors(404) },
        },
      },
      async (request) => service.resetSkin(callerOf(request)),
    );

    app.put(
      at('/capes/active'),
      {
        config: game,
        schema: {
          summary: 'Wear a cape the account owns (400 for any other)',
          tags,
          body: objectSchema(['capeId'], { capeId: { type: 'string', maxLength: 64 } }, { capeId: CAPE_EXAMPLE.id }),
          response: { ...profileAnswer, ...servicesErrors(404) },
        },
      },
      async (request) => service.wearCape(callerOf(request), request.body.capeId),
    );

    app.delete(
      at('/capes/active'),
      {
        config: game,
        schema: { summary: 'Wear no cape; the account keeps it', tags, response: { ...profileAnswer, ...servicesErrors(404) } },
      },
      async (request) => service.hideCape(callerOf(request)),
    );

    app.put(
      at('/name/:name'),
      {
        config: game,
        schema: {
          summary: 'Rename the profile (the web’s rules, PROFILE_RENAME and NAME_CHANGE_DAYS); 403 when taken or too soon',
          tags,
          params: nameParam,
          response: { ...profileAnswer, ...servicesErrors(403, 404) },
        },
      },
      async (request) => service.rename(callerOf(request), request.params.name),
    );

    app.get(
      at('/name/:name/available'),
      {
        config: game,
        schema: {
          summary: 'Whether the profile could take this name: AVAILABLE, DUPLICATE (someone has it) or NOT_ALLOWED',
          tags,
          params: nameParam,
          response: {
            200: {
              type: 'object',
              additionalProperties: false,
              required: ['status'],
              properties: { status: { type: 'string', enum: ['AVAILABLE', 'DUPLICATE', 'NOT_ALLOWED'] } },
              examples: [{ status: 'AVAILABLE' }],
            },
            ...servicesErrors(404),
          },
        },
      },
      async (request) => ({ status: await service.nameAvailability(callerOf(request), request.params.name) }),
    );

    app.get(
      at('/namechange'),
      {
        config: game,
        schema: {
          summary: 'When the name last changed (its creation before any rename), and whether it may change now',
          tags,
          response: { 200: NAME_CHANGE_SCHEMA, ...servicesErrors(404) },
        },
      },
      async (request) => service.nameChange(callerOf(request)),
    );
  });
}
