// The OpenAPI 3.1 document at /api/openapi.json, generated from the route schemas, and the docs page at /api/docs.
// What every route shares (who may call it, the errors any route with input or a token can give, the upload
// forms) is added to the document here, so that the routes declare only what is their own.
import swagger, { type SwaggerTransform } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Access } from '../accounts/authenticate.ts';
import { ERROR_MEANINGS, errorResponsesOf, errorSchemaIdFor, languageOf, type ErrorStatus } from '../http/envelope.ts';
import { LOCALES_DIR } from '../i18n/i18n.ts';
import { isLanguage, type Language } from '../i18n/languages.ts';

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
  game: 'Access: a game login token (Authorization: Bearer <accessToken of authserver/authenticate>), live, of a player in good standing.',
};

// The API and the health checks; the web front end's pages are not part of it.
const DOCUMENTED_PATH = /^\/(api\/|healthz$|readyz$)/;

/** The English texts of an operation as its route declares them, kept apart for the translated documents. */
interface OperationTexts {
  summary?: string;
  description?: string;
  /** The sentence saying who may call it; none for a route with a secret of its own. */
  access?: Access;
}

/** "GET /api/home/skins/{uuid}": an operation as the document names it, and its key in locales/<language>/openapi.json. */
export const operationKey = (method: string, url: string) => `${method.toUpperCase()} ${url.replace(/:([A-Za-z_]+)/g, '{$1}')}`;

/**
 * The examples of the routes' bodies and JSON answers as the routes declare them, by "METHOD /path body" and
 * "METHOD /path 200". @fastify/swagger converts an example as if it were a schema: an answer with a field named
 * `properties` (the game profile's) came out as an object of its items. The document gets them back as declared.
 */
type DeclaredExamples = Map<string, unknown>;

/** The one example a schema declares (`examples: [one]`, as every route here does), if any. */
const declaredExample = (schema: unknown): { example: unknown } | undefined => {
  const examples = (schema as { examples?: unknown[] } | undefined)?.examples;
  return examples?.length === 1 ? { example: examples[0] } : undefined;
};

/** Adds to a route's schema what every route shares; errors in the shape of the API the route belongs to. */
const documentRouteOf =
  (app: FastifyInstance, texts: Map<string, OperationTexts>, examples: DeclaredExamples): SwaggerTransform =>
  ({ schema, url, route }) => {
    if (!schema || !DOCUMENTED_PATH.test(url)) return { schema: { ...schema, hide: true }, url };
    const access = route.config?.access ?? 'public';
    const { uploadForm, ...own } = schema;
    // A route with a secret of its own (the GravitLauncher API's GRAVIT_TOKEN) declares its security and says who
    // may call it in its description.
    const ownSecret = own.security !== undefined;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      const key = operationKey(method, url);
      texts.set(key, {
        summary: own.summary,
        description: own.description,
        ...(ownSecret ? {} : { access: access as Access }),
      });
      const body = declaredExample(own.body);
      if (body) examples.set(`${key} body`, body.example);
      for (const [status, answer] of Object.entries((own.response ?? {}) as Record<string, unknown>)) {
        const declared = declaredExample(answer);
        if (declared) examples.set(`${key} ${status}`, declared.example);
      }
    }
    const hasBody = own.body !== undefined || uploadForm !== undefined;
    const shared: ErrorStatus[] = [];
    if (hasBody || own.params !== undefined || own.querystring !== undefined) shared.push(400);
    // A refused game token is a 401 in every case; what else a game route refuses (403) it declares itself.
    if (access === 'game') shared.push(401);
    else if (access !== 'public') shared.push(401, 403);
    if (ownSecret) shared.push(401);
    if (hasBody) shared.push(413, 415);
    return {
      url,
      schema: {
        ...own,
        ...(uploadForm && { body: uploadForm, consumes: ['multipart/form-data'] }),
        ...(access !== 'public' && { security: [{ [access === 'game' ? 'gameToken' : 'bearer']: [] }] }),
        description: ownSecret ? own.description : [own.description, ACCESS_DESCRIPTIONS[access]].filter(Boolean).join('\n\n'),
        response: { ...errorResponsesOf(errorSchemaIdFor(app, url), ...shared), ...(own.response as object) },
      },
    };
  };

