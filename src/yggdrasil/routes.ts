// The Yggdrasil API under /api/yggdrasil/ (contract section 9): thin routes over YggdrasilService. Errors here
// are `{error, errorMessage}` (errors.ts), answers follow authlib-injector's specification and Mojang's shapes.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { LOOKUP_NAME } from '../minecraft/player-names.ts';
import { readFileSync } from 'node:fs';
import { callerOf } from '../accounts/authenticate.ts';
import { useErrorShape } from '../http/envelope.ts';
import type { ServiceKey } from '../signing/service-key.ts';
import { readUpload, uploadLimits } from '../textures/multipart.ts';
import type { TextureLibrary } from '../textures/library.ts';
import { API_ROOT_PATH, YGGDRASIL_ERROR_SCHEMA, yggdrasilErrorBody, yggdrasilErrors } from './errors.ts';
import type { YggdrasilService } from './service.ts';
import {
  AUTHENTICATE_EXAMPLE,
  AUTHENTICATE_SCHEMA,
  GAME_PROFILE_EXAMPLE,
  GAME_PROFILE_SCHEMA,
  META_SCHEMA,
  PLAYER_CERTIFICATES_EXAMPLE,
  PLAYER_CERTIFICATES_SCHEMA,
  PUBLIC_KEYS_SCHEMA,
  PROFILE_REF_EXAMPLE,
  REFRESH_SCHEMA,
  type ApiMetadata,
  type PublicKeys,
} from './shapes.ts';
import { objectSchema, withSchemaTypes } from '../http/schema-types.ts';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface YggdrasilRouteOptions {
  publicUrl: string;
  serverName: string;
  maxTextureBytes: number;
  /** YGGDRASIL_CONNECT: the metadata names the discovery document. */
  yggdrasilConnect: boolean;
  /** GAME_SERVICES: the metadata asks authlib-injector to forward the game's own account services to us. */
  gameServices: boolean;
  /** The hosts of the fallback sources' textures (contract section 20), which the game must also accept. */
  otherSkinDomains: () => string[];
}

const tags = ['game login (Yggdrasil)'];
const text = { type: 'string', maxLength: 512 } as const;
const TOKEN_EXAMPLE = { accessToken: AUTHENTICATE_EXAMPLE.accessToken, clientToken: AUTHENTICATE_EXAMPLE.clientToken };
const CREDENTIALS_EXAMPLE = { username: 'steve@example.org', password: 'correct horse battery' };
const tokenBody = objectSchema(['accessToken'], { accessToken: text, clientToken: text }, TOKEN_EXAMPLE);
const noContent = { 204: { description: 'Done', type: 'null' } } as const;
const profileParam = { type: 'object', required: ['uuid'], properties: { uuid: { type: 'string', maxLength: 64 } } } as const;
const textureParams = {
  type: 'object',
  required: ['uuid', 'texture'],
  properties: { ...profileParam.properties, texture: { type: 'string', enum: ['skin', 'cape'] } },
} as const;

