// The OpenAPI 3.1 document at /api/openapi.json, generated from the route schemas, and the docs page at /api/docs.
// What every route shares (who may call it, the errors any route with input or a token can give, the upload
// forms) is added to the document here, so that the routes declare only what is their own.
import swagger, { type SwaggerTransform } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Access } from '../accounts/authenticate.ts';
import { errorResponsesOf, errorSchemaIdFor, type ErrorStatus } from '../http/envelope.ts';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The multipart form an upload route reads itself (see textures/multipart.ts). Documentation only: as a body
     * schema it would be validated, and the form's parts are not a body Fastify parses.
     */
    uploadForm?: object;
  }
}

const ACCESS_DESCRIPTIONS: Record<Access, string> = {
  public: 'Access: anyone, no token.',
  registering: 'Access: any valid token, also of an account that has not finished registration.',
  player: 'Access: a player (a finished, verified, unbanned account).',
  moderator: 'Access: moderators (permission level 1) and above.',
  admin: 'Access: admins (permission level 2) and above.',
  owner: 'Access: owners (permission level 3).',
};

// The API and the health checks; the web front end's pages are not part of it.
const DOCUMENTED_PATH = /^\/(api\/|healthz$|readyz$)/;

/** Adds to a route's schema what every route shares; errors in the shape of the API the route belongs to. */
const documentRouteOf =
  (app: FastifyInstance): SwaggerTransform =>
  ({ schema, url, route }) => {
    if (!schema || !DOCUMENTED_PATH.test(url)) return { schema: { ...schema, hide: true }, url };
    const access = route.config?.access ?? 'public';
    const { uploadForm, ...own } = schema;
    // A route with a secret of its own (the GravitLauncher API's GRAVIT_TOKEN) declares its security and says who
    // may call it in its description.
    const ownSecret = own.security !== undefined;
    const hasBody = own.body !== undefined || uploadForm !== undefined;
    const shared: ErrorStatus[] = [];
    if (hasBody || own.params !== undefined || own.querystring !== undefined) shared.push(400);
    if (access !== 'public') shared.push(401, 403);
    if (ownSecret) shared.push(401);
    if (hasBody) shared.push(413, 415);
    return {
      url,
      schema: {
        ...own,
        ...(uploadForm && { body: uploadForm, consumes: ['multipart/form-data'] }),
        ...(access !== 'public' && { security: [{ bearer: [] }] }),
        description: ownSecret ? own.description : [own.description, ACCESS_DESCRIPTIONS[access]].filter(Boolean).join('\n\n'),
        response: { ...errorResponsesOf(errorSchemaIdFor(app, url), ...shared), ...(own.response as object) },
      },
    };
  };

/** Registers the document and the page; call it before any route is registered, so that it sees them all. */
export async function installOpenApi(app: FastifyInstance, publicUrl: string) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Skin service',
        version: '1',
        description:
          'A self-hosted Minecraft account, skin and cape service. Every JSON answer is the envelope `{error, msg, url, data}` ' +
          'except the launcher document and the answer of POST /api/admin/mail; errors carry `error: true`, `url: null`, ' +
          '`data: {}` and a `msg` that names what is wrong. Protected routes take the header `Authorization: Bearer <token>` ' +
          'with the token of POST /api/auth/login.',
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          gravitToken: { type: 'http', scheme: 'bearer', description: 'GRAVIT_TOKEN, the secret shared with the LaunchServer' },
        },
      },
      tags: [
        { name: 'auth', description: 'Registration, login, logout and password reset' },
        { name: 'home', description: "The caller's own profile, skins and capes" },
        { name: 'discord', description: 'Linking a Discord account to the account, and logging in with it' },
        { name: 'admin', description: 'User, skin and cape administration, roles, audit log, mail to all users' },
        { name: 'images', description: 'Launcher document, renders and texture files' },
        {
          name: 'game login (Yggdrasil)',
          description:
            "authlib-injector's Yggdrasil API for launchers and game servers, under /api/yggdrasil/; errors are {error, errorMessage}",
        },
        {
          name: 'GravitLauncher',
          description:
            "A GravitLauncher LaunchServer's account backend under /api/gravit/ (only with GRAVIT_TOKEN set); errors are {error, code}",
        },
        { name: 'health', description: 'Liveness and readiness' },
      ],
    },
    // Shared schemas (the error envelope) appear under their own $id rather than as def-0.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transform: documentRouteOf(app),
  });
  // Everything the page loads comes from this service (self-hosters sit behind firewalls); the policy holds it to that.
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    theme: { title: 'Skin service API' },
    staticCSP:
      "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'",
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