/** The user-facing texts of the document in one language: locales/<language>/openapi.json. */
export interface OpenApiCatalogue {
  info: { description: string };
  tags: Record<string, string>;
  access: Record<Access, string>;
  /** The meaning of each error status, and of a success ("success"). */
  responses: Record<string, string>;
  operations: Record<string, { summary?: string; description?: string }>;
  /**
   * The descriptions inside the document (of fields, parameters, headers and security schemes), keyed by their English
   * text, as gettext keys a message: the same text in several schemas is translated once.
   */
  descriptions: Record<string, string>;
}

interface OpenApiDocument {
  info: { description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, { summary?: string; description?: string; responses?: Record<string, { description?: string }> }>>;
}

function loadCatalogue(language: Language): OpenApiCatalogue | null {
  try {
    return JSON.parse(readFileSync(new URL(`${language}/openapi.json`, LOCALES_DIR), 'utf8')) as OpenApiCatalogue;
  } catch {
    return null;
  }
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * Calls `visit` with every `description` inside the document's schemas, parameters, headers and security schemes:
 * not the document's own, a tag's, an operation's or an answer's meaning (the catalogue has those by key).
 */
function eachInnerDescription(document: OpenApiDocument, visit: (holder: { description: string }) => void) {
  const walk = (node: Json) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    if (typeof node.description === 'string') visit(node as { description: string });
    for (const [key, value] of Object.entries(node)) if (key !== 'description') walk(value);
  };
  const { components, paths } = document as unknown as { components?: Json; paths: Record<string, Record<string, Record<string, Json>>> };
  if (components) walk(components);
  for (const operation of Object.values(paths).flatMap((methods) => Object.values(methods))) {
    const { parameters, requestBody, responses } = operation;
    walk(parameters ?? null);
    walk(requestBody ?? null);
    // An answer's own description is its meaning; what it holds (headers, content) is walked.
    for (const answer of Object.values((responses ?? {}) as Record<string, { [key: string]: Json }>)) {
      for (const [key, value] of Object.entries(answer)) if (key !== 'description') walk(value);
    }
  }
}

/** The English texts of the document, as the routes declare them: what locales/en/openapi.json must hold. */
export function englishCatalogue(document: OpenApiDocument, texts: Map<string, OperationTexts>): OpenApiCatalogue {
  const operations: OpenApiCatalogue['operations'] = {};
  for (const [key, { summary, description }] of [...texts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    operations[key] = { ...(summary && { summary }), ...(description && { description }) };
  }
  const descriptions = new Set<string>();
  eachInnerDescription(document, ({ description }) => descriptions.add(description));
  return {
    info: { description: document.info.description ?? '' },
    tags: Object.fromEntries((document.tags ?? []).map((tag) => [tag.name, tag.description ?? ''])),
    access: { ...ACCESS_DESCRIPTIONS },
    responses: { success: 'Success', ...Object.fromEntries(Object.entries(ERROR_MEANINGS).map(([status, text]) => [status, text])) },
    operations,
    descriptions: Object.fromEntries([...descriptions].sort().map((text) => [text, text])),
  };
}

/**
 * The document in `language` (contract section 14): summaries, descriptions (of operations, fields, parameters and
 * headers), tags and the meanings of the answers from that language's catalogue, English where it lacks one. Field
 * names, schemas and examples stay as they are: they are the API.
 */
function translateDocument(document: OpenApiDocument, language: Language, texts: Map<string, OperationTexts>): OpenApiDocument {
  const catalogue = language === 'en' ? null : loadCatalogue(language);
  if (!catalogue) return document;
  const english = Object.fromEntries(Object.entries(englishCatalogue(document, texts).responses).map(([key, text]) => [text, key]));
  const translated = structuredClone(document);
  if (catalogue.info.description) translated.info.description = catalogue.info.description;
  for (const tag of translated.tags ?? []) tag.description = catalogue.tags[tag.name] ?? tag.description;
  for (const [path, methods] of Object.entries(translated.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const key = operationKey(method, path);
      const own = texts.get(key);
      const words = catalogue.operations[key];
      if (own) {
        operation.summary = words?.summary ?? own.summary;
        const description = [words?.description ?? own.description, own.access && catalogue.access[own.access]]
          .filter(Boolean)
          .join('\n\n');
        if (description) operation.description = description;
      }
      for (const response of Object.values(operation.responses ?? {})) {
        const meaning = response.description === undefined ? undefined : english[response.description];
        if (meaning !== undefined && catalogue.responses[meaning]) response.description = catalogue.responses[meaning];
      }
    }
  }
  eachInnerDescription(translated, (holder) => (holder.description = catalogue.descriptions?.[holder.description] ?? holder.description));
  return translated;
}

/** Puts the declared examples (DeclaredExamples) back into the JSON bodies and answers of the document. */
function restoreExamples(document: OpenApiDocument, examples: DeclaredExamples): OpenApiDocument {
  type Media = { content?: Record<string, { example?: unknown }> };
  const restore = (media: Media | undefined, key: string) => {
    const json = media?.content?.['application/json'];
    if (json && examples.has(key)) json.example = examples.get(key);
  };
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods) as [string, { requestBody?: Media; responses?: Record<string, Media> }][]) {
      const key = operationKey(method, path);
      restore(operation.requestBody, `${key} body`);
      for (const [status, answer] of Object.entries(operation.responses ?? {})) restore(answer, `${key} ${status}`);
    }
  }
  return document;
}

