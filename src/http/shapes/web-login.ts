// The answer of a web login, by password (POST /api/auth/login) or through another site (POST
// /api/auth/discord/exchange, /api/auth/oidc/exchange): the message, the response schema and its example; and the
// redirect that the routes a browser opens itself in such a login answer with.
import { envelopeSchema, message, ok } from '../envelope.ts';
import { BASE } from './example-story.ts';

export const LOGGED_IN = message('accounts.loggedIn');

export const WEB_LOGIN_RESPONSE_SCHEMA = envelopeSchema(
  { type: 'object', properties: { jwt: { type: 'string' } } },
  ok(
    { jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOjcsInNJZCI6MTIsImlhdCI6MTc2NzIyNTYwMCwiZXhwIjoxNzY3MzEyMDAwfQ.c2lnbmF0dXJl' },
    LOGGED_IN,
    `${BASE}/home`,
  ),
);

/** The response schema of a route that sends the browser on (302) to the place `description` says. */
export const redirectResponse = (description: string) => ({ 302: { description, type: 'null' } }) as const;
