// The one place that builds the response envelope and maps every error to a status code.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { render, type Message, type Params } from '../i18n/i18n.ts';
import { negotiateLanguage, type Language } from '../i18n/languages.ts';

export interface Envelope<T> {
  error: boolean;
  msg: string;
  url: string | null;
  data: T;
}

/** A message key of the catalogue (locales/<language>/server.json) with its values: `message('accounts.loggedIn')`. */
export const message = (key: string, params?: Params): Message => (params ? { key, params } : { key });

/** The message of an answer that needs no other: "OK". */
const OK: Message = { key: 'http.ok' };

/** Where ok() keeps the message of an envelope until the answer is written in the request's language. */
const MESSAGE = Symbol('message');

/** The language of a request's API texts: its Accept-Language (contract section 14), worked out once per request. */
const requestLanguages = new WeakMap<FastifyRequest, Language>();
export function languageOf(request: FastifyRequest): Language {
  let language = requestLanguages.get(request);
  if (language === undefined) {
    language = negotiateLanguage(request.headers['accept-language']);
    requestLanguages.set(request, language);
  }
  return language;
}

/**
 * A success envelope. `msg` is a message key (with message()) put into the request's language when the answer is
 * written, or a text sent as is; `msg` of the returned object is the English text (the OpenAPI examples show it).
 */
export function ok<T>(data: T, msg: Message | string = OK, url: string | null = null): Envelope<T> {
  if (typeof msg === 'string') return { error: false, msg, url, data };
  // A plain object with the key beside the English text: ok() runs on most requests, and a CPU profile of
  // GET /api/home showed the getter and closure it used to make per call; render() remembers sentences without values.
  return { error: false, msg: render('en', msg), url, data, [MESSAGE]: msg } as Envelope<T>;
}

/**
 * Throw one of these from a handler or service. Made from a message key (the helpers below), its `message` is the
 * English text and the envelope answers in the request's language; made from a string (the Yggdrasil and
 * GravitLauncher APIs' fixed texts), that string is the answer in every language.
 */
export class ApiError extends Error {
  /** The key and values, when the text is translated; undefined for a fixed text. */
  readonly text: Message | undefined;
  constructor(
    readonly status: number,
    message: Message | string,
    readonly headers: Record<string, string> = {},
    /** The error's `data`: `{}` for every error but the web login's second step (`{totp_required: true}`), a library 409 (`{id}`), a password-less account's 403 and an admin unlink's 409. */
    readonly data: Record<string, unknown> = {},
  ) {
    super(typeof message === 'string' ? message : render('en', message));
    this.text = typeof message === 'string' ? undefined : message;
  }
}

const BEARER = { 'www-authenticate': 'Bearer' };
export const badRequest = (key: string, params?: Params) => new ApiError(400, message(key, params));
export const unauthorized = (key: string, params?: Params) => new ApiError(401, message(key, params), BEARER);
export const forbidden = (key: string, params?: Params) => new ApiError(403, message(key, params));
export const notFound = (key: string, params?: Params) => new ApiError(404, message(key, params));
export const conflict = (key: string, params?: Params) => new ApiError(409, message(key, params));
/** The web login's answer when the password was right and the account has two-factor login on (contract section 12). */
export const totpRequired = (key: string) => new ApiError(401, message(key), BEARER, { totp_required: true });
/**
 * A limit's refusal: `Retry-After` says in seconds when the window ends, and the message in minutes (`count`, rounded
 * up), so that a locked-out player knows when to come back (issue 31).
 */
export function tooManyRequests(key: string, retryAfterSeconds: number) {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new ApiError(429, message(key, { count: Math.ceil(seconds / 60) }), { 'retry-after': String(seconds) });
}
/** An error with a fixed text, the same in every language: the Yggdrasil and GravitLauncher APIs' answers. */
export const fixedError = (status: number, text: string, headers: Record<string, string> = {}) =>
  new ApiError(status, text, status === 401 ? { ...BEARER, ...headers } : headers);

const errorEnvelope = (msg: string, data: Record<string, unknown> = {}): Envelope<object> => ({ error: true, msg, url: null, data });

/**
 * How an API writes an error answer. The envelope is the default; the game and launcher APIs have their own. `error`
 * is the ApiError thrown, when one was (an API may carry more than a status in its own subclass); `path` the request
 * path without its query (Mojang's services name it in their errors).
 */
export type ErrorBody = (status: number, message: string, error?: ApiError, path?: string) => unknown;

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
  // One API may live under several prefixes, with one schema.
  if (!app.getSchema(schema.$id)) app.addSchema(schema);
  app.errorShapes.push({ prefix, body, schema });
}

/** The longest text value X-Error-Params carries; a longer one (a client's own junk) is left out. */
const MAX_PARAM_TEXT = 100;