const textsOfApps = new WeakMap<FastifyInstance, Map<string, OperationTexts>>();

/**
 * The English texts of `app`'s document: what locales/en/openapi.json holds. That file is generated from them
 * (scripts/openapi-catalogue.ts, `npm run openapi:catalogue`); the languages test fails when it is stale.
 */
export const openApiEnglishCatalogue = (app: FastifyInstance) =>
  englishCatalogue(app.swagger() as unknown as OpenApiDocument, textsOfApps.get(app) ?? new Map());

/** locales/en/openapi.json: generated, never edited by hand. */
export const ENGLISH_CATALOGUE_FILE = new URL('en/openapi.json', LOCALES_DIR);

/** The generated file's text: two-space JSON and a final newline. */
export const englishCatalogueText = (catalogue: OpenApiCatalogue) => `${JSON.stringify(catalogue, null, 2)}\n`;

/** The language of a request for the document: `?lang=` when it names one of ours, else its Accept-Language. */
function documentLanguage(request: FastifyRequest): Language {
  const asked = (request.query as { lang?: unknown } | undefined)?.lang;
  return isLanguage(asked) ? asked : languageOf(request);
}

/** Registers the document and the page; call it before any route is registered, so that it sees them all. */
export async function installOpenApi(app: FastifyInstance, publicUrl: string) {
  const texts = new Map<string, OperationTexts>();
  const examples: DeclaredExamples = new Map();
  const documents = new Map<Language, OpenApiDocument>();
  /** The document in a language, translated once and kept. */
  const documentIn = (language: Language) => {
    let document = documents.get(language);
    if (!document) {
      document = translateDocument(app.swagger() as unknown as OpenApiDocument, language, texts);
      documents.set(language, document);
    }
    return document;
  };
  textsOfApps.set(app, texts);
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
          'with the token of POST /api/auth/login. The language of `msg` follows the Accept-Language header (en, ru, zh-CN); ' +
          'this document in another language: ?lang=en, ?lang=ru or ?lang=zh-CN.',
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          gameToken: { type: 'http', scheme: 'bearer', description: 'The accessToken of the game login (authserver/authenticate)' },
          gravitToken: { type: 'http', scheme: 'bearer', description: 'GRAVIT_TOKEN, the secret shared with the LaunchServer' },
        },
      },
      tags: [
        { name: 'auth', description: 'Registration, login, logout and password reset' },
        { name: 'home', description: "The caller's own profile, skins and capes" },
        { name: 'profiles', description: "An account's game profiles (players): the player's own and the admins' routes" },
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
        { name: 'library', description: 'The skin library: publishing from the wardrobe, browsing, saving copies' },
      ],
    },
    // Shared schemas (the error envelope) appear under their own $id rather than as def-0.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transform: documentRouteOf(app, texts, examples),
    // The document is OpenAPI 3.1 (openapiObject), never Swagger 2.
    transformObject: (made) => restoreExamples((made as { openapiObject: unknown }).openapiObject as OpenApiDocument, examples) as never,
  });
  // Everything the page loads comes from this service (self-hosters sit behind firewalls); the policy holds it to that.
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    theme: { title: 'Skin service API' },
    // The page's document follows the browser's language (or ?lang=); the page's own controls are Swagger UI's.
    transformSpecification: (_document, request) => documentIn(documentLanguage(request as FastifyRequest)),
    staticCSP:
      "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'",
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async (request) => documentIn(documentLanguage(request)));
}
