// A player's latest join of a game server. The launcher (through the player's client) records the join; the game
// server then asks whether that player joined with that server id (Yggdrasil hasJoined, GravitLauncher checkserver).
// Kept in the database, so the server may ask any instance.
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Database } from '../database/schema.ts';

/** How long a join stays good: the game server asks within a second or two of the client's join. */
export const JOIN_LIFETIME_MS = 30_000;

export class JoinRecords {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /** Replaces the profile's previous join, if any (each profile of an account joins on its own). */
  async remember(profileId: number, serverId: string, ip: string | null): Promise<void> {
    const joinedAt = this.clock.now();
    await this.db
      .insertInto('game_joins')
      .values({ profile_id: profileId, server_id: serverId, ip, joined_at: joinedAt })
      .onConflict((conflict) => conflict.column('profile_id').doUpdateSet({ server_id: serverId, ip, joined_at: joinedAt }))
      .execute();
  }

  /**
   * Whether the profile's latest join, at most JOIN_LIFETIME_MS old, carried this server id, and, when the game
   * server names the address it sees, came from that address.
   */
  async joined(profileId: number, serverId: string, ip?: string): Promise<boolean> {
    const join = await this.db.selectFrom('game_joins').selectAll().where('profile_id', '=', profileId).executeTakeFirst();
    if (!join || join.server_id !== serverId || join.joined_at + JOIN_LIFETIME_MS < this.clock.now()) return false;
    return ip === undefined || join.ip === null || sameAddress(join.ip, ip);
  }
}

/** `::ffff:1.2.3.4` (an IPv4 client of a dual-stack socket) is the same address as `1.2.3.4`. */
function sameAddress(a: string, b: string): boolean {
  const plain = (address: string) =>
    address
      .trim()
      .toLowerCase()
      .replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  return plain(a) === plain(b);
}
