// The GravitLauncher API's error shape (contract section 10): `{error, code}`, no envelope, for everything under
// /api/gravit/. Statuses and messages are decided as everywhere else (src/http/envelope.ts); `code` is the status,
// except for the token errors a LaunchServer tells apart by code alone (1000, 1001, 1002).
import { ApiError, errorResponsesOf, type ErrorBody, type ErrorStatus } from '../http/envelope.ts';

/** Where the API lives, relative to PUBLIC_URL. */
export const GRAVIT_API_PATH = '/api/gravit/';

/** An error whose `code` is not its HTTP status. */
export class GravitError extends ApiError {
  constructor(
    status: number,
    message: string,
    readonly code: number,
  ) {
    super(status, message);
  }
}

export const gravitErrorBody: ErrorBody = (status, message, error) => ({
  error: message,
  code: error instanceof GravitError ? error.code : status,
});

/** Codes of HttpMethodExample's MyHttpAuthCoreProvider: 1001 makes the launcher refresh, anything else logs in again. */
export const CODES = { invalidToken: 1000, expiredToken: 1001, invalidRefreshToken: 1002 } as const;

// The `auth.*` strings are GravitLauncher's own message keys: the launcher shows them translated.
export const invalidToken = () => new GravitError(401, 'auth.invalidtoken', CODES.invalidToken);
export const expiredToken = () => new GravitError(401, 'auth.expiretoken', CODES.expiredToken);
export const invalidRefreshToken = () => new GravitError(401, 'auth.invalidtoken', CODES.invalidRefreshToken);
export const wrongPassword = () => new ApiError(401, 'auth.wrongpassword');
export const userBlocked = () => new ApiError(403, 'auth.userblocked');
/** Two-factor login: the launcher asks the player for the code on auth.require2fa and sends it as totpCode. */
export const require2fa = () => new ApiError(401, 'auth.require2fa');
export const wrongTotp = () => new ApiError(401, 'auth.wrongtotp');

/** The error answer in the OpenAPI document. */
export const GRAVIT_ERROR_SCHEMA = {
  $id: 'GravitError',
  type: 'object',
  required: ['error', 'code'],
  additionalProperties: false,
  properties: {
    error: { type: 'string', description: 'a GravitLauncher message key (auth.*) or a sentence; the launcher shows it' },
    code: {
      type: 'integer',
      description: '1000 invalid access token, 1001 expired access token (refresh it), 1002 invalid refresh token; else the HTTP status',
    },
  },
  examples: [{ error: 'auth.expiretoken', code: 1001 }],
} as const;

export const gravitErrors = <const Status extends ErrorStatus>(...statuses: Status[]) =>
  errorResponsesOf(GRAVIT_ERROR_SCHEMA.$id, ...statuses);
