// What the log says of a request. Fastify's own fields, except that the values of query parameters that carry a
// secret are replaced: mailed links put codes in the query (/reset/confirm?code=), and whoever reads the log must not
// be able to use them (contract section 15). Headers (Authorization, cookies) and bodies are never logged.
import type { FastifyRequest } from 'fastify';

/** Query parameters whose values are secrets or one-time codes, in lower case: the mailed and Discord links' and any
 * a client may send by mistake. */
const SECRET_PARAMETERS = new Set(['code', 'invite', 'state', 'token', 'access_token', 'accesstoken', 'secret', 'password']);

const REDACTED = '[redacted]';

/** The URL with each secret query value replaced by [redacted]; everything else as it arrived. */
export function redactedUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const nameEnd = pair.indexOf('=');
      if (nameEnd === -1) return pair;
      return SECRET_PARAMETERS.has(decodedName(pair.slice(0, nameEnd))) ? `${pair.slice(0, nameEnd)}=${REDACTED}` : pair;
    });
  return `${url.slice(0, queryStart)}?${query.join('&')}`;
}

/** A name as the query parser reads it (`+` is a space, %-escapes decoded), so an escaped name is caught too. */
function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/** Fastify's `req` serializer with the URL redacted. */
export const requestLogFields = (request: FastifyRequest) => ({
  method: request.method,
  url: redactedUrl(request.url),
  host: request.host,
  remoteAddress: request.ip,
  remotePort: request.socket?.remotePort,
});
