// Routes of the account flows (interface.md 4.1) and the player's own profile (contract section 6).
import type { FastifyInstance } from 'fastify';
import { badRequest, envelopeSchema, errorResponses, languageOf, message, ok } from '../http/envelope.ts';
import type { Message } from '../i18n/i18n.ts';
import { LANGUAGES } from '../i18n/languages.ts';
import { ACCOUNT_SESSION_SCHEMA, ACCOUNT_SESSIONS_EXAMPLE } from '../http/shapes/account-session.ts';
import { BASE } from '../http/shapes/example-story.ts';
import { LOGGED_IN, WEB_LOGIN_RESPONSE_SCHEMA } from '../http/shapes/web-login.ts';
import { USER_DETAIL_EXAMPLE, USER_DETAIL_SCHEMA } from '../http/shapes/user-detail.ts';
import { withSchemaTypes } from '../http/schema-types.ts';
import { callerOf, type Caller } from './authenticate.ts';
import type { Profiles } from './profile.ts';
import type { AccountService, SelectionCheck } from './service.ts';

const text = { type: 'string', maxLength: 1024 } as const;
/** A body of required text fields, named by its example; typed as what it is, so that the request's type follows. */
const bodyOf = <const Example extends Record<string, string>, const Optional extends keyof Example & string = never>(
  example: Example,
  optional: readonly Optional[] = [],
) =>
  ({
    type: 'object',
    required: Object.keys(example).filter((field) => !(optional as readonly string[]).includes(field)) as Exclude<
      keyof Example & string,
      Optional
    >[],
    properties: Object.fromEntries(Object.keys(example).map((field) => [field, text])) as { [Field in keyof Example]: typeof text },
    examples: [example],
  }) as const;
const emptyEnvelope = (msg: Message, url: string | null = null) => ({ 200: envelopeSchema(undefined, ok({}, msg, url)) });
// The mail shows a code in two groups of five; any case, and a space, a dash or nothing between the groups, is accepted.
// Typed by hand it needs its mail address (or the registration's continuation); the mail's link carries a token
// (26 letters) in its place, which needs nothing else (contract section 15b).
const CODE = { code: 'K7QX2-M9PRT', mail: 'steve@example.org' };
const CODE_FIELDS = {
  code: {
    ...text,
    description:
      "the code typed from the mail (10 letters, as K7QX2-M9PRT), or the token of the mail's link (its `code` parameter, 26 letters)",
  },
  mail: { ...text, description: 'with a typed code: the mail address it was sent to (a token needs none)' },
} as const;
const tags = ['auth'];
const REGISTERED = message('accounts.registered');
const CONFIRMED = message('accounts.confirmed');
const LOGGED_OUT = message('accounts.loggedOut');
const RESET_SENT = message('accounts.resetSent');
const PASSWORD_RESET = message('accounts.passwordReset');
const FINISHED = message('accounts.finished');
const LOGGED_OUT_EVERYWHERE = message('accounts.loggedOutEverywhere');
const DELETED = message('accounts.deleted');
const CONTINUATION_EXAMPLE = '418.77.1767229200000.Xq3v0bN8QyV2lH5tJmR9cW1eK7uA4sD6fG0hZ3pL8oE';
const CONTINUATION = {
  type: 'string',
  maxLength: 200,
  description:
    'the continuation the registration (or a sending again) answered: kept by the browser that registered, it lets that browser be logged in when it confirms, have the mail sent again, and learn whether the address was confirmed elsewhere (one hour; docs/security.md)',
} as const;
const CONTINUATION_DATA = {
  type: 'object',
  required: ['continuation'],
  properties: { continuation: { type: 'string' } },
} as const;

/** Registration step 3 with an existing account (contract section 20, PREMIUM_IMPORT): src/fallback/premium.ts. */
export interface PremiumRegistration {
  finishRegistration(caller: Caller, input: { name: string; token: string; source?: string }, password?: string): Promise<void>;
}

