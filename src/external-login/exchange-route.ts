// The route by which the web app exchanges a login's one-time code for a session: the same for every login through
// another site (Discord, contract section 11; an OpenID Connect provider, section 26), its address and words apart.
import type { FastifyInstance } from 'fastify';
import { errorResponses, ok } from '../http/envelope.ts';
import { withSchemaTypes } from '../http/schema-types.ts';
import { LOGGED_IN, WEB_LOGIN_RESPONSE_SCHEMA } from '../http/shapes/web-login.ts';
import type { BrowserCookie } from './browser-cookie.ts';

const text = { type: 'string', maxLength: 1024 } as const;

/** One kind of login's exchange: where it is, what it is called, and the service's exchange (flows.ts). */
export interface ExchangeKind {
  path: string;
  /** The summary's opening, naming the login and its page: "Exchange a Discord login's one-time code (from /discord?code=)". */
  opening: string;
  tags: string[];
  cookie: BrowserCookie;
  exchange(
    code: string,
    totp: string | undefined,
    browserNonce: string | undefined,
    clientAddress: string,
  ): Promise<{ jwt: string; url: string }>;
}

/** Adds the exchange of `kind`: the code, once, in the browser that began (its cookie, cleared once it worked). */
export function exchangeRoute(fastify: FastifyInstance, kind: ExchangeKind) {
  withSchemaTypes(fastify).post(
    kind.path,
    {
      schema: {
        summary:
          `${kind.opening} for a token: once, within 2 minutes, in the ` +
          'browser that began the login (its cookie), with the rules of a password login (banned, unconfirmed mail, ' +
          'two-factor: 401 with data.totp_required, which leaves the code usable). A code sent from another browser is a ' +
          '401 that neither uses it up nor counts on the limit of wrong codes (10 per address in 15 minutes, then 429)',
        tags: ['auth', ...kind.tags],
        body: {
          type: 'object',
          required: ['code'],
          additionalProperties: false,
          properties: { code: text, totp: text },
          examples: [{ code: 'p9Qm3Zx0Lr7Tb2Wc5Yd8Ve1Nf4Ga6Hk9Js3Ku0Lw2Mx', totp: '123456' }],
        },
        response: { 200: WEB_LOGIN_RESPONSE_SCHEMA, ...errorResponses(401, 403, 429) },
      },
    },
    async (request, reply) => {
      const { jwt, url } = await kind.exchange(request.body.code, request.body.totp, kind.cookie.read(request), request.ip);
      kind.cookie.set(reply, null);
      return ok({ jwt }, LOGGED_IN, url);
    },
  );
}
