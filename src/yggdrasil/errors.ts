// The Yggdrasil API's error shape and fixed texts (authlib-injector's server specification): `{error, errorMessage}`,
// no envelope. Statuses and messages are decided as everywhere else (src/http/envelope.ts); this only names them.
import { STATUS_CODES } from 'node:http';
import type { LoginRefusal } from '../accounts/credentials.ts';
import { ApiError, errorResponsesOf, type ErrorBody, type ErrorStatus } from '../http/envelope.ts';

/** Where the API lives, relative to PUBLIC_URL. */
export const API_ROOT_PATH = '/api/yggdrasil/';

const ERROR_NAMES: Record<number, string> = {
  400: 'IllegalArgumentException',
  401: 'Unauthorized',
  403: 'ForbiddenOperationException',
  // The specification answers too many failures with 403; the contract uses 429 with the same exception name.
  429: 'ForbiddenOperationException',
};

/**
 * An error the game tells apart by its own `error` name (contract section 24: `multiplayer.access.banned`), answered
 * with the `path` of Mojang's services shape (authlib's ErrorResponse) beside it.
 */
export class GameServiceError extends ApiError {
  constructor(
    status: number,
    readonly errorName: string,
    text: string,
    readonly path: string,
  ) {
    super(status, text);
  }
}

/** Clients such as node-yggdrasil tell an error by its `error` field alone, whatever the status: it is always set. */
export const yggdrasilErrorBody: ErrorBody = (status, message, error) =>
  error instanceof GameServiceError
    ? { path: error.path, error: error.errorName, errorMessage: message }
    : { error: ERROR_NAMES[status] ?? STATUS_CODES[status] ?? 'Error', errorMessage: message };

export const INVALID_TOKEN = 'Invalid token.';
export const INVALID_CREDENTIALS = 'Invalid credentials. Invalid username or password.';

export const invalidToken = () => new ApiError(403, INVALID_TOKEN);
/** Two-factor login (contract section 12): the launcher shows errorMessage, so it says how to send the code. */
export const TOTP_REQUIRED =
  'Invalid credentials. This account has two-factor login on: type your password, a colon and the code from your authenticator app (password:123456).';
export const TOTP_WRONG =
  'Invalid credentials. The two-factor code is wrong or was already used: type password:code with the current code.';
export const TOTP_USED =
  'Invalid credentials. This two-factor code was already used: wait for the next code in your authenticator app (a new one comes every 30 seconds) and type password:code with it.';
const REFUSED_LOGIN: Record<LoginRefusal, string> = {
  credentials: INVALID_CREDENTIALS,
  'code-required': TOTP_REQUIRED,
  'code-wrong': TOTP_WRONG,
  'code-used': TOTP_USED,
};
/** The refusal of the one credential check (accounts/credentials.ts) in this API's words. */
export const refusedLogin = (refusal: LoginRefusal) => new ApiError(403, REFUSED_LOGIN[refusal]);

/** The error answer in the OpenAPI document. */
export const YGGDRASIL_ERROR_SCHEMA = {
  $id: 'YggdrasilError',
  type: 'object',
  required: ['error', 'errorMessage'],
  properties: {
    path: { type: 'string', description: "the game services' path, with the errors the game tells apart by name" },
    error: {
      type: 'string',
      description: 'ForbiddenOperationException, IllegalArgumentException, Unauthorized, multiplayer.access.banned or the HTTP reason',
    },
    errorMessage: { type: 'string' },
  },
  examples: [{ error: 'ForbiddenOperationException', errorMessage: INVALID_TOKEN }],
} as const;

export const yggdrasilErrors = <const Status extends ErrorStatus>(...statuses: Status[]) =>
  errorResponsesOf(YGGDRASIL_ERROR_SCHEMA.$id, ...statuses);
