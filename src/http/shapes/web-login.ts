// The answer of a web login, by password (POST /api/auth/login) or by Discord (POST /api/auth/discord/exchange):
// the message, the response schema and its example.
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
