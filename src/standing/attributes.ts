// The game's attributes (contract section 24, authlib's UserAttributesResponse): what the player may do online, their
// profanity filter, and the multiplayer ban the game draws its ban screen for. The game reads them at start; refusing
// a banned player's join never depends on it (join asks Bans itself).
import type { Kysely } from 'kysely';
import type { Caller } from '../accounts/authenticate.ts';
import type { Database } from '../database/schema.ts';
import { fixedError } from '../http/envelope.ts';
import { gameReasonNumber } from '../shared/ban-reasons.ts';
import type { ActiveBan, Bans } from './bans.ts';

const allowed = (enabled: boolean) => ({ enabled });

export interface Privileges {
  onlineChat: { enabled: boolean };
  multiplayerServer: { enabled: boolean };
  multiplayerRealms: { enabled: boolean };
  telemetry: { enabled: boolean };
  optionalTelemetry: { enabled: boolean };
}

/** A ban as the game reads it: its id, its end as an ISO instant (absent: permanent), its reason as a number in a string. */
export interface BannedScope {
  banId: string;
  expires?: string;
  reason: string;
  reasonMessage?: string;
}

export interface GameAttributes {
  privileges: Privileges;
  profanityFilterPreferences: { profanityFilterOn: boolean };
  /** Only with FRIENDS (contract section 25): the game shows its friends screen when `friends` is ENABLED. */
  friendsPreferences?: FriendsPreferences;
  banStatus: { bannedScopes: { MULTIPLAYER?: BannedScope } };
  /** 26.x reads the chat permission here (authlib 10's ChatToggleValue): the admin's chat switch holds on every version. */
  chatPreferences: { textCommunication: 'ENABLED' | 'DISABLED' };
}

/** The game's ToggleValues of its friends screen and of requests from others (26.2+). */
export interface FriendsPreferences {
  friends: 'ENABLED' | 'DISABLED';
  acceptInvites: 'ENABLED' | 'DISABLED';
}

/** Where a profile's friends preferences are kept (src/friends), handed in only with FRIENDS on. */
export interface FriendsPreferencesStore {
  preferences(profileId: number): Promise<FriendsPreferences>;
  savePreferences(profileId: number, changes: Partial<FriendsPreferences>): Promise<void>;
}

export interface AttributeChanges {
  profanityFilterPreferences?: { profanityFilterOn?: boolean };
  friendsPreferences?: Partial<FriendsPreferences>;
}

/** The game's form of a ban: the UUID without dashes, the end in ISO_INSTANT without milliseconds. */
export function bannedScope(ban: ActiveBan): BannedScope {
  return {
    banId: ban.uuid.replace(/-/g, ''),
    ...(ban.expiresAt !== null && { expires: new Date(ban.expiresAt).toISOString().replace(/\.\d{3}Z$/, 'Z') }),
    reason: String(gameReasonNumber(ban.reason)),
    ...(ban.message !== null && { reasonMessage: ban.message }),
  };
}

export class GameAttributesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly bans: Bans,
    private readonly friends: FriendsPreferencesStore | null = null,
  ) {}

  /** GET player/attributes: the token's profile's attributes. */
  async attributes(caller: Caller): Promise<GameAttributes> {
    const profileId = await this.profileIdOf(caller);
    const [ban, preferences, friendsPreferences, chat] = await Promise.all([
      this.bans.activeBan(this.db, caller.user.id, 'multiplayer'),
      this.db.selectFrom('game_preferences').select('profanity_filter').where('profile_id', '=', profileId).executeTakeFirst(),
      this.friends?.preferences(profileId),
      this.chatAllowed(caller.user.id),
    ]);
    return {
      privileges: this.privileges(chat),
      profanityFilterPreferences: { profanityFilterOn: preferences?.profanity_filter === 1 },
      ...(friendsPreferences && { friendsPreferences }),
      banStatus: { bannedScopes: ban ? { MULTIPLAYER: bannedScope(ban) } : {} },
      chatPreferences: { textCommunication: chat ? 'ENABLED' : 'DISABLED' },
    };
  }

  /** POST player/attributes: saves what the game may change (the profanity filter) and answers them all. */
  async save(caller: Caller, changes: AttributeChanges): Promise<GameAttributes> {
    const profanityFilterOn = changes.profanityFilterPreferences?.profanityFilterOn;
    if (profanityFilterOn !== undefined) {
      const profileId = await this.profileIdOf(caller);
      const value = profanityFilterOn ? 1 : 0;
      await this.db
        .insertInto('game_preferences')
        .values({ profile_id: profileId, profanity_filter: value })
        .onConflict((conflict) => conflict.column('profile_id').doUpdateSet({ profanity_filter: value }))
        .execute();
    }
    if (this.friends && changes.friendsPreferences) {
      await this.friends.savePreferences(await this.profileIdOf(caller), changes.friendsPreferences);
    }
    return this.attributes(caller);
  }

  /** GET privileges (the older games' form): what the player may do online. */
  privileges(onlineChat: boolean): Privileges {
    return {
      onlineChat: allowed(onlineChat),
      multiplayerServer: allowed(true),
      multiplayerRealms: allowed(false),
      telemetry: allowed(false),
      optionalTelemetry: allowed(false),
    };
  }

  /** Whether an administrator left the account's online chat on (users.online_chat). */
  async chatAllowed(userId: number): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('online_chat').where('id', '=', userId).executeTakeFirst();
    return row?.online_chat !== 0;
  }

  /** The profile the game token acts for; a token bound to none has no attributes of its own. */
  private async profileIdOf(caller: Caller): Promise<number> {
    if (!caller.profile) throw fixedError(403, 'This access token is bound to no profile');
    const row = await this.db.selectFrom('profiles').select('id').where('uuid', '=', caller.profile.uuid).executeTakeFirst();
    if (!row) throw fixedError(403, 'This access token is bound to no profile');
    return row.id;
  }
}
