// Facts of the game itself that several parts of the service rely on.
import { createHash } from 'node:crypto';

/** A name-based UUID (version 3) of `text`, as Java's UUID.nameUUIDFromBytes makes it, lower case with dashes. */
export function nameBasedUuid(text: string): string {
  const hash = createHash('md5').update(text, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x30;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The UUID a game server in offline mode gives a player name. The name's letter case matters. */
export const offlinePlayerUuid = (username: string) => nameBasedUuid(`OfflinePlayer:${username}`);
