// Routes of the Discord link and login (contract section 11). The two that a browser opens itself (the start of a
// login and Discord's callback) answer with redirects; the rest are JSON in the envelope. The nonce that binds a
// flow to its browser (contract section 15) travels in a cookie of its own, sent only to the routes under
// /api/auth/discord (the callback and the exchange), never readable by scripts, and sent along when Discord sends the
// browser back (SameSite=Lax lets a top-level navigation carry it).
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../accounts/authenticate.ts';
import { envelopeSchema, errorResponses, message, ok } from '../http/envelope.ts';
import { redirectResponse } from '../http/shapes/web-login.ts';
import { browserCookie } from '../external-login/browser-cookie.ts';
import { exchangeRoute } from '../external-login/exchange-route.ts';
import type { DiscordService } from './service.ts';
import { withSchemaTypes } from '../http/schema-types.ts';

const tags = ['discord'];
const text = { type: 'string', maxLength: 1024 } as const;
const LINK_BEGUN = message('discord.linkBegun');
const UNLINKED = message('discord.unlinked');
const EXAMPLE_AUTHORIZE =
  'https://discord.com/oauth2/authorize?response_type=code&client_id=1234567890123456789&redirect_uri=http%3A%2F%2Flocalhost%3A8080%2Fapi%2Fauth%2Fdiscord%2Fcallback&state=0lJ0m0Tq2S6bqz4c9n1e8kq0wq3b8p5dX7uYv2aR1sM&code_challenge_method=S256&code_challenge=Vx0vq2m3l4n5o6p7q8r9s0t1u2v3w4x5y6z7A8B9C0D&scope=identify';

/**
 * Routes of the Discord link and login. `publicUrl` decides whether the browser cookie is `Secure` (a site on https);
 * on plain http (a local try-out) a Secure cookie would never come back.
 */
export function discordRoutes(fastify: FastifyInstance, discord: DiscordService, publicUrl: string) {
  const app = withSchemaTypes(fastify);
  const cookie = browserCookie('discord_browser', '/api/auth/discord', publicUrl);

  app.get(
    '/api/auth/discord/status',
    {
      schema: {
        summary: 'Whether the Discord link and login are set up (DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET); the pages ask it',
        tags,
        response: {
          200: envelopeSchema(
            { type: 'object', required: ['enabled'], properties: { enabled: { type: 'boolean' } } },
            ok({ enabled: true }),
          ),
        },
      },
    },
    async () => ok({ enabled: discord.enabled }),
  );

  app.post(
    '/api/home/discord',
    {
      config: { access: 'player' },
      schema: {
        summary: "Begin linking a Discord account: url is Discord's consent page (its state is single use, for 10 minutes)",
        description:
          'Asks for the current password, and the code of the authenticator app (or a recovery code) as totp when two-factor ' +
          'login is on: a wrong or missing password is a 401 that counts as a failed login (429 after too many); a missing ' +
          'code is a 401 with data.totp_required. Sets an HttpOnly cookie that binds the link to this browser: only this ' +
          'browser can finish it at the callback.',
        tags: ['home', ...tags],
        // password is not required by the schema: a missing one is a wrong one (401, counted), as the contract says.
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { password: text, totp: text },
          examples: [{ password: 'correct horse battery' }],
        },
        response: { 200: envelopeSchema(undefined, ok({}, LINK_BEGUN, EXAMPLE_AUTHORIZE)), ...errorResponses(401, 404, 429) },
      },
    },
    async (request, reply) =>
      ok(
        {},
        LINK_BEGUN,
        cookie.begin(
          reply,
          await discord.startLink(callerOf(request), { ...request.body, password: request.body.password ?? '' }, request.ip),
        ),
      ),
  );

  app.delete(
    '/api/home/discord',
    {
      config: { access: 'player' },
      schema: {
        summary: "Unlink the caller's Discord account (also when the Discord login is not set up)",
        tags: ['home', ...tags],
        response: { 200: envelopeSchema(undefined, ok({}, UNLINKED)), ...errorResponses(404) },
      },
    },
    async (request) => {
      await discord.unlink(callerOf(request));
      return ok({}, UNLINKED);
    },
  );

  app.get(
    '/api/auth/discord',
    {
      schema: {
        summary: "Log in with Discord: redirects the browser to Discord's consent page",
        description: 'Sets an HttpOnly cookie that binds the login to this browser: only this browser can finish it.',
        tags: ['auth', ...tags],
        response: { ...redirectResponse("To Discord's consent page"), ...errorResponses(404, 429) },
      },
    },
    async (request, reply) => reply.redirect(cookie.begin(reply, await discord.startLogin(request.ip)), 302),
  );

  app.get(
    '/api/auth/discord/callback',
    {
      schema: {
        summary:
          'Where Discord sends the browser back (the redirect URI to register with Discord). A link ends on /home; a login ' +
          'of a linked Discord account on /discord?code= (the page exchanges the one-time code), of an unlinked one on ' +
          '/login?discord=not-linked; anything refused or tampered with, or opened in a browser other than the one that ' +
          'began (without its cookie), on /discord?problem=, and changes nothing',
        tags: ['auth', ...tags],
        // Not checked here: Discord adds parameters of its own, and every value is checked by the service, which
        // answers a bad one with a page that says so rather than a JSON error the browser would show raw.
        querystring: { type: 'object', properties: { code: {}, state: {}, error: {} } },
        response: redirectResponse('To the page of the web app that says how it ended'),
      },
    },
    async (request, reply) => {
      const outcome = await discord.callback(request.query, cookie.read(request));
      if (!outcome.keepNonce) cookie.set(reply, null);
      return reply.redirect(outcome.location, 302);
    },
  );

  exchangeRoute(fastify, {
    path: '/api/auth/discord/exchange',
    opening: "Exchange a Discord login's one-time code (from /discord?code=)",
    tags,
    cookie,
    exchange: (...args) => discord.exchange(...args),
  });
}