/**
 * What lets the pages put a refusal in their own words, in any language (contract section 14), while the envelope
 * stays as the contract has it: the message key (`X-Error-Key`) and its plain values (`X-Error-Params`, JSON with
 * non-ASCII escaped; `field` names the request field it is about). A failed validation gives its first problem's key,
 * with the body field it names as `field`.
 */
function errorKeyHeaders(msg: Message): Record<string, string> {
  let { key, params = {} } = msg;
  const [problem] = key === 'validation.request' && Array.isArray(params.problems) ? (params.problems as Message[]) : [];
  if (problem) {
    key = problem.key;
    params = { ...problem.params };
    const subject = params.subject as Message | undefined;
    if (subject?.key === 'validation.subject.body') params.field = subject.params!.name as string;
  }
  const plain = Object.entries(params).filter(
    ([, value]) => typeof value === 'number' || (typeof value === 'string' && value.length <= MAX_PARAM_TEXT),
  );
  const json = JSON.stringify(Object.fromEntries(plain)).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return { 'x-error-key': key, 'x-error-params': json };
}

/** The error shape of the API `url` belongs to: the longest prefix that matches (an API inside another's path wins). */
function errorShapeOf(app: FastifyInstance, url: string) {
  let found: FastifyInstance['errorShapes'][number] | undefined;
  for (const shape of app.errorShapes ?? []) {
    if (url.startsWith(shape.prefix) && shape.prefix.length > (found?.prefix.length ?? -1)) found = shape;
  }
  return found;
}

function sendError(reply: FastifyReply, status: number, msg: Message | string, headers: Record<string, string> = {}, error?: ApiError) {
  const url = reply.request.url;
  const shape = errorShapeOf(reply.server, url);
  // The game and launcher APIs answer in English whatever the request asks (contract section 14).
  const text = typeof msg === 'string' ? msg : render(shape ? 'en' : languageOf(reply.request), msg);
  if (!shape && typeof msg !== 'string') reply.headers(errorKeyHeaders(msg));
  reply
    .code(status)
    .headers(headers)
    .send(shape ? shape.body(status, text, error, url.split('?')[0]!) : errorEnvelope(text, error?.data));
}

/** The router's limit on one path value; no identifier of this API comes near it. */
export const MAX_PATH_VALUE_LENGTH = 100;

