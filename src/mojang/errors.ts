// The error shape of Mojang's services (api.minecraftservices.com and api.mojang.com's profile routes), which
// launchers and authlib parse: `{path, errorType, error, errorMessage, developerMessage}` (contract section 25,
// research wire-shapes-26 §0.2), `path` as Mojang's host has it (without our API root and host prefix). `details`
// rides along where Mojang sends it (a name taken: `{status: "DUPLICATE"}`).
import { ApiError, errorResponsesOf, type ErrorBody, type ErrorStatus } from '../http/envelope.ts';
import type { Message } from '../i18n/i18n.ts';

/** Where Mojang's hosts land under the Yggdrasil API root (authlib-injector's and Loki's mapping). */
export const SERVICES_ROOT = '/api/yggdrasil/minecraftservices/';
export const ACCOUNT_API_ROOT = '/api/yggdrasil/api/';

/** The errorType of a status when the thrower names none: Mojang's words for it. */
const TYPES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UnauthorizedOperationException',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
};

/** An error with Mojang's own errorType (CONSTRAINT_VIOLATION, NOT_FOUND…) and, where Mojang sends them, details. */
export class ServicesError extends ApiError {
  constructor(
    status: number,
    readonly errorType: string,
    /** A fixed English text, or a message key (the web's routes then answer it in the page's language). */
    text: string | Message,
    readonly details?: Record<string, unknown>,
  ) {
    super(status, text);
  }
}

export const constraintViolation = (text: string) => new ServicesError(400, 'CONSTRAINT_VIOLATION', text);

/** Our API root and the host's prefix off the path: what Mojang's own answer names. */
const mojangPath = (path: string) =>
  `/${path.startsWith(SERVICES_ROOT) ? path.slice(SERVICES_ROOT.length) : path.slice(ACCOUNT_API_ROOT.length)}`;

export const servicesErrorBody: ErrorBody = (status, message, error, path = '') => {
  const errorType =
    error instanceof ServicesError ? error.errorType : (TYPES[status] ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'Error'));
  return {
    path: mojangPath(path),
    errorType,
    error: errorType,
    errorMessage: message,
    developerMessage: message,
    ...(error instanceof ServicesError && error.details ? { details: error.details } : {}),
  };
};

export const SERVICES_ERROR_SCHEMA = {
  $id: 'MojangServicesError',
  type: 'object',
  required: ['path', 'errorType', 'error', 'errorMessage', 'developerMessage'],
  properties: {
    path: { type: 'string', description: "The path as Mojang's host has it" },
    errorType: { type: 'string', description: 'CONSTRAINT_VIOLATION, BAD_REQUEST, FORBIDDEN, NOT_FOUND, UnauthorizedOperationException…' },
    error: { type: 'string', description: 'The same as errorType' },
    errorMessage: { type: 'string' },
    developerMessage: { type: 'string' },
    details: {
      type: 'object',
      properties: { status: { type: 'string' } },
      description: 'For a name taken: {"status": "DUPLICATE"}',
    },
  },
  examples: [
    {
      path: '/minecraft/profile/capes/active',
      errorType: 'BAD_REQUEST',
      error: 'BAD_REQUEST',
      errorMessage: 'This account owns no cape with that id',
      developerMessage: 'This account owns no cape with that id',
    },
  ],
} as const;

export const servicesErrors = <const Status extends ErrorStatus>(...statuses: Status[]) =>
  errorResponsesOf(SERVICES_ERROR_SCHEMA.$id, ...statuses);
