// Serves the browser app built by Vite (web/ into web/dist at install time): every page path answers with
// index.html, and the hashed bundles under /assets are cached for good. The files are read once at start.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
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

export function webRoutes(app: FastifyInstance, webDir = DEFAULT_WEB_DIR) {
  const indexFile = join(webDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ webDir }, 'the web front end is not built (npm run build:web): pages answer 503');
  }
  const index = existsSync(indexFile) ? readFileSync(indexFile) : null;
  const assetsDir = join(webDir, 'assets');
  const assets = new Map<string, Buffer>(
    existsSync(assetsDir) ? readdirSync(assetsDir).map((name) => [name, readFileSync(join(assetsDir, name))]) : [],
  );

  for (const path of PAGE_PATHS) {
    app.get(path, async (_request, reply) => {
      if (!index) throw new ApiError(503, 'The web front end is not built: run npm run build:web');
      return reply
        .header('content-security-policy', CONTENT_SECURITY_POLICY)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(index);
    });
  }

  app.get<{ Params: { name: string } }>(
    '/assets/:name',
    { schema: { params: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 128 } } } } },
    async (request, reply) => {
      const body = assets.get(request.params.name);
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
