// Minotar-style URLs (contract section 13; minotar.net's documentation and minotar/imgd decide the rest):
// /avatar, /helm, /cube, /body and /bust as /{kind}/{id}[/{size}][.png], and /skin/{id}[.png] and
// /download/{id}[.png] (the skin file, the latter as an attachment). A player without a skin, known or not, is drawn
// with the model the game gives the UUID (contract section 25; Steve for a name nobody has); names and UUIDs both
// work; query parameters are ignored. `cubehelm` and `armor/*` are not served.
import type { FastifyInstance } from 'fastify';
import { notFound } from '../http/envelope.ts';
import type { ImageService, PlayerView } from '../images/service.ts';
import type { RenderType } from '../rendering/render.ts';
import { playerId } from './params.ts';
import { dropInImageRoute, type DropInRequest } from './image-route.ts';

export const MINOTAR_SIZE = { min: 8, max: 300, default: 180 } as const;

/** What each kind draws: avatar, body and bust flat, cube in 3D; only helm adds the second layer. */
const KINDS: Record<string, { view: PlayerView; type: RenderType; overlay: boolean }> = {
  avatar: { view: 'head', type: 'skin', overlay: false },
  helm: { view: 'head', type: 'skin', overlay: true },
  cube: { view: 'head', type: 'player', overlay: false },
  body: { view: 'body', type: 'skin', overlay: false },
  bust: { view: 'bust', type: 'skin', overlay: false },
};

/** A path value without its optional `.png`; any other extension is refused (Minotar's SVGs are not served). */
function withoutPng(value: string): string {
  const bare = value.replace(/\.png$/i, '');
  if (bare.includes('.')) throw notFound('images.pngOnly', { value });
  return bare;
}

/** Minotar's size: a whole number clamped to 8-300; anything that is not a number is the default 180. */
export function minotarSize(value: string | undefined): number {
  if (value === undefined || !/^[+-]?\d+$/.test(value)) return MINOTAR_SIZE.default;
  return Math.min(MINOTAR_SIZE.max, Math.max(MINOTAR_SIZE.min, Number(value)));
}

export function minotarRoutes(app: FastifyInstance, images: ImageService) {
  for (const [kind, { view, type, overlay }] of Object.entries(KINDS)) {
    for (const url of [`/${kind}/:id`, `/${kind}/:id/:size`]) {
      dropInImageRoute(app, images, url, {
        parse: (request: DropInRequest<{ id: string; size?: string }>) => ({
          id: playerId(withoutPng(request.params.id)),
          size: minotarSize(request.params.size === undefined ? undefined : withoutPng(request.params.size)),
        }),
        key: ({ id, size }) => `\u0000minotar/${kind}/${id}/${size}`,
        produce: ({ id, size }, client) => images.imageOrDefault(view, id, type, size, { client, overlay }),
      });
    }
  }

  for (const kind of ['skin', 'download'] as const) {
    dropInImageRoute(app, images, `/${kind}/:id`, {
      parse: (request: DropInRequest<{ id: string }>) => playerId(withoutPng(request.params.id)),
      key: (id) => `\u0000minotar/skin/${id}`,
      produce: (id) => images.skinFileOrDefault(id),
      headers: kind === 'download' ? { 'content-disposition': 'attachment; filename="skin.png"' } : undefined,
    });
  }
}
