// Routes of the account flows (interface.md 4.1) and the player's own profile (contract section 6).
import type { FastifyInstance } from 'fastify';
import { envelopeSchema, ok } from '../http/envelope.ts';
import { callerOf } from './authenticate.ts';
import type { Wardrobe } from '../textures/wardrobe.ts';
import { userDetailSchema, type Profiles } from './profile.ts';
import type { AccountService } from './service.ts';

const text = { type: 'string', maxLength: 1024 } as const;
const bodyOf = (...fields: string[]) =>
  ({ type: 'object', required: fields, properties: Object.fromEntries(fields.map((field) => [field, text])) }) as const;
const emptyEnvelope = { 200: envelopeSchema() };

export function accountRoutes(app: FastifyInstance, accounts: AccountService, profiles: Profiles, wardrobe: Wardrobe) {
  app.post<{ Body: { mail: string; password: string } }>(
    '/api/auth/register',
    { schema: { body: bodyOf('mail', 'password'), response: emptyEnvelope } },
    async (request) => {
      const next = await accounts.register(request.body.mail, request.body.password, request.ip);
      return ok({}, 'Account created; we sent a code to your mail address', next);
    },
  );

  app.post<{ Body: { code: string } }>(
    '/api/auth/confirm',
    { schema: { body: bodyOf('code'), response: emptyEnvelope } },
    async (request) => ok({}, 'Mail address confirmed', await accounts.confirmMail(request.body.code, request.ip)),
  );

  app.post<{ Body: { username: string; password: string } }>(
    '/api/auth/login',
    { schema: { body: bodyOf('username', 'password'), response: { 200: envelopeSchema({ type: 'object', properties: { jwt: text } }) } } },
    async (request) => {
      const { jwt, url } = await accounts.login(request.body.username, request.body.password, request.ip);
      return ok({ jwt }, 'Login successful', url);
    },
  );

  app.post('/api/auth/logout', { config: { access: 'registering' }, schema: { response: emptyEnvelope } }, async (request) => {
    await accounts.logout(callerOf(request));
    return ok({}, 'Logged out');
  });

  app.post<{ Body: { mail: string } }>(
    '/api/auth/forgetpass',
    { schema: { body: bodyOf('mail'), response: emptyEnvelope } },
    async (request) => {
      const next = await accounts.requestPasswordReset(request.body.mail, request.ip);
      return ok({}, 'If an account has this mail address, a code was sent to it', next);
    },
  );

  app.post<{ Body: { code: string } }>('/api/auth/forgetpass/validate', { schema: { body: bodyOf('code') } }, async (request, reply) => {
    await accounts.checkResetCode(request.body.code, request.ip);
    return reply.code(204).send();
  });

  app.post<{ Body: { code: string; password: string } }>(
    '/api/auth/forgetpass/update',
    { schema: { body: bodyOf('code', 'password'), response: emptyEnvelope } },
    async (request) => {
      const next = await accounts.resetPassword(request.body.code, request.body.password, request.ip);
      return ok({}, 'Password updated; log in with the new password', next);
    },
  );

  app.post<{ Body: { username: string; password: string } }>(
    '/api/home/registerfinish',
    { config: { access: 'registering' }, schema: { body: bodyOf('username', 'password'), response: emptyEnvelope } },
    async (request) => {
      await accounts.finishRegistration(callerOf(request), request.body.username, request.body.password);
      return ok({}, 'Registration finished');
    },
  );

  app.get('/api/home', { config: { access: 'registering' }, schema: { response: { 200: envelopeSchema(userDetailSchema) } } }, async (request) => {
    const caller = callerOf(request);
    return ok(await profiles.detail(caller.user, caller.level));
  });

  app.patch<{ Body: { password?: string; mail?: string; current_password?: string; selected_skin?: string; selected_cape?: string } }>(
    '/api/home',
    {
      config: { access: 'player' },
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: { password: text, mail: text, current_password: text, selected_skin: text, selected_cape: text },
        },
        response: { 200: envelopeSchema(userDetailSchema) },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { password, mail, current_password, selected_skin, selected_cape } = request.body;
      if (selected_skin !== undefined || selected_cape !== undefined) await wardrobe.select(caller, { selected_skin, selected_cape });
      if (mail !== undefined) await accounts.changeMail(caller, current_password, mail, request.ip);
      if (password !== undefined) await accounts.changePassword(caller, current_password, password);
      const user = await accounts.reload(caller.user.id);
      const message = password !== undefined ? 'Saved; your password changed, so log in again' : mail !== undefined ? 'Saved; confirm the new mail address with the code we sent' : 'Saved';
      return ok(await profiles.detail(user, caller.level), message);
    },
  );
}
