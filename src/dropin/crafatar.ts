// Crafatar-style URLs (contract section 13; crafatar.com's documentation and crafatar/crafatar decide the rest):
// /avatars/{id}, /renders/head/{id}, /renders/body/{id}, /skins/{id}, /capes/{id}. Names work too (Crafatar
// refuses them); any file extension is ignored; parameters Crafatar does not know are ignored.
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../http/envelope.ts';
import { MAX_RENDER_SIZE } from '../rendering/render.ts';
import type { ImageService } from '../images/service.ts';
import { crafatarDefault, first, leadingInteger, playerId, present, type Query } from './params.ts';
import { dropInImageRoute, type DropInRequest } from './image-route.ts';

export const AVATAR_SIZE = { min: 1, max: MAX_RENDER_SIZE, default: 160 } as const;
export const RENDER_SCALE = { min: 1, max: 10, default: 6 } as const;
/** Crafatar's renders are 20 pixels wide per unit of `scale` (its canvas width), heads and bodies alike. */
export const PIXELS_PER_SCALE = 20;

/** The id before any file extension: Crafatar reads `{id}.png`, `{id}.jpg` and `{id}` alike. */
const idOf = (request: { params: { id: string } }) => playerId(request.params.id.split('.')[0]!);

/** `size` or `scale`: the leading integer, absent when 0 or not a number, refused outside its range. */
function ranged(query: Query, name: string, range: { min: number; max: number; default: number }): number {
  const value = leadingInteger(first(query, name)) ?? range.default;
  if (value < range.min || value > range.max)
    throw badRequest('images.range', { name, min: range.min, max: range.max, default: range.default });
  return value;
}

/** The second layer: `overlay`, or its old name `helm`, present with any value. */
const overlayOf = (query: Query) => present(query, 'overlay') || present(query, 'helm');

export function crafatarRoutes(app: FastifyInstance, images: ImageService) {
  type ById = { id: string };
  dropInImageRoute(app, images, '/avatars/:id', {
    parse: (request: DropInRequest<ById>) => ({
      id: idOf(request),
      size: ranged(request.query, 'size', AVATAR_SIZE),
      overlay: overlayOf(request.query),
      withoutSkin: crafatarDefault(first(request.query, 'default')),
    }),
    key: ({ id, size, overlay, withoutSkin }) => `\u0000crafatar/avatar/${id}/${size}/${overlay}/${withoutSkin}`,
    produce: ({ id, size, overlay, withoutSkin }, client) =>
      images.imageOrDefault('head', id, 'skin', size, { client, overlay, withoutSkin, minimumSize: AVATAR_SIZE.min }),
  });

  for (const view of ['head', 'body'] as const) {
    dropInImageRoute(app, images, `/renders/${view}/:id`, {
      parse: (request: DropInRequest<ById>) => ({
        id: idOf(request),
        scale: ranged(request.query, 'scale', RENDER_SCALE),
        overlay: overlayOf(request.query),
        withoutSkin: crafatarDefault(first(request.query, 'default')),
      }),
      key: ({ id, scale, overlay, withoutSkin }) => `\u0000crafatar/render/${view}/${id}/${scale}/${overlay}/${withoutSkin}`,
      produce: ({ id, scale, overlay, withoutSkin }, client) =>
        images.imageOrDefault(view, id, 'player', scale * PIXELS_PER_SCALE, { client, overlay, withoutSkin }),
    });
  }

  dropInImageRoute(app, images, '/skins/:id', {
    parse: (request: DropInRequest<ById>) => ({ id: idOf(request), withoutSkin: crafatarDefault(first(request.query, 'default')) }),
    key: ({ id, withoutSkin }) => `\u0000crafatar/skin/${id}/${withoutSkin}`,
    produce: ({ id, withoutSkin }) => images.skinFileOrDefault(id, { withoutSkin }),
  });

  // 404 when the player wears no cape (or nobody has that id); Crafatar's `default` redirect is not followed here.
  dropInImageRoute(app, images, '/capes/:id', {
    parse: (request: DropInRequest<ById>) => idOf(request),
    key: (id) => `\u0000crafatar/cape/${id}`,
    produce: (id) => images.capeFile(id),
  });
}