export function accountRoutes(
  fastify: FastifyInstance,
  accounts: AccountService,
  profiles: Profiles,
  wardrobe: SelectionCheck,
  premium: PremiumRegistration | null = null,
) {
  const app = withSchemaTypes(fastify);
  app.post(
    '/api/auth/register',
    {
      schema: {
        summary: 'Registration step 1: create an unverified account and mail a code',
        description:
          'invite: the code of an invitation link ({PUBLIC_URL}/register?invite=CODE), needed for a new account while ' +
          'registration is by invitation (GET /api/auth/registration tells the mode); 403 while registration is closed or ' +
          'without a usable invitation, and nothing is created. Registering again with a mail whose account is not ' +
          'confirmed yet needs no invitation, and keeps no password: only the first registration of an address keeps its ' +
          "password, a later one's code confirms only with a password chosen then. The account's mails are in the " +
          "language of this request's Accept-Language.",
        tags,
        body: bodyOf({ mail: 'steve@example.org', password: 'correct horse battery', invite: 'q3Vf8LkQ2xN7cR1tYb5wZ0aD' }, ['invite']),
        response: {
          200: envelopeSchema(CONTINUATION_DATA, ok({ continuation: CONTINUATION_EXAMPLE }, REGISTERED, `${BASE}/register/confirm`)),
          ...errorResponses(403, 409, 429),
        },
      },
    },
    async (request) => {
      // The account's mails follow the language of the request that registers it (contract section 14).
      const { next, continuation } = await accounts.register(
        request.body.mail,
        request.body.password,
        request.ip,
        request.body.invite,
        languageOf(request),
      );
      return ok({ continuation }, REGISTERED, next);
    },
  );

  app.post(
    '/api/auth/confirm/resend',
    {
      schema: {
        summary: 'Send the confirmation mail again: a new code, within the mail limits (one a minute to an address)',
        description:
          'For the browser tab that registered, `continuation` alone; for a player whose login was refused because the ' +
          'mail address is not confirmed yet, the login itself (`username`, `password`, and `totp` with two-factor login on), ' +
          'counted as a login. The new code carries the password that registration (or that login) proved. 409 when the ' +
          'address is confirmed already; 400 when the continuation has ended (register again, or log in).',
        tags,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { continuation: CONTINUATION, username: text, password: text, totp: text },
          examples: [{ continuation: CONTINUATION_EXAMPLE }],
        },
        response: {
          200: envelopeSchema(
            {
              ...CONTINUATION_DATA,
              required: ['continuation', 'mail'],
              properties: { ...CONTINUATION_DATA.properties, mail: { type: 'string' } },
            },
            ok(
              { continuation: CONTINUATION_EXAMPLE, mail: 'steve@example.org' },
              message('accounts.sentAgain', { mail: 'steve@example.org' }),
              `${BASE}/register/confirm`,
            ),
          ),
          ...errorResponses(400, 401, 403, 409, 429),
        },
      },
    },
    async (request) => {
      const { continuation, username, password, totp } = request.body;
      const proof =
        continuation !== undefined
          ? { continuation }
          : username !== undefined && password !== undefined
            ? { login: username, password, totp }
            : undefined;
      if (proof === undefined) throw badRequest('accounts.resendProofMissing');
      const sent = await accounts.resendConfirmation(proof, request.ip);
      return ok({ continuation: sent.continuation, mail: sent.mail }, message('accounts.sentAgain', { mail: sent.mail }), sent.next);
    },
  );

  app.post(
    '/api/auth/confirm',
    {
      schema: {
        summary: 'Registration step 2 (or a mail change): confirm the mail address with the mailed code',
        description:
          "`code`: the token of the mail's link, which confirms by itself, or the code typed from the mail, which needs " +
          '`mail` (the address it was sent to) or the `continuation` of the registration that had it mailed; wrong typed ' +
          'codes are limited per account and per address (10 in 15 minutes). A registration sets a password: `password` ' +
          "when given (chosen now, with the rules of registration), else the one the address's first registration gave, " +
          "kept only without a continuation or with the continuation of the browser that gave it; a later registration's " +
          "code, or another browser's continuation, needs `password` (400 naming it). Whoever chose the password now, or " +
          'confirms in the browser that gave it, is logged in too: `data.jwt`, as a login gives. Otherwise `data` is empty ' +
          'and the player logs in. A changed mail address takes no `password`.',
        tags,
        body: {
          ...bodyOf({ ...CODE, continuation: CONTINUATION_EXAMPLE, password: 'correct horse battery' }, [
            'mail',
            'continuation',
            'password',
          ]),
          properties: { ...CODE_FIELDS, continuation: CONTINUATION, password: text },
        },
        response: {
          200: envelopeSchema({ type: 'object', properties: { jwt: { type: 'string' } } }, ok({}, CONFIRMED, `${BASE}/register/finish`)),
          ...errorResponses(429),
        },
      },
    },
    async (request) => {
      const { code, continuation, mail, password } = request.body;
      const { next, jwt } = await accounts.confirmMail(code, request.ip, { continuation, mail, password });
      return ok(jwt === undefined ? {} : { jwt }, CONFIRMED, next);
    },
  );

  app.post(
    '/api/auth/confirm/status',
    {
      schema: {
        summary: 'For the browser that registered: whether the mail address was confirmed since, in this browser or elsewhere',
        description:
          '`state`: `waiting` (not confirmed yet), `confirmed` (log in, or go on if this browser was logged in by confirming), ' +
          'or `ended` (the continuation is past its hour, not genuine, or its account is gone).',
        tags,
        body: {
          type: 'object',
          required: ['continuation'],
          additionalProperties: false,
          properties: { continuation: CONTINUATION },
          examples: [{ continuation: CONTINUATION_EXAMPLE }],
        },
        response: {
          200: envelopeSchema(
            {
              type: 'object',
              required: ['state'],
              properties: { state: { type: 'string', enum: ['waiting', 'confirmed', 'ended'] } },
            },
            ok({ state: 'confirmed' }),
          ),
        },
      },
    },
    async (request) => ok({ state: await accounts.registrationState(request.body.continuation) }),
  );

  app.post(
    '/api/auth/login',
    {
      schema: {
        summary: 'Log in with a username or mail address; data.jwt is the token for the Authorization header',
        description:
          'With two-factor login on, `totp` (the 6-digit code of the authenticator app, or a recovery code) is needed too: ' +
          'without it the answer is 401 with `data: {totp_required: true}` (the password was right: ask for the code and ' +
          'send both again); a wrong or used code is a plain 401 with `data: {}`. Wrong codes count as failed logins.',
        tags,
        body: bodyOf({ username: 'Steve', password: 'correct horse battery', totp: '123456' }, ['totp']),
        response: {
          200: WEB_LOGIN_RESPONSE_SCHEMA,
          ...errorResponses(401, 403, 429),
        },
      },
    },
    async (request) => {
      const { jwt, url } = await accounts.login(request.body.username, request.body.password, request.ip, request.body.totp);
      return ok({ jwt }, LOGGED_IN, url);
    },
  );

  app.post(
    '/api/auth/logout',
    {
      config: { access: 'registering' },
      schema: { summary: "Log out: revokes this token's session", tags, response: emptyEnvelope(LOGGED_OUT) },
    },
    async (request) => {
      await accounts.logout(callerOf(request));
      return ok({}, LOGGED_OUT);
    },
  );

  app.post(
    '/api/auth/forgetpass',
    {
      schema: {
        summary: 'Password reset step 1: mail a reset code (the same answer whether an account has the address or not)',
        tags,
        body: bodyOf({ mail: 'steve@example.org' }),
        response: { ...emptyEnvelope(RESET_SENT, `${BASE}/reset/confirm`), ...errorResponses(429) },
      },
    },
    async (request) => {
      const next = await accounts.requestPasswordReset(request.body.mail, request.ip);
      return ok({}, RESET_SENT, next);
    },
  );

  app.post(
    '/api/auth/forgetpass/validate',
    {
      schema: {
        summary: 'Password reset step 2: check a reset code without using it up',
        tags,
        body: { ...bodyOf(CODE, ['mail']), properties: CODE_FIELDS },
        response: { 204: { description: 'The code is good', type: 'null' }, ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      await accounts.checkResetCode(request.body.code, request.ip, request.body.mail);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/auth/forgetpass/update',
    {
      schema: {
        summary: 'Password reset step 3: set the new password; every session of the account is revoked',
        tags,
        body: {
          ...bodyOf({ ...CODE, password: 'new correct horse battery' }, ['mail']),
          properties: { ...CODE_FIELDS, password: text },
        },
        response: { ...emptyEnvelope(PASSWORD_RESET, `${BASE}/login`), ...errorResponses(429) },
      },
    },
    async (request) => {
      const { code, password, mail } = request.body;
      const next = await accounts.resetPassword(code, password, request.ip, mail);
      return ok({}, PASSWORD_RESET, next);
    },
  );

  app.post(
    '/api/home/registerfinish',
    {
      config: { access: 'registering' },
      schema: {
        summary: 'Registration step 3: choose the username (and optionally a new password); the player UUID is assigned',
        description:
          'With PREMIUM_IMPORT (contract section 20), `premium` {name, token, source?} in place of `username`: after the ' +
          "challenge skin's check (POST /api/home/premium/challenge), the profile gets that account's name and UUID (409 " +
          'when a profile here has either; 429 too many checks by this account, as for POST /api/home/premium/verify) and ' +
          'the account is linked to it',
        tags: ['auth', 'home'],
        body: {
          type: 'object',
          properties: {
            username: text,
            password: text,
            premium: {
              type: 'object',
              required: ['name', 'token'],
              additionalProperties: false,
              properties: { name: text, token: text, source: { type: 'string', maxLength: 64 } },
            },
          },
          examples: [{ username: 'Steve', password: 'correct horse battery' }],
        },
        response: { ...emptyEnvelope(FINISHED), ...errorResponses(400, 403, 404, 409, 429, 503) },
      },
    },
    async (request) => {
      const { username, password, premium: existing } = request.body;
      if (existing) {
        if (!premium) throw badRequest('premium.importOff', { field: 'premium' });
        await premium.finishRegistration(callerOf(request), existing, password);
      } else {
        if (username === undefined) throw badRequest('premium.usernameMissing', { field: 'username' });
        await accounts.finishRegistration(callerOf(request), username, password);
      }
      return ok({}, FINISHED);
    },
  );

  app.get(
    '/api/home',
    {
      config: { access: 'registering', readsHoldings: true },
      schema: {
        summary: "The caller's profile (the user detail shape)",
        tags: ['home'],
        response: { 200: envelopeSchema(USER_DETAIL_SCHEMA, ok(USER_DETAIL_EXAMPLE)) },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return ok(await profiles.detail(caller.user, caller.level, caller.holdings));
    },
  );

  app.patch(
    '/api/home',
    {
      config: { access: 'player' },
      schema: {
        summary:
          'Change the password or mail address (both need current_password), select a skin and cape ("" for none), or the language of your mails',
        tags: ['home'],
        body: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: {
            password: text,
            mail: text,
            current_password: text,
            selected_skin: text,
            selected_cape: text,
            language: { type: 'string', enum: [...LANGUAGES], description: 'the language of your mails: en, ru or zh-CN' },
          },
          examples: [{ selected_skin: USER_DETAIL_EXAMPLE.Selected_Skin, selected_cape: USER_DETAIL_EXAMPLE.Capes[0]!.Id }],
        },
        response: {
          200: envelopeSchema(USER_DETAIL_SCHEMA, ok(USER_DETAIL_EXAMPLE, message('accounts.saved'))),
          ...errorResponses(404, 409, 429),
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { password, mail, current_password, selected_skin, selected_cape, language } = request.body;
      const choice = { selected_skin, selected_cape };
      const selects = selected_skin !== undefined || selected_cape !== undefined;
      const selection = selects ? { columns: await wardrobe.selectionChanges(caller.user.id, choice), choice } : undefined;
      const user = await accounts.updateHome(
        caller,
        { password, mail, currentPassword: current_password, selection, language },
        request.ip,
      );
      const saved = password !== undefined ? 'accounts.savedPassword' : mail !== undefined ? 'accounts.savedMail' : 'accounts.saved';
      return ok(await profiles.detail(user, caller.level), message(saved));
    },
  );

  app.get(
    '/api/home/sessions',
    {
      config: { access: 'player' },
      schema: {
        summary:
          "The account's live sessions of every kind: web logins, game tokens (Yggdrasil) and launcher sessions (GravitLauncher); current marks the caller's",
        tags: ['home'],
        response: { 200: envelopeSchema({ type: 'array', items: ACCOUNT_SESSION_SCHEMA }, ok(ACCOUNT_SESSIONS_EXAMPLE)) },
      },
    },
    async (request) => ok(await accounts.sessions(callerOf(request))),
  );

  app.delete(
    '/api/home/sessions',
    {
      config: { access: 'player' },
      schema: {
        summary: "Log out everywhere: revokes every session of every kind, the caller's own included",
        tags: ['home'],
        response: emptyEnvelope(LOGGED_OUT_EVERYWHERE, `${BASE}/login`),
      },
    },
    async (request) => {
      return ok({}, LOGGED_OUT_EVERYWHERE, await accounts.logoutEverywhere(callerOf(request)));
    },
  );

  app.delete(
    '/api/home',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Delete the own account (password required): skins, sessions, tokens and cape ownership go; the last owner cannot',
        tags: ['home'],
        body: { ...bodyOf({ password: 'correct horse battery' }), additionalProperties: false },
        response: { ...emptyEnvelope(DELETED, `${BASE}/`), ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => {
      return ok({}, DELETED, await accounts.deleteAccount(callerOf(request), request.body.password, request.ip));
    },
  );
}
