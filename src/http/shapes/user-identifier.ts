// The path parameter of every admin route under /api/admin/user/…{identifier}…: an account's id, player UUID or username.
import { PLAYER_UUID } from './example-story.ts';

export const USER_IDENTIFIER_PARAMS = {
  type: 'object',
  required: ['identifier'],
  properties: { identifier: { type: 'string', minLength: 1, maxLength: 64, examples: [PLAYER_UUID] } },
} as const;
