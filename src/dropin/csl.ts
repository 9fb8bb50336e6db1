// CustomSkinLoader's CustomSkinAPI (contract section 13; xfl03/CustomSkinLoaderAPI decides the rest), with the root
// {PUBLIC_URL}/csl/: the profile at /csl/{name}.json, the textures at /csl/textures/{hash}, answered exactly like
// /textures/{hash}.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../http/envelope.ts';
import { CHANGING, sendImage } from '../images/reply.ts';
import { textureFileRoute } from '../images/routes.ts';
import type { CustomSkinProfile, ImageService } from '../images/service.ts';
import type { Query } from './params.ts';

/** The profile document: `skins` holds exactly one model (the one the player's skin is drawn with), or none. */
export interface CustomSkinDocument {
  username: string;
  skins: { default?: string; slim?: string };
  cape?: string;
}

export function customSkinDocument(profile: CustomSkinProfile): CustomSkinDocument {
  const document: CustomSkinDocument = { username: profile.username, skins: {} };
  if (profile.skin) document.skins[profile.skin.slim ? 'slim' : 'default'] = profile.skin.digest;
  if (profile.cape) document.cape = profile.cape.digest;
  return document;
}

export function customSkinApiRoutes(app: FastifyInstance, images: ImageService) {
  // `{name}.json` is one path segment; names are compared ignoring case, as CustomSkinAPI asks.
  app.get<{ Params: { file: string }; Querystring: Query }>('/csl/:file', async (request, reply) => {
    const { file } = request.params;
    const name = file.endsWith('.json') ? file.slice(0, -'.json'.length) : null;
    if (!name) throw notFound('images.noCslDocument', { file });
    const profile = await images.customSkinProfile(name);
    if (!profile) throw notFound('images.noPlayerNamed', { name });
    const body = JSON.stringify(customSkinDocument(profile));
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    return sendImage(request, reply, { etag, png: body }, CHANGING, 'application/json; charset=utf-8');
  });

  textureFileRoute(
    app,
    images,
    '/csl/textures/:hash',
    "CustomSkinAPI's texture address: the texture file by the SHA-256 of its bytes, exactly as /textures/{hash}",
  );
}
