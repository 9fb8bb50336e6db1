// One live session of an account, of any kind (GET /api/home/sessions): type, response schema and example.
import { recordSchema } from './record-schema.ts';

/** The kinds of session, as the API names them; src/sessions/kinds.ts gives each its table (the pages read this file,
 * so it imports nothing of the database). */
export const SESSION_KIND_NAMES = ['web', 'game', 'launcher', 'oauth'] as const;
export type SessionKind = (typeof SESSION_KIND_NAMES)[number];

export interface AccountSession {
  /** One of SESSION_KINDS (sessions/kinds.ts): web, a login on the site; game, a game token; launcher, a GravitLauncher
   * session; oauth, a launcher's Yggdrasil Connect grant with its tokens. */
  kind: SessionKind;
  /** The session's id within its kind. */
  id: number;
  /** Unix seconds. */
  created: number;
  /** Unix seconds: when it ends unless renewed (a launcher session's refresh token, a game token's 15 days). */
  expires: number;
  /** True for the session that made the request. */
  current: boolean;
}

export const ACCOUNT_SESSION_SCHEMA = recordSchema<AccountSession>({
  kind: { type: 'string', enum: [...SESSION_KIND_NAMES] },
  id: { type: 'integer' },
  created: { type: 'integer' },
  expires: { type: 'integer' },
  current: { type: 'boolean' },
});

export const ACCOUNT_SESSIONS_EXAMPLE: AccountSession[] = [
  { kind: 'web', id: 12, created: 1767225600, expires: 1767312000, current: true },
  { kind: 'game', id: 31, created: 1767220000, expires: 1768516000, current: false },
  { kind: 'launcher', id: 4, created: 1767100000, expires: 1769692000, current: false },
  { kind: 'oauth', id: 2, created: 1767100000, expires: 1769692000, current: false },
];
