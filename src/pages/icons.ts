// The site's icons: the head of the default skin in 3D, drawn by our own renderer (src/rendering/), at the sizes
// browsers and phones ask for. Each is made on its first request and kept (a few kilobytes in all); web/index.html
// links them, and the web manifest names the large ones for a phone's home screen.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sendImage } from '../images/reply.ts';
import { defaultSkin } from '../rendering/default-skin.ts';
import { encodeIndexedPng } from '../rendering/png.ts';
import { renderPixels } from '../rendering/render.ts';
import type { RgbaImage } from '../skin/texture.ts';

/** The favicon's size, and the app icons' (Apple's touch icon, and the manifest's two). */
export const FAVICON_SIZE = 32;
export const APP_ICON_SIZES = [180, 192, 512] as const;
/** The app icons' tile: the pages' accent green (web/src/style.css, light theme); phones show icons opaque. */
const TILE = [0x2f, 0x6f, 0x3e] as const;
/** The head's share of an app icon's width: inside the circle that masks of home screens keep (80 %). */
const HEAD_SHARE = 0.62;
/** Browsers may keep an icon a day; the ETag makes asking again cheap. */
const ICON_CACHE = 'public, max-age=86400';

const headOfDefaultSkin = (size: number) => renderPixels({ view: 'head', type: 'player', size, skin: defaultSkin(false), slim: false });

/** The head drawn over an opaque tile of `size`, centred. */
function appIcon(size: number): RgbaImage {
  const head = headOfDefaultSkin(Math.round(size * HEAD_SHARE));
  const data = new Uint8Array(size * size * 4);
  const offset = Math.floor((size - head.width) / 2);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const at = (y * size + x) * 4;
      const headX = x - offset;
      const headY = y - offset;
      const inside = headX >= 0 && headY >= 0 && headX < head.width && headY < head.height;
      const from = (headY * head.width + headX) * 4;
      const alpha = inside ? head.data[from + 3]! / 255 : 0;
      for (let channel = 0; channel < 3; channel++) {
        data[at + channel] = Math.round(TILE[channel]! * (1 - alpha) + (inside ? head.data[from + channel]! : 0) * alpha);
      }
      data[at + 3] = 255;
    }
  }
  return { width: size, height: size, data };
}

/** A Windows icon file holding one PNG (a format every browser reads), for clients that ask for /favicon.ico. */
function icoOf(png: Buffer, size: number): Buffer {
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // an icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(size % 256, 6); // width (0 means 256)
  header.writeUInt8(size % 256, 7); // height
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(header.length, 18);
  return Buffer.concat([header, png]);
}

/** Made once, on first use. */
function lazily<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const withEtag = (png: Buffer) => ({ png, etag: `"${createHash('sha256').update(png).digest('base64url').slice(0, 27)}"` });

export function iconRoutes(app: FastifyInstance, siteName: string) {
  const icons = new Map<string, () => { png: Buffer; etag: string }>();
  const favicon = lazily(() => withEtag(encodeIndexedPng(headOfDefaultSkin(FAVICON_SIZE))));
  icons.set('/favicon.png', favicon);
  for (const size of APP_ICON_SIZES)
    icons.set(
      `/icons/icon-${size}.png`,
      lazily(() => withEtag(encodeIndexedPng(appIcon(size)))),
    );
  for (const [path, icon] of icons) {
    app.get(path, async (request, reply) => sendImage(request, reply, icon(), ICON_CACHE));
  }
  const ico = lazily(() => withEtag(icoOf(favicon().png, FAVICON_SIZE)));
  app.get('/favicon.ico', async (request, reply) => sendImage(request, reply, ico(), ICON_CACHE, 'image/x-icon'));

  // What a phone needs to put the site on its home screen: the name, the icons, where to start.
  const manifest = JSON.stringify({
    name: siteName,
    short_name: siteName,
    start_url: '/',
    display: 'browser',
    background_color: '#f6f7f9',
    theme_color: '#2f6f3e',
    icons: [192, 512].map((size) => ({ src: `/icons/icon-${size}.png`, sizes: `${size}x${size}`, type: 'image/png' })),
  });
  app.get('/manifest.webmanifest', async (_request, reply) =>
    reply.header('cache-control', ICON_CACHE).type('application/manifest+json; charset=utf-8').send(manifest),
  );
}