export async function yggdrasilRoutes(
  fastify: FastifyInstance,
  ygg: YggdrasilService,
  library: TextureLibrary,
  serviceKey: () => Promise<ServiceKey>,
  options: YggdrasilRouteOptions,
) {
  const app = withSchemaTypes(fastify);
  useErrorShape(app, API_ROOT_PATH, yggdrasilErrorBody, YGGDRASIL_ERROR_SCHEMA);
  const at = (path: string) => `${API_ROOT_PATH}${path}`;
  const empty = (reply: FastifyReply) => reply.code(204).send();

  const meta = async (): Promise<ApiMetadata> => ({
    meta: {
      serverName: options.serverName,
      implementationName: 'skinservice',
      implementationVersion: VERSION,
      links: { homepage: `${options.publicUrl}/`, register: `${options.publicUrl}/register` },
      'feature.non_email_login': true,
      'feature.no_email_login': true,
      ...(options.yggdrasilConnect && { 'feature.openid_configuration_url': `${options.publicUrl}/.well-known/openid-configuration` }),
      'feature.enable_profile_key': true,
      'feature.legacy_skin_api': true,
      'feature.no_mojang_namespace': true,
      ...(options.gameServices && { 'feature.enable_mojang_anti_features': true }),
    },
    // authlib-injector compares host names only, without the port.
    skinDomains: [...new Set([new URL(options.publicUrl).hostname, ...options.otherSkinDomains()])],
    signaturePublickey: (await serviceKey()).publicKeyPem,
  });
  for (const url of [API_ROOT_PATH, API_ROOT_PATH.slice(0, -1)]) {
    app.get(
      url,
      {
        schema: {
          summary: 'The API metadata: server name, feature flags, texture domains, the signing key',
          tags,
          response: { 200: META_SCHEMA },
        },
      },
      meta,
    );
  }

  // ---- authserver ----
  app.post(
    at('authserver/authenticate'),
    {
      schema: {
        summary: 'Log in with the mail address or player name and the password; the token is bound to the account’s profile',
        tags,
        body: objectSchema(
          ['username', 'password'],
          {
            username: text,
            password: text,
            clientToken: text,
            requestUser: { type: 'boolean' },
            agent: { type: 'object' },
          },
          { ...CREDENTIALS_EXAMPLE, clientToken: AUTHENTICATE_EXAMPLE.clientToken, requestUser: false },
        ),
        response: { 200: { ...AUTHENTICATE_SCHEMA, examples: [AUTHENTICATE_EXAMPLE] }, ...yggdrasilErrors(403, 429) },
      },
    },
    async (request) => ygg.authenticate(request.body, request.ip),
  );

  app.post(
    at('authserver/refresh'),
    {
      schema: {
        summary: 'A new access token for this one (also after a rename, returning the new name); the old one stops working',
        tags,
        body: objectSchema(
          ['accessToken'],
          {
            accessToken: text,
            clientToken: text,
            requestUser: { type: 'boolean' },
            selectedProfile: { type: 'object', properties: { id: text, name: text } },
          },
          TOKEN_EXAMPLE,
        ),
        response: {
          200: {
            ...REFRESH_SCHEMA,
            examples: [
              {
                accessToken: AUTHENTICATE_EXAMPLE.accessToken,
                clientToken: AUTHENTICATE_EXAMPLE.clientToken,
                selectedProfile: PROFILE_REF_EXAMPLE,
              },
            ],
          },
          ...yggdrasilErrors(403),
        },
      },
    },
    async (request) => ygg.refresh(request.body),
  );

  app.post(
    at('authserver/validate'),
    {
      schema: {
        summary: 'Whether the token may be used as it is (204), or must be refreshed or is dead (403)',
        tags,
        body: tokenBody,
        response: { ...noContent, ...yggdrasilErrors(403) },
      },
    },
    async (request, reply) => {
      await ygg.validate(request.body.accessToken, request.body.clientToken);
      return empty(reply);
    },
  );

  app.post(
    at('authserver/invalidate'),
    { schema: { summary: 'Revokes the token; 204 whether or not it was live', tags, body: tokenBody, response: noContent } },
    async (request, reply) => {
      await ygg.invalidate(request.body.accessToken);
      return empty(reply);
    },
  );

  app.post(
    at('authserver/signout'),
    {
      schema: {
        summary: 'Revokes every game token of the account (needs the password)',
        tags,
        body: objectSchema(['username', 'password'], { username: text, password: text }, CREDENTIALS_EXAMPLE),
        response: { ...noContent, ...yggdrasilErrors(403, 429) },
      },
    },
    async (request, reply) => {
      await ygg.signout(request.body.username, request.body.password, request.ip);
      return empty(reply);
    },
  );

  // ---- sessionserver ----
  app.post(
    at('sessionserver/session/minecraft/join'),
    {
      schema: {
        summary: 'The game client joins a server: remembered for 30 seconds, for the server’s hasJoined',
        tags,
        body: objectSchema(
          ['accessToken', 'selectedProfile', 'serverId'],
          { accessToken: text, selectedProfile: text, serverId: text },
          {
            accessToken: AUTHENTICATE_EXAMPLE.accessToken,
            selectedProfile: PROFILE_REF_EXAMPLE.id,
            serverId: '-51b1471f2f756c9a5081d8e39f56aaffdbd6a9de',
          },
        ),
        response: { ...noContent, ...yggdrasilErrors(403) },
      },
    },
    async (request, reply) => {
      await ygg.join(request.body, request.ip);
      return empty(reply);
    },
  );

  app.get(
    at('sessionserver/session/minecraft/hasJoined'),
    {
      schema: {
        summary: 'The game server checks a joining player: 200 with the signed profile, 204 when that join did not happen',
        tags,
        querystring: { type: 'object', required: ['username', 'serverId'], properties: { username: text, serverId: text, ip: text } },
        response: { 200: { ...GAME_PROFILE_SCHEMA, examples: [GAME_PROFILE_EXAMPLE] }, ...noContent },
      },
    },
    async (request, reply) => {
      const { username, serverId, ip } = request.query;
      const profile = await ygg.hasJoined(username, serverId, ip);
      return profile ?? empty(reply);
    },
  );

  app.get(
    at('sessionserver/session/minecraft/profile/:uuid'),
    {
      schema: {
        summary: 'A profile with its textures (signed with unsigned=false); 204 when unknown',
        tags,
        params: profileParam,
        querystring: { type: 'object', properties: { unsigned: { type: 'string', enum: ['true', 'false'] } } },
        response: { 200: { ...GAME_PROFILE_SCHEMA, examples: [GAME_PROFILE_EXAMPLE] }, ...noContent },
      },
    },
    async (request, reply) => {
      const profile = await ygg.profile(request.params.uuid, request.query.unsigned === 'false');
      return profile ?? empty(reply);
    },
  );

  // ---- api: the player's own textures, from the launcher ----
  await fastify.register(async (plugin) => {
    const uploads = withSchemaTypes(plugin);
    await uploads.register(multipart, { limits: uploadLimits(options.maxTextureBytes) });
    uploads.put(
      at('api/user/profile/:uuid/:texture'),
      {
        config: { access: 'game' },
        schema: {
          summary:
            'Upload and wear a skin (multipart `model` = slim or anything else for classic, `file` = PNG), or a cape with USER_CAPES=true (else 403)',
          tags,
          params: textureParams,
          uploadForm: {
            type: 'object',
            required: ['file'],
            properties: {
              file: { type: 'string', format: 'binary', description: 'the skin or cape, a PNG' },
              model: { type: 'string', description: '"slim" for slim arms; anything else (or nothing) is classic' },
            },
          },
          response: { ...noContent, ...yggdrasilErrors(400, 401, 403, 413) },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        // The checks before the body (the token's came before this handler): a refused upload is answered at once,
        // never read up to the size limit.
        ygg.checkUpload(caller, request.params.uuid, request.params.texture);
        const upload = await readUpload(request, 'file', options.maxTextureBytes);
        const slim = upload.fields.get('model')?.at(-1) === 'slim';
        await ygg.uploadTexture(caller, request.params.texture, upload.file, slim);
        return empty(reply);
      },
    );
  });
  app.delete(
    at('api/user/profile/:uuid/:texture'),
    {
      config: { access: 'game' },
      schema: {
        summary: 'Wear no skin (the game draws its default) or no cape; the wardrobe keeps them',
        tags,
        params: textureParams,
        response: { ...noContent, ...yggdrasilErrors(401, 403) },
      },
    },
    async (request, reply) => {
      await ygg.takeOff(callerOf(request), request.params.uuid, request.params.texture);
      return empty(reply);
    },
  );

  // ---- minecraftservices: chat signing ----
  app.post(
    at('minecraftservices/player/certificates'),
    {
      config: { access: 'game' },
      schema: {
        summary: 'A chat-signing key pair for the player, signed by the service key (Minecraft 1.19+)',
        tags,
        response: { 200: { ...PLAYER_CERTIFICATES_SCHEMA, examples: [PLAYER_CERTIFICATES_EXAMPLE] }, ...yggdrasilErrors(401, 429) },
      },
    },
    async (request) => ygg.certificates(callerOf(request)),
  );
  app.get(
    at('minecraftservices/publickeys'),
    { schema: { summary: 'The service key, as Mojang lists its keys', tags, response: { 200: PUBLIC_KEYS_SCHEMA } } },
    async (): Promise<PublicKeys> => {
      const publicKey = (await serviceKey()).publicKeyDer.toString('base64');
      return { profilePropertyKeys: [{ publicKey }], playerCertificateKeys: [{ publicKey }], authenticationKeys: [] };
    },
  );

  // ---- the legacy skin address of old game versions ----
  app.get(
    at('skins/MinecraftSkins/:file'),
    {
      schema: {
        summary: 'The skin file of a player, by name ({name}.png); 404 when the player wears none',
        tags,
        params: { type: 'object', required: ['file'], properties: { file: { type: 'string', pattern: `^${LOOKUP_NAME}\\.png$` } } },
        response: {
          200: { description: 'The skin PNG', content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } },
          ...yggdrasilErrors(404),
        },
      },
    },
    async (request, reply) => {
      const player = await ygg.legacySkin(request.params.file.slice(0, -'.png'.length));
      if (!player?.skin) return reply.code(404).send(yggdrasilErrorBody(404, `${request.params.file} wears no skin`));
      return reply.type('image/png').send(await library.png(player.skin.digest));
    },
  );
}
