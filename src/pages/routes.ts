// Serves the browser app built by Vite (web/ into web/dist at install time): every page path answers with
// index.html, unknown page paths get it too (with a 404, for the app's own not-found page), and the hashed
// bundles under /assets are cached for good. The files are read once at start.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, notFound } from '../http/envelope.ts';

/** The paths the API's `url` values and its mails point to, plus the admin console. */
export const PAGE_PATHS = [
  '/',
  '/login',
  '/register',
  '/register/confirm',
  '/register/finish',
  '/reset',
  '/reset/confirm',
  '/home',
  '/admin',
];

export const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

// Everything comes from this origin: the policy makes the browser refuse anything else, so a stray reference to
// another site shows up as an error instead of a silent request (self-hosters run behind firewalls).
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
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
  index: Buffer | null;
  assets: Map<string, Buffer>;
}

export function readBuiltPages(webDir = DEFAULT_WEB_DIR): BuiltPages {
  const indexFile = join(webDir, 'index.html');
  const assetsDir = join(webDir, 'assets');
  return {
    dir: webDir,
    index: existsSync(indexFile) ? readFileSync(indexFile) : null,
    assets: new Map(existsSync(assetsDir) ? readdirSync(assetsDir).map((name) => [name, readFileSync(join(assetsDir, name))]) : []),
  };
}

function sendApp(reply: FastifyReply, index: Buffer) {
  return reply
    .header('content-security-policy', CONTENT_SECURITY_POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-cache')
    .type('text/html; charset=utf-8')
    .send(index);
}

export function pageRoutes(app: FastifyInstance, pages: BuiltPages) {
  if (!pages.index) app.log.warn({ webDir: pages.dir }, 'the web front end is not built (npm run build:web): pages answer 503');

  for (const path of PAGE_PATHS) {
    app.get(path, async (_request, reply) => {
      if (!pages.index) throw new ApiError(503, 'The web front end is not built: run npm run build:web');
      return sendApp(reply, pages.index);
    });
  }

  app.get<{ Params: { name: string } }>(
    '/assets/:name',
    { schema: { params: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 128 } } } } },
    async (request, reply) => {
      const body = pages.assets.get(request.params.name);
      if (!body) throw notFound(`No asset ${request.params.name}`);
      // Vite puts a content hash in every asset name, so a name never changes meaning.
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .type(CONTENT_TYPES[extname(request.params.name)] ?? 'application/octet-stream')
        .send(body);
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
    const page = path === '/index.html' ? '/' : path.replace(/\/+$/, '');
    if (page !== path && PAGE_PATHS.includes(page)) {
      void reply.redirect(queryAt < 0 ? page : page + request.url.slice(queryAt), 301);
    } else {
      void sendApp(reply.code(404), pages.index);
    }
    return true;
  };
}
