// Routes of the OpenID Connect login and link (contract section 26). The two that a browser opens itself (the start
// of a login and the provider's callback) answer with redirects; the rest are JSON in the envelope. The nonce that
// binds a flow to its browser travels in a cookie of its own under /api/auth/oidc (src/external-login/browser-cookie.ts).
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../accounts/authenticate.ts';
import { browserCookie } from '../external-login/browser-cookie.ts';
import { exchangeRoute } from '../external-login/exchange-route.ts';
import { envelopeSchema, errorResponses, languageOf, message, ok } from '../http/envelope.ts';
import { withSchemaTypes } from '../http/schema-types.ts';
import { USER_IDENTIFIER_PARAMS } from '../http/shapes/user-identifier.ts';
import { redirectResponse } from '../http/shapes/web-login.ts';
import type { OidcService } from './service.ts';

const tags = ['oidc'];
const text = { type: 'string', maxLength: 1024 } as const;
const providerParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', pattern: '^[a-z0-9-]{1,32}$' } },
} as const;
const proofBody = {
  type: 'object',
  additionalProperties: false,
  properties: { password: text, totp: text },
  examples: [{ password: 'correct horse battery' }],
} as const;
const LINK_BEGUN = message('oidc.linkBegun');
const UNLINKED = message('oidc.unlinked');
const UNLINKED_FOR = message('oidc.unlinkedFor');
const REGISTERED = message('oidc.registered');
const REGISTERED_MAILED = message('oidc.registeredMailed');
const ticketText = { type: 'string', maxLength: 64 } as const;
const EXAMPLE_AUTHORIZE =
  'https://id.example.org/realms/craft/protocol/openid-connect/auth?client_id=skins&scope=openid+profile+email&response_type=code&redirect_uri=https%3A%2F%2Fskins.example.org%2Fapi%2Fauth%2Foidc%2Fkeycloak%2Fcallback&state=0lJ0m0Tq2S6bqz4c9n1e8kq0wq3b8p5dX7uYv2aR1sM&nonce=Vx0vq2m3l4n5o6p7q8r9s0t1u2v3w4x5y6z7A8B9C0D&code_challenge=Vx0vq2m3l4n5o6p7q8r9s0t1u2v3w4x5y6z7A8B9C0D&code_challenge_method=S256';

