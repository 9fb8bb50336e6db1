// One live session of an account, of any kind (GET /api/home/sessions): type, response schema and example.
import { recordSchema } from './record-schema.ts';

export type SessionKind = 'web' | 'game' | 'launcher';

export interface AccountSession {
  /** web: a login on the site (the JWT's session); game: a game token (Yggdrasil); launcher: a GravitLauncher session. */
  kind: SessionKind;
  /** The session's id within its kind. */
  id: number;
  /** Unix seconds. */
  created: number;
  /** Unix seconds: when it ends unless renewed (a launcher session's refresh token, a game token's 15 days). */
  expires: number;
  /** True for the web session that made the request. */
  current: boolean;
}

export const ACCOUNT_SESSION_SCHEMA = recordSchema<AccountSession>({
  kind: { type: 'string', enum: ['web', 'game', 'launcher'] },
  id: { type: 'integer' },
  created: { type: 'integer' },
  expires: { type: 'integer' },
  current: { type: 'boolean' },
});

export const ACCOUNT_SESSIONS_EXAMPLE: AccountSession[] = [
  { kind: 'web', id: 12, created: 1767225600, expires: 1767312000, current: true },
  { kind: 'game', id: 31, created: 1767220000, expires: 1768516000, current: false },
  { kind: 'launcher', id: 4, created: 1767100000, expires: 1769692000, current: false },
];