const ROUTER_ERRORS: Record<string, { status: number; msg: Message }> = {
  FST_ERR_BAD_URL: { status: 400, msg: message('http.badUrl') },
  FST_ERR_MAX_PARAM_LENGTH: { status: 400, msg: message('http.pathValueTooLong', { count: MAX_PATH_VALUE_LENGTH }) },
};
const internalError = (requestId: string) => message('http.internal', { requestId });

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
    sendError(reply, known?.status ?? 500, known?.msg ?? internalError(request.id));
  },
  // Fastify calls it with the app as `this`.
  clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket) {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (socket.writable) {
      // No request was read, so no Accept-Language either: these few answers are in English.
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

const SUBJECTS: Record<string, string> = { querystring: 'validation.subject.query', params: 'validation.subject.path' };

/** What is wrong, named: the field, query parameter or path value (or the whole body, query or path when it is the root). */
function subjectOf(part: string, name: string): Message {
  if (name === '') return message(`validation.whole.${part === 'querystring' || part === 'params' ? part : 'body'}`);
  return message(SUBJECTS[part] ?? 'validation.subject.body', { name });
}

/** Ajv's keywords with a sentence of their own; the others say that the value is not valid. */
const LIMIT_KEYWORDS: Record<string, string> = {
  maxLength: 'validation.maxLength',
  minLength: 'validation.minLength',
  maximum: 'validation.maximum',
  minimum: 'validation.minimum',
  maxItems: 'validation.maxItems',
  minItems: 'validation.minItems',
};

/** Turns one of Ajv's findings into a sentence that names the field and what is wrong with it. */
function describeValidationIssue(issue: ValidationIssue, part: string): Message {
  const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const params = issue.params;
  switch (issue.keyword) {
    case 'required':
      return message('validation.required', { subject: subjectOf(part, params.missingProperty as string) });
    case 'additionalProperties':
      return message('validation.notAccepted', { subject: subjectOf(part, params.additionalProperty as string) });
    case 'type':
      return message('validation.type', { subject: subjectOf(part, field), type: String(params.type) });
    case 'enum':
      return message('validation.enum', {
        subject: subjectOf(part, field),
        values: ((params.allowedValues as unknown[]) ?? []).map((value) => JSON.stringify(value)).join(', '),
      });
    case 'const':
      return message('validation.enum', { subject: subjectOf(part, field), values: JSON.stringify(params.allowedValue) });
    case 'pattern':
    case 'format':
      return message('validation.format', { subject: subjectOf(part, field) });
    default: {
      const key = LIMIT_KEYWORDS[issue.keyword];
      if (key && typeof params.limit === 'number') return message(key, { subject: subjectOf(part, field), count: params.limit });
      return message('validation.invalid', { subject: subjectOf(part, field) });
    }
  }
}

const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'http.unsupportedMediaType',
  FST_ERR_CTP_BODY_TOO_LARGE: 'http.bodyTooLarge',
  FST_ERR_CTP_INVALID_JSON_BODY: 'http.invalidJson',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'http.emptyJson',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'http.contentLength',
  // @fastify/multipart's limits on an upload's parts (src/textures/multipart.ts), and a field named like a prototype key.
  FST_FILES_LIMIT: 'http.uploadTooManyParts',
  FST_FIELDS_LIMIT: 'http.uploadTooManyParts',
  FST_PARTS_LIMIT: 'http.uploadTooManyParts',
  FST_PROTO_VIOLATION: 'http.uploadFieldName',
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

  // A success envelope made by ok() with a message key answers in the request's language.
  app.addHook('preSerialization', (request, _reply, payload, done) => {
    const text = payload !== null && typeof payload === 'object' ? (payload as { [MESSAGE]?: Message })[MESSAGE] : undefined;
    if (text === undefined) return done(null, payload);
    const { error, url, data } = payload as Envelope<unknown>;
    done(null, { error, msg: render(languageOf(request), text), url, data });
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
      sendError(reply, 405, message('http.methodNotAllowed', { method: request.method, path, allowed }), {
        allow: allowed.join(', '),
      });
      return;
    }
    if (options.answerUnmatched?.(request, reply)) return;
    sendError(reply, 404, message('http.noRoute', { method: request.method, path }));
  });

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      sendError(reply, error.status, error.text ?? error.message, error.headers, error);
      return;
    }
    if (error.validation) {
      const problems = error.validation.map((issue) =>
        describeValidationIssue(issue as ValidationIssue, error.validationContext ?? 'body'),
      );
      sendError(reply, 400, message('validation.request', { problems }));
      return;
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Framework errors (bad JSON, body too large, wrong content type): their own messages are safe to show.
      const known = FRAMEWORK_MESSAGES[error.code];
      sendError(reply, status, known ? message(known) : error.message);
      return;
    }
    request.log.error({ err: error }, 'unexpected error');
    sendError(reply, 500, internalError(request.id));
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
    msg: {
      type: 'string',
      description:
        "what is wrong, in a sentence in the request's language; the X-Error-Key header names the message (a catalogue key) and X-Error-Params its values as JSON (`field`: the request field at fault)",
    },
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
        id: { type: 'integer', description: 'only on a 409 of publishing to the library: the entry that has this picture already' },
        password_unset: {
          type: 'boolean',
          description:
            'only on a 403 of an action that asks for the password, for a password-less account (registered through an OpenID Connect provider): set one by the reset first',
        },
        last_way: {
          type: 'boolean',
          description:
            "only on a 409 of an admin's unlinking of an OpenID Connect identity: it is a password-less account's last way to log in; send last: true to unlink it anyway",
        },
      },
    },
  },
  examples: [{ error: true, msg: 'field "mail" is required', url: null, data: {} }],
} as const;

export const ERROR_MEANINGS = {
  400: 'Invalid request: a field, path value or query parameter is missing or wrong',
  401: 'No token, or a token that is invalid, expired or revoked',
  403: 'Not allowed: banned, registration unfinished, mail unconfirmed, or too low a permission level',
  404: 'Nothing has this identifier',
  409: 'Conflicts with what exists: a username or mail address in use, or a step already done',
  413: 'The body or upload is larger than the limit',
  415: 'Wrong content type',
  429: 'Too many attempts; the Retry-After header says when to try again',
  503: 'Busy or not ready: the database does not answer, or too many images wait to be drawn (Retry-After says when to try again)',
} as const;

export type ErrorStatus = keyof typeof ERROR_MEANINGS;

/** Response schemas for error statuses, each the error schema `schemaId` (registered with addSchema). */
export function errorResponsesOf<const Status extends ErrorStatus>(schemaId: string, ...statuses: Status[]) {
  // Keyed by the statuses' own types: a route's reply.code() takes the statuses its schema lists.
  const responses = {} as Record<Status, { description: string; $ref: string }>;
  for (const status of statuses) responses[status] = { description: ERROR_MEANINGS[status], $ref: `${schemaId}#` };
  return responses;
}

/** Response schemas for error statuses, all the shared error envelope. */
export const errorResponses = <const Status extends ErrorStatus>(...statuses: Status[]) =>
  errorResponsesOf(ERROR_ENVELOPE.$id, ...statuses);

/** The $id of the error schema of the API `url` belongs to. */
export function errorSchemaIdFor(app: FastifyInstance, url: string): string {
  return errorShapeOf(app, url)?.schema.$id ?? ERROR_ENVELOPE.$id;
}