/** Routes of the OpenID Connect login and link; `publicUrl` decides whether the browser cookie is `Secure`. */
export function oidcRoutes(fastify: FastifyInstance, oidc: OidcService, publicUrl: string) {
  const app = withSchemaTypes(fastify);
  const cookie = browserCookie('oidc_browser', '/api/auth/oidc', publicUrl);

  app.get(
    '/api/auth/oidc',
    {
      schema: {
        summary:
          'The OpenID Connect providers one can log in with (OIDC_PROVIDERS) whose discovery has answered; the pages show a button for each',
        description: 'register: whether a person without an account here may register through it (OIDC_{ID}_REGISTER).',
        tags,
        response: {
          200: envelopeSchema(
            {
              type: 'object',
              required: ['providers'],
              properties: {
                providers: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['id', 'name', 'register'],
                    properties: { id: { type: 'string' }, name: { type: 'string' }, register: { type: 'boolean' } },
                  },
                },
              },
            },
            ok({ providers: [{ id: 'keycloak', name: 'Craft community', register: false }] }),
          ),
        },
      },
    },
    async () => ok({ providers: oidc.providers() }),
  );

  app.get(
    '/api/auth/oidc/:id',
    {
      schema: {
        summary: "Log in through an OpenID Connect provider: redirects the browser to the provider's page",
        description:
          'Sets an HttpOnly cookie that binds the login to this browser: only this browser can finish it. While the ' +
          "provider's discovery has not answered, redirects to /oidc?problem=unavailable.",
        tags: ['auth', ...tags],
        params: providerParams,
        response: { ...redirectResponse("To the provider's page"), ...errorResponses(400, 404, 429) },
      },
    },
    async (request, reply) => reply.redirect(cookie.begin(reply, await oidc.startLogin(request.params.id, request.ip)), 302),
  );

  app.get(
    '/api/auth/oidc/:id/callback',
    {
      schema: {
        summary:
          'Where the provider sends the browser back (the redirect URI to register with the provider). A link ends on ' +
          '/home; a login of a linked identity on /oidc?code= (the page exchanges the one-time code), of an unlinked one ' +
          'on /login?oidc=not-linked; anything refused, tampered with (state, nonce, an ID token that fails a check) or ' +
          'opened in a browser other than the one that began, on /oidc?problem=, and changes nothing',
        tags: ['auth', ...tags],
        params: providerParams,
        // Not checked here: the provider adds parameters of its own, and openid-client checks the whole answer.
        querystring: { type: 'object', properties: { code: {}, state: {}, error: {} } },
        response: { ...redirectResponse('To the page of the web app that says how it ended'), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      // The query as the provider sent it: openid-client reads the whole of it (code, state, error, iss).
      const at = request.url.indexOf('?');
      const search = at < 0 ? '' : request.url.slice(at);
      const outcome = await oidc.callback(request.params.id, search, request.query.state, cookie.read(request));
      if (!outcome.keepNonce) cookie.set(reply, null);
      return reply.redirect(outcome.location, 302);
    },
  );

  app.get(
    '/api/auth/oidc/:id/register',
    {
      schema: {
        summary: "Register through an OpenID Connect provider (OIDC_{ID}_REGISTER=true): redirects the browser to the provider's page",
        description:
          'Sets the HttpOnly cookie that binds the registration to this browser. The callback of an identity linked to nobody ' +
          'ends on /register/oidc?ticket= (the page asks for the profile name; nothing is created before), of a linked one on ' +
          '/oidc?code= (a login); a provider that may not register, closed registration, no mail address from the provider ' +
          'or a mail address an account here has end on /register?oidc=not-offered|closed|no-mail|mail-taken, and create nothing.',
        tags: ['auth', ...tags],
        params: providerParams,
        response: { ...redirectResponse("To the provider's page"), ...errorResponses(400, 404, 429) },
      },
    },
    async (request, reply) => reply.redirect(cookie.begin(reply, await oidc.startRegistration(request.params.id, request.ip)), 302),
  );

  const ticketDetails = {
    type: 'object',
    required: ['provider', 'mail', 'mail_verified', 'suggested_name'],
    properties: {
      provider: { type: 'string', description: "the provider's name (OIDC_{ID}_NAME)" },
      mail: { type: 'string', description: 'the address the provider gave, the account’s' },
      mail_verified: { type: 'boolean', description: 'true: the provider verified it, no code is mailed' },
      suggested_name: { type: 'string', description: "a profile name made of the provider's name, or empty" },
    },
  } as const;

  app.post(
    '/api/auth/oidc/registration',
    {
      schema: {
        summary:
          'What a registration through a provider will make (from /register/oidc?ticket=): the provider, the mail address, ' +
          'whether it is verified, a suggested profile name',
        description:
          'Only in the browser that began (its cookie); a wrong, expired or used ticket is a 401 (10 per address in 15 minutes, then 429).',
        tags: ['auth', ...tags],
        body: {
          type: 'object',
          required: ['ticket'],
          additionalProperties: false,
          properties: { ticket: ticketText },
          examples: [{ ticket: 'p9Qm3Zx0Lr7Tb2Wc5Yd8Ve1Nf4Ga6Hk9Js3Ku0Lw2Mx' }],
        },
        response: {
          200: envelopeSchema(
            ticketDetails,
            ok({ provider: 'Craft community', mail: 'alex@example.org', mail_verified: true, suggested_name: 'Alex' }),
          ),
          ...errorResponses(401, 404, 429),
        },
      },
    },
    async (request) => ok(await oidc.registrations.details(request.body.ticket, cookie.read(request), request.ip)),
  );

  app.post(
    '/api/auth/oidc/register',
    {
      schema: {
        summary:
          'Finish a registration through a provider: the profile name (and optionally a password; without one the account ' +
          'is password-less and sets one by the reset), the invitation when registration is by invitation',
        description:
          'The account is finished at once, the identity linked. A mail the provider verified logs in (data.jwt, url /home); ' +
          'any other is mailed a code (data.mailed, url /mail/confirm), and the account logs in through the provider once it ' +
          'is confirmed. A mail address an account here has is a 409 and nothing is created; a taken name a 409 that keeps ' +
          'the ticket usable. Only in the browser that began.',
        tags: ['auth', ...tags],
        body: {
          type: 'object',
          required: ['ticket', 'username'],
          additionalProperties: false,
          properties: {
            ticket: ticketText,
            username: { type: 'string', maxLength: 64 },
            password: { type: 'string', maxLength: 1024 },
            invite: { type: 'string', maxLength: 256 },
          },
          examples: [{ ticket: 'p9Qm3Zx0Lr7Tb2Wc5Yd8Ve1Nf4Ga6Hk9Js3Ku0Lw2Mx', username: 'Alex' }],
        },
        response: {
          200: envelopeSchema(
            {
              type: 'object',
              required: ['mailed'],
              properties: {
                mailed: { type: 'boolean' },
                jwt: { type: 'string', description: 'the session, when the mail was verified' },
                mail: { type: 'string', description: 'where the code went, when mailed' },
              },
            },
            ok({ mailed: false, jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJl' }, REGISTERED, 'https://skins.example.org/home'),
          ),
          ...errorResponses(400, 401, 403, 404, 409, 429),
        },
      },
    },
    async (request, reply) => {
      const { ticket, ...input } = request.body;
      const done = await oidc.registrations.register(ticket, input, cookie.read(request), request.ip, languageOf(request));
      cookie.set(reply, null);
      return done.mailed
        ? ok({ mailed: true, mail: done.mail }, REGISTERED_MAILED, done.url)
        : ok({ mailed: false, jwt: done.jwt }, REGISTERED, done.url);
    },
  );

  exchangeRoute(fastify, {
    path: '/api/auth/oidc/exchange',
    opening: "Exchange an OpenID Connect login's one-time code (from /oidc?code=)",
    tags,
    cookie,
    exchange: (...args) => oidc.exchange(...args),
  });

  app.post(
    '/api/home/oidc/:id',
    {
      config: { access: 'player' },
      schema: {
        summary:
          "Begin linking an identity at an OpenID Connect provider: url is the provider's page (its state is single use, for 10 minutes)",
        description:
          'Asks for the current password, and the code of the authenticator app (or a recovery code) as totp when two-factor ' +
          'login is on: a wrong or missing password is a 401 that counts as a failed login (429 after too many); a missing ' +
          "code is a 401 with data.totp_required. 503 while the provider's discovery has not answered. Sets an HttpOnly " +
          'cookie that binds the link to this browser. A new identity at the same provider replaces the one linked before.',
        tags: ['home', ...tags],
        params: providerParams,
        body: proofBody,
        response: { 200: envelopeSchema(undefined, ok({}, LINK_BEGUN, EXAMPLE_AUTHORIZE)), ...errorResponses(400, 401, 404, 429, 503) },
      },
    },
    async (request, reply) =>
      ok(
        {},
        LINK_BEGUN,
        cookie.begin(
          reply,
          await oidc.startLink(
            callerOf(request),
            request.params.id,
            { ...request.body, password: request.body.password ?? '' },
            request.ip,
          ),
        ),
      ),
  );

  app.delete(
    '/api/home/oidc/:id',
    {
      config: { access: 'player' },
      schema: {
        summary: "Unlink the caller's identity at an OpenID Connect provider; asks for the password as linking does",
        tags: ['home', ...tags],
        params: providerParams,
        body: proofBody,
        response: { 200: envelopeSchema(undefined, ok({}, UNLINKED)), ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => {
      await oidc.unlink(callerOf(request), request.params.id, { ...request.body, password: request.body.password ?? '' }, request.ip);
      return ok({}, UNLINKED);
    },
  );

  app.delete(
    '/api/admin/user/:identifier/oidc/:id',
    {
      config: { access: 'admin' },
      schema: {
        summary: "Unlink a player's identity at an OpenID Connect provider; only for players below your own level",
        description:
          'Audited as oidc.unlink. The last way into a password-less account (no other identity, no Discord, no passkey) ' +
          'is a 409 with data.last_way unless last is true: the player then sets a password by the reset, at their mail address.',
        tags: ['admin', ...tags],
        params: {
          type: 'object',
          required: ['identifier', 'id'],
          properties: { ...USER_IDENTIFIER_PARAMS.properties, ...providerParams.properties },
        },
        body: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: { last: { type: 'boolean' } },
          examples: [{ last: true }],
        },
        response: {
          200: envelopeSchema(
            { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'integer' } } },
            ok({ id: 7 }, UNLINKED_FOR),
          ),
          ...errorResponses(400, 403, 404, 409),
        },
      },
    },
    async (request) =>
      ok(await oidc.unlinkFor(callerOf(request), request.params.identifier, request.params.id, request.body?.last === true), UNLINKED_FOR),
  );
}
