// The one place that builds the response envelope and maps every error to a status code.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';

export interface Envelope<T> {
  error: boolean;
  msg: string;
  url: string | null;
  data: T;
}

export function ok<T>(data: T, msg = 'OK', url: string | null = null): Envelope<T> {
  return { error: false, msg, url, data };
}

/** Throw one of these from a handler or service; the message is shown to the client as is. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** The error's `data`: `{}` for every error but the web login's second step (`{totp_required: true}`). */
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (msg: string) => new ApiError(400, msg);
export const unauthorized = (msg: string) => new ApiError(401, msg, { 'www-authenticate': 'Bearer' });
export const forbidden = (msg: string) => new ApiError(403, msg);
export const notFound = (msg: string) => new ApiError(404, msg);
export const conflict = (msg: string) => new ApiError(409, msg);
/** The web login's answer when the password was right and the account has two-factor login on (contract section 12). */
export const totpRequired = (msg: string) => new ApiError(401, msg, { 'www-authenticate': 'Bearer' }, { totp_required: true });
export const tooManyRequests = (msg: string, retryAfterSeconds: number) =>
  new ApiError(429, msg, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

const errorEnvelope = (msg: string, data: Record<string, unknown> = {}): Envelope<object> => ({ error: true, msg, url: null, data });

/**
 * How an API writes an error answer. The envelope is the default; the game and launcher APIs have their own. `error`
 * is the ApiError thrown, when one was (an API may carry more than a status in its own subclass).
 */
export type ErrorBody = (status: number, message: string, error?: ApiError) => unknown;

declare module 'fastify' {
  interface FastifyInstance {
    /** Error bodies by path prefix (useErrorShape); every other path answers errors in the envelope. */
    errorShapes: { prefix: string; body: ErrorBody; schema: { $id: string } }[];
    /** Headers sent with every response, whatever its path and status (EnvelopeOptions.headers). */
    everyResponseHeaders: Record<string, string>;
  }
}

/**
 * Answers every error under `prefix`, from every layer (validation, a refused body, no such route, a thrown ApiError),
 * with `body` instead of the envelope. The status codes and messages stay the ones this module decides. `schema`
 * (with its $id) describes the body in the OpenAPI document.
 */
export function useErrorShape(app: FastifyInstance, prefix: string, body: ErrorBody, schema: { $id: string }) {
  app.addSchema(schema);
  app.errorShapes.push({ prefix, body, schema });
}

function sendError(reply: FastifyReply, status: number, msg: string, headers: Record<string, string> = {}, error?: ApiError) {
  const url = reply.request.url;
  const shape = reply.server.errorShapes?.find((candidate) => url.startsWith(candidate.prefix));
  reply
    .code(status)
    .headers(headers)
    .send(shape ? shape.body(status, msg, error) : errorEnvelope(msg, error?.data));
}

/** The router's limit on one path value; no identifier of this API comes near it. */
export const MAX_PATH_VALUE_LENGTH = 100;

const ROUTER_ERRORS: Record<string, { status: number; msg: string }> = {
  FST_ERR_BAD_URL: { status: 400, msg: 'The path is not a valid URL: it has a malformed %-escape' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 400, msg: `A path value is too long: at most ${MAX_PATH_VALUE_LENGTH} characters` },
};

const CLIENT_ERRORS: Record<string, { status: number; reason: string; msg: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', msg: 'The request did not arrive in time' },
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', msg: 'The request headers are too large' },
};
const headerLines = (headers: Record<string, string>) =>
  Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
const MALFORMED_REQUEST = { status: 400, reason: 'Bad Request', msg: 'The request is not valid HTTP' };

/**
 * Server options that keep the envelope for errors raised before any route or hook runs: a malformed %-escape or an
 * over-long value in the path (the router's), and a request that is not valid HTTP, too large in its headers or too
 * slow to arrive (Node's HTTP parser). Without them the framework answers with bodies of its own.
 */
export const envelopeServerOptions = {
  routerOptions: { maxParamLength: MAX_PATH_VALUE_LENGTH },
  frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
    const known = ROUTER_ERRORS[error.code];
    if (!known) request.log.error({ err: error }, 'unexpected router error');
    // These replies skip the onSend hooks, so their headers are set here.
    reply.header('x-request-id', request.id).headers(request.server.everyResponseHeaders ?? {});
    sendError(reply, known?.status ?? 500, known?.msg ?? `Internal error; quote request id ${request.id} to the operator`);
  },
  // Fastify calls it with the app as `this`.
  clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket) {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (socket.writable) {
      const { status, reason, msg } = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED_REQUEST;
      const body = JSON.stringify(errorEnvelope(msg));
      socket.write(
        `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${randomUUID()}\r\n${headerLines(this.everyResponseHeaders ?? {})}Connection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  },
} satisfies Partial<FastifyServerOptions>;

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Turns Ajv's findings into one sentence that names the field and what is wrong with it. */
function describeValidationIssue(issue: ValidationIssue, part: string): string {
  const where = part === 'querystring' ? 'query parameter' : part === 'params' ? 'path value' : 'field';
  const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
  switch (issue.keyword) {
    case 'required':
      return `${where} "${issue.params.missingProperty as string}" is required`;
    case 'additionalProperties':
      return `${where} "${issue.params.additionalProperty as string}" is not accepted here`;
    case 'type':
      return field === ''
        ? `the ${part} must be ${issue.params.type as string}`
        : `${where} "${field}" must be ${issue.params.type as string}`;
    default:
      return field === '' ? `the ${part} ${issue.message ?? 'is invalid'}` : `${where} "${field}" ${issue.message ?? 'is invalid'}`;
  }
}

const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type: send application/json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty: send a JSON object',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
};

export interface EnvelopeOptions {
  /**
   * Offered every request that no route matches before the 404 envelope goes out (the web pages answer page
   * addresses a browser opens); true when it answered.
   */
  answerUnmatched?: (request: FastifyRequest, reply: FastifyReply) => boolean;
  /** Headers for every response on every path and status, pages and errors included. */
  headers?: Record<string, string>;
}

/**
 * Installs request ids, the error handler and the 404/405 handler on `app`.
 * Call it before any route is registered, so the 405 check sees every route.
 */
export function installEnvelope(app: FastifyInstance, options: EnvelopeOptions = {}) {
  app.addSchema(ERROR_ENVELOPE);
  app.decorate('errorShapes', []);
  const everyResponseHeaders = options.headers ?? {};
  app.decorate('everyResponseHeaders', everyResponseHeaders);
  // While stopping, answers close their connection: a keep-alive socket would otherwise hold the stop open.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  // Callback style rather than async: this runs on every response, and the promise machinery costs measurably.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id).headers(everyResponseHeaders);
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  const knownPaths = FindMyWay({ caseSensitive: true, ignoreTrailingSlash: false });
  const methodsByPath = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    let allowed = methodsByPath.get(route.url);
    if (!allowed) {
      allowed = new Set();
      methodsByPath.set(route.url, allowed);
      knownPaths.on('GET', route.url, () => {}, { path: route.url });
    }
    for (const method of methods) allowed.add(method);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const match = knownPaths.find('GET' as HTTPMethod, path);
    const routePath = (match?.store as { path?: string } | undefined)?.path;
    if (routePath !== undefined) {
      const allowed = [...methodsByPath.get(routePath)!].filter((method) => method !== 'HEAD');
      sendError(reply, 405, `Method ${request.method} is not allowed on ${path}; use ${allowed.join(' or ')}`, {
        allow: allowed.join(', '),
      });
      return;
    }
    if (options.answerUnmatched?.(request, reply)) return;
    sendError(reply, 404, `No route ${request.method} ${path}`);
  });

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      sendError(reply, error.status, error.message, error.headers, error);
      return;
    }
    if (error.validation) {
      const message = error.validation
        .map((issue) => describeValidationIssue(issue as ValidationIssue, error.validationContext ?? 'body'))
        .join('; ');
      sendError(reply, 400, `Invalid request: ${message}`);
      return;
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Framework errors (bad JSON, body too large, wrong content type): their own messages are safe to show.
      sendError(reply, status, FRAMEWORK_MESSAGES[error.code] ?? error.message);
      return;
    }
    request.log.error({ err: error }, 'unexpected error');
    sendError(reply, 500, `Internal error; quote request id ${request.id} to the operator`);
  });
}

const EMPTY_DATA = { type: 'object', additionalProperties: false } as const;

/**
 * The JSON schema of a success envelope around `data`, for route response schemas (and the OpenAPI page).
 * `example` is what the route answers, made with ok() like the route does.
 */
export function envelopeSchema(data: object = EMPTY_DATA, example: Envelope<unknown> = ok({})) {
  return {
    description: 'Success',
    type: 'object',
    required: ['error', 'msg', 'url', 'data'],
    properties: {
      error: { type: 'boolean' },
      msg: { type: 'string' },
      url: { type: ['string', 'null'] },
      data,
    },
    examples: [example],
  } as const;
}

/** Every error answer: one shared schema, registered by installEnvelope and referenced by errorResponses(). */
const ERROR_ENVELOPE = {
  $id: 'ErrorEnvelope',
  type: 'object',
  required: ['error', 'msg', 'url', 'data'],
  properties: {
    error: { type: 'boolean', enum: [true] },
    msg: { type: 'string', description: 'what is wrong, in a sentence' },
    url: { type: 'null' },
    data: {
      type: 'object',
      additionalProperties: false,
      properties: {
        totp_required: {
          type: 'boolean',
          description:
            'only on POST /api/auth/login (the password was right) and POST /api/auth/discord/exchange: send it again with `totp` (two-factor login)',
        },
      },
    },
  },
  examples: [{ error: true, msg: 'field "mail" is required', url: null, data: {} }],
} as const;

const ERROR_MEANINGS = {
  400: 'Invalid request: a field, path value or query parameter is missing or wrong',
  401: 'No token, or a token that is invalid, expired or revoked',
  403: 'Not allowed: banned, registration unfinished, mail unconfirmed, or too low a permission level',
  404: 'Nothing has this identifier',
  409: 'Conflicts with what exists: a username or mail address in use, or a step already done',
  413: 'The body or upload is larger than the limit',
  415: 'Wrong content type',
  429: 'Too many attempts; the Retry-After header says when to try again',
  503: 'Not ready: the database does not answer',
} as const;

export type ErrorStatus = keyof typeof ERROR_MEANINGS;

/** Response schemas for error statuses, each the error schema `schemaId` (registered with addSchema). */
export function errorResponsesOf(schemaId: string, ...statuses: ErrorStatus[]) {
  return Object.fromEntries(statuses.map((status) => [status, { description: ERROR_MEANINGS[status], $ref: `${schemaId}#` }]));
}

/** Response schemas for error statuses, all the shared error envelope. */
export const errorResponses = (...statuses: ErrorStatus[]) => errorResponsesOf(ERROR_ENVELOPE.$id, ...statuses);

/** The $id of the error schema of the API `url` belongs to. */
export function errorSchemaIdFor(app: FastifyInstance, url: string): string {
  return app.errorShapes.find((shape) => url.startsWith(shape.prefix))?.schema.$id ?? ERROR_ENVELOPE.$id;
}
