// The friends card's answer (GET /api/home/friends), shared with the pages: types only, and the game's statuses.

/** The statuses the game sends to presence (authlib's PresenceStatus). */
export const PRESENCE_STATUSES = [
  'ONLINE',
  'OFFLINE',
  'PLAYING_OFFLINE',
  'PLAYING_REALMS',
  'PLAYING_SERVER',
  'PLAYING_HOSTED_SERVER',
] as const;
export type PresenceStatus = (typeof PRESENCE_STATUSES)[number];

/** A profile in a friends list: its UUID (dashed, as the web has it) and its current name. */
export interface FriendProfile {
  uuid: string;
  name: string;
}

/** One of the caller's profiles with its friends (each with what they are doing) and requests, for the web's card. */
export interface WebFriends {
  uuid: string;
  name: string;
  friends: (FriendProfile & { status: PresenceStatus | null })[];
  incoming: FriendProfile[];
  outgoing: FriendProfile[];
}
