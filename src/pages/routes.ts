// Serves the browser app built by Vite (web/ into web/dist at install time): every page path answers with
// index.html, unknown page paths get it too (with a 404, for the app's own not-found page), and the hashed
// bundles under /assets are cached for good. The files are read once at start, with the brotli and gzip copies the
// build made of them (src/pages/encodings.ts); each answer is the one the browser's Accept-Encoding takes.
import { existsSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, message, notFound } from '../http/envelope.ts';
import { PAGE_PATHS } from '../shared/pages.ts';
import { chooseEncoding, COMPRESSED_SUFFIXES, readBuiltFile, type BuiltFile } from './encodings.ts';
import { withSchemaTypes } from '../http/schema-types.ts';

export const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

// Everything comes from this origin: the policy makes the browser refuse anything else, so a stray reference to
// another site shows up as an error instead of a silent request (self-hosters run behind firewalls). The one
// exception: the avatar of a linked Discord account, an image on Discord's CDN (docs/decisions.md, "Discord").
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' data: blob: https://cdn.discordapp.com",
  "style-src 'self'",
  "script-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** The built app, read once at start: index.html (null when the app is not built) and the files under assets/. */
export interface BuiltPages {
  dir: string;
  index: BuiltFile | null;
  assets: Map<string, BuiltFile>;
}

export function readBuiltPages(webDir = DEFAULT_WEB_DIR): BuiltPages {
  const indexFile = join(webDir, 'index.html');
  const assetsDir = join(webDir, 'assets');
  const names = existsSync(assetsDir)
    ? readdirSync(assetsDir).filter((name) => !COMPRESSED_SUFFIXES.some((suffix) => name.endsWith(suffix)))
    : [];
  return {
    dir: webDir,
    index: existsSync(indexFile) ? readBuiltFile(indexFile) : null,
    assets: new Map(names.map((name) => [name, readBuiltFile(join(assetsDir, name))])),
  };
}

/** The file in the coding the request accepts; Vary tells caches that the answer depends on Accept-Encoding. */
function sendBuiltFile(request: FastifyRequest, reply: FastifyReply, file: BuiltFile) {
  const { body, coding } = chooseEncoding(file, request.headers['accept-encoding']);
  if (Object.keys(file.compressed).length > 0) reply.header('vary', 'accept-encoding');
  if (coding) reply.header('content-encoding', coding);
  return reply.header('x-content-type-options', 'nosniff').send(body);
}

// no-cache: the browser asks again every time (answered from its cache only after revalidating), so a new build's
// index.html, naming new hashed files, is seen at once.
function sendApp(request: FastifyRequest, reply: FastifyReply, index: BuiltFile) {
  reply.header('content-security-policy', CONTENT_SECURITY_POLICY).header('cache-control', 'no-cache').type('text/html; charset=utf-8');
  return sendBuiltFile(request, reply, index);
}

export function pageRoutes(fastify: FastifyInstance, pages: BuiltPages) {
  const app = withSchemaTypes(fastify);
  if (!pages.index) app.log.warn({ webDir: pages.dir }, 'the web front end is not built (npm run build:web): pages answer 503');

  for (const path of PAGE_PATHS) {
    app.get(path, async (request, reply) => {
      if (!pages.index) throw new ApiError(503, message('pages.notBuilt'));
      return sendApp(request, reply, pages.index);
    });
  }

  app.get(
    '/assets/:name',
    { schema: { params: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 128 } } } } },
    async (request, reply) => {
      const file = pages.assets.get(request.params.name);
      if (!file) throw notFound('pages.noAsset', { name: request.params.name });
      // Vite puts a content hash in every asset name, so a name never changes meaning.
      reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .type(CONTENT_TYPES[extname(request.params.name)] ?? 'application/octet-stream');
      return sendBuiltFile(request, reply, file);
    },
  );
}

/**
 * What a browser gets for an address no route knows, so that a person never sees raw JSON: a page path with a
 * trailing slash, and /index.html, redirect to the page; any other path outside /api/ gets the app with status
 * 404, and the app shows its "page not found" page. API paths (and anything but GET and HEAD) are left to the 404
 * envelope. Answers true when it replied.
 */
export function answerUnknownPage(pages: BuiltPages) {
  return (request: FastifyRequest, reply: FastifyReply): boolean => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !pages.index) return false;
    const queryAt = request.url.indexOf('?');
    const path = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
    if (path === '/api' || path.startsWith('/api/')) return false;
    const page = path === '/index.html' ? '/' : withoutTrailingSlashes(path);
    if (page !== path && (PAGE_PATHS as readonly string[]).includes(page)) {
      void reply.redirect(queryAt < 0 ? page : page + request.url.slice(queryAt), 301);
    } else {
      void sendApp(request, reply.code(404), pages.index);
    }
    return true;
  };
}

/** The path without its trailing slashes, by a loop: the regex /\/+$/ retries from every slash, quadratic in them. */
function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === '/') end--;
  return path.slice(0, end);
}
