// The cookie that binds a login through another site to its browser (contract section 15): the nonce of flows.ts,
// sent only to the routes under its own path (the callback and the exchange), never readable by scripts, and sent along
// when the other site sends the browser back (SameSite=Lax lets a top-level navigation carry it).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Begun, LOGIN_CODE_LIFETIME_MS, STATE_LIFETIME_MS } from './flows.ts';

const NONCE_FORMAT = /^[A-Za-z0-9_-]{43}$/;
/** As long as a flow can last: the state's 10 minutes, then the login code's 2. */
const COOKIE_SECONDS = (STATE_LIFETIME_MS + LOGIN_CODE_LIFETIME_MS) / 1000;

export interface BrowserCookie {
  /** The nonce of the flow this browser began, if it sent one. */
  read(request: FastifyRequest): string | undefined;
  /** Sets the nonce of a flow begun, or (null) clears it. */
  set(reply: FastifyReply, nonce: string | null): void;
  /** Keeps the nonce of a flow `begun` (when it was begun) and answers the page the browser goes to. */
  begin(reply: FastifyReply, begun: Begun): string;
}

/**
 * The cookie `name` under `path`. `publicUrl` decides whether it is `Secure` (a site on https); on plain http (a local
 * try-out) a Secure cookie would never come back.
 */
export function browserCookie(name: string, path: string, publicUrl: string): BrowserCookie {
  const secure = publicUrl.startsWith('https:') ? '; Secure' : '';
  const cookie: BrowserCookie = {
    read(request) {
      for (const pair of (request.headers.cookie ?? '').split(';')) {
        const [found, value] = pair.trim().split('=', 2);
        if (found === name && value !== undefined && NONCE_FORMAT.test(value)) return value;
      }
      return undefined;
    },
    set(reply, nonce) {
      reply.header(
        'set-cookie',
        `${name}=${nonce ?? ''}; Path=${path}; Max-Age=${nonce === null ? 0 : COOKIE_SECONDS}; HttpOnly; SameSite=Lax${secure}`,
      );
    },
    begin(reply, begun) {
      if (begun.browserNonce !== null) cookie.set(reply, begun.browserNonce);
      return begun.url;
    },
  };
  return cookie;
}
