// The one place that refuses a banned player's join (contract section 24): the game's own 403, which it shows as
// "You are banned from playing online"; hasJoined then finds no join. It does not depend on the game having read
// its attributes.
import type { Executor } from '../database/schema.ts';
import { GameServiceError } from '../yggdrasil/errors.ts';
import type { Bans } from './bans.ts';

export const JOIN_PATH = '/session/minecraft/join';

/** What YggdrasilService asks before it remembers a join. */
export function multiplayerBanRefusal(db: Executor, bans: Bans) {
  return async (userId: number): Promise<GameServiceError | null> => {
    const ban = await bans.activeBan(db, userId, 'multiplayer');
    if (!ban) return null;
    const until = ban.expiresAt === null ? 'permanently' : `until ${new Date(ban.expiresAt).toISOString().replace(/\.\d{3}Z$/, 'Z')}`;
    return new GameServiceError(403, 'multiplayer.access.banned', `You are banned from playing online ${until}`, JOIN_PATH);
  };
}
