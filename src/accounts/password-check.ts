// POST /api/auth/password-check: whether a password would be refused where one is set, and why, for the pages to
// say as the player types (issue 31). The list of common passwords stays on the server: 49,233 entries are 487 kB
// (221 kB gzipped), far over a page's budget (docs/decisions.md). Nothing is stored, and the body is never logged
// (src/http/request-log.ts logs no bodies).
import type { FastifyInstance } from 'fastify';
import { ApiError, envelopeSchema, errorResponses, message, ok } from '../http/envelope.ts';
import type { RateLimiter, RateRule } from '../ratelimit/limiter.ts';
import { checkPassword } from './rules.ts';
import { withSchemaTypes } from '../http/schema-types.ts';

/** Why a password would be refused: the message keys of checkPassword without their `accounts.password` prefix. */
export const PASSWORD_REFUSALS = {
  'accounts.passwordTooShort': 'tooShort',
  'accounts.passwordTooLong': 'tooLong',
  'accounts.passwordCommon': 'common',
  'accounts.passwordIsOwnIdentifier': 'ownIdentifier',
} as const;
export type PasswordRefusal = (typeof PASSWORD_REFUSALS)[keyof typeof PASSWORD_REFUSALS];

/** A page checks at most once a pause in typing: a few hundred a quarter of an hour is a lot of typing. */
export const PASSWORD_CHECKS_PER_ADDRESS: RateRule = {
  name: 'password-check-ip',
  limit: 300,
  windowMs: 15 * 60_000,
  message: 'limits.passwordChecksPerAddress',
  perClientAddress: true,
};

const VERDICT_SCHEMA = {
  type: 'object',
  required: ['ok', 'reason'],
  properties: {
    ok: { type: 'boolean' },
    reason: { type: ['string', 'null'], enum: [...Object.values(PASSWORD_REFUSALS), null] },
  },
} as const;

export function passwordCheckRoutes(fastify: FastifyInstance, limiter: RateLimiter) {
  const app = withSchemaTypes(fastify);
  app.post(
    '/api/auth/password-check',
    {
      schema: {
        summary: 'Whether a new password would be refused, and why, without setting it (the pages ask as the player types)',
        description:
          'The rules of every place a password is set: its length, not one of the common passwords, not the mail address ' +
          'or a player name given here. reason: tooShort, tooLong, common or ownIdentifier; msg says it in words. ' +
          'Nothing is stored or logged.',
        tags: ['auth'],
        body: {
          type: 'object',
          required: ['password'],
          additionalProperties: false,
          properties: {
            password: { type: 'string', maxLength: 1024 },
            mail: { type: 'string', maxLength: 1024 },
            names: { type: 'array', maxItems: 32, items: { type: 'string', maxLength: 64 } },
          },
          examples: [{ password: 'correct horse battery', mail: 'steve@example.org', names: ['Steve'] }],
        },
        response: {
          200: envelopeSchema(
            VERDICT_SCHEMA,
            ok({ ok: false, reason: 'common' }, message('accounts.passwordCommon', { field: 'password' })),
          ),
          ...errorResponses(429),
        },
      },
    },
    async (request) => {
      await limiter.take(PASSWORD_CHECKS_PER_ADDRESS, request.ip);
      const { password, mail, names = [] } = request.body;
      try {
        checkPassword(password, [mail, ...names]);
        return ok({ ok: true, reason: null });
      } catch (error) {
        const text = error instanceof ApiError ? error.text : undefined;
        const reason = text && PASSWORD_REFUSALS[text.key as keyof typeof PASSWORD_REFUSALS];
        if (!text || !reason) throw error;
        return ok({ ok: false, reason }, text);
      }
    },
  );
}
