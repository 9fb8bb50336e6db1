// The game's friends (contract section 25, Minecraft 26.2+; research wire-shapes-26 §5): a profile sends another a
// request by name or UUID, the other accepts it by sending one back (ADD) or declines it (REMOVE); either removes a
// friend. Kept per game profile, in one row per pair (migration 033). The game's own error names (UNKNOWN_PROFILE,
// CANNOT_ADD_SELF, ALREADY_FRIENDS, NOT_FRIENDS, INVITE_REJECTED) ride in Mojang's services shape; the web's routes
// answer the same refusals in the envelope, in the page's language.
import type { Kysely } from 'kysely';
import { normalizeUuid } from '../accounts/identifiers.ts';
import { usernameKey } from '../accounts/rules.ts';
import type { ActingAccount } from '../audit/acting.ts';
import type { Clock } from '../clock.ts';
import { isUniqueViolation } from '../database/dialect.ts';
import type { Database, Executor } from '../database/schema.ts';
import { message } from '../http/envelope.ts';
import { ServicesError } from '../mojang/errors.ts';

import type { FriendProfile } from './shapes.ts';

export type { FriendProfile } from './shapes.ts';

export interface FriendLists {
  friends: FriendProfile[];
  incoming: FriendProfile[];
  outgoing: FriendProfile[];
}

/** The profile acting in the friends list: a game token's, or one of the web caller's own. */
export interface OwnProfile {
  id: number;
  uuid: string;
  name: string;
  userId: number;
}

/** What the game may switch (friendsPreferences): the friends screen itself, and whether others may send requests. */
export interface FriendPreferences {
  friends: 'ENABLED' | 'DISABLED';
  acceptInvites: 'ENABLED' | 'DISABLED';
}

export const DEFAULT_FRIEND_PREFERENCES: FriendPreferences = { friends: 'ENABLED', acceptInvites: 'ENABLED' };

/** Friends and requests sent still waiting, per profile: the game's list stays small, a sender cannot flood others. */
export const MAX_FRIENDS = 500;
export const MAX_OUTGOING_REQUESTS = 100;

export type FriendProblem = 'UNKNOWN_PROFILE' | 'CANNOT_ADD_SELF' | 'ALREADY_FRIENDS' | 'NOT_FRIENDS' | 'INVITE_REJECTED' | 'LIMIT_REACHED';

/** A refusal with the game's name for it (details.status) and words for the web's page. */
function refusal(problem: FriendProblem, key: string, params?: Record<string, string | number>): ServicesError {
  const status = problem === 'INVITE_REJECTED' ? 403 : 400;
  return new ServicesError(status, problem, message(`friends.${key}`, params), { status: problem });
}

/** Who the request names: a profile UUID (dashed or not) or a player name. */
export type FriendTarget = { profileId: string } | { name: string };

export class Friends {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /** The profile the UUID names when it belongs to the acting account; null otherwise (another's, unknown). */
  async ownProfile(acting: ActingAccount, uuid: string): Promise<OwnProfile | null> {
    const normalized = normalizeUuid(uuid);
    if (!normalized) return null;
    const row = await this.db
      .selectFrom('profiles')
      .select(['id', 'uuid', 'name', 'user_id'])
      .where('uuid', '=', normalized)
      .where('user_id', '=', acting.accountId)
      .executeTakeFirst();
    return row ? { id: row.id, uuid: row.uuid, name: row.name, userId: row.user_id } : null;
  }

  /** Every profile of the acting account, the primary first (the web's friends card shows each). */
  async ownProfiles(acting: ActingAccount): Promise<OwnProfile[]> {
    const rows = await this.db
      .selectFrom('profiles')
      .select(['id', 'uuid', 'name', 'user_id'])
      .where('user_id', '=', acting.accountId)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({ id: row.id, uuid: row.uuid, name: row.name, userId: row.user_id }));
  }

  /** The profile's friends, the requests others sent it and the requests it sent, each in the order they began. */
  async lists(profile: OwnProfile, db: Executor = this.db): Promise<FriendLists> {
    const rows = await db
      .selectFrom('friendships')
      .innerJoin('profiles', (join) =>
        join.on((eb) =>
          eb.or([
            eb.and([eb('friendships.low_profile_id', '=', profile.id), eb('profiles.id', '=', eb.ref('friendships.high_profile_id'))]),
            eb.and([eb('friendships.high_profile_id', '=', profile.id), eb('profiles.id', '=', eb.ref('friendships.low_profile_id'))]),
          ]),
        ),
      )
      .select(['profiles.uuid', 'profiles.name', 'friendships.requester_profile_id', 'friendships.accepted_at'])
      .where((eb) => eb.or([eb('friendships.low_profile_id', '=', profile.id), eb('friendships.high_profile_id', '=', profile.id)]))
      .orderBy('friendships.created_at')
      .orderBy('profiles.id')
      .execute();
    const lists: FriendLists = { friends: [], incoming: [], outgoing: [] };
    for (const row of rows) {
      const entry = { uuid: row.uuid, name: row.name };
      if (row.accepted_at !== null) lists.friends.push(entry);
      else if (row.requester_profile_id === profile.id) lists.outgoing.push(entry);
      else lists.incoming.push(entry);
    }
    return lists;
  }

  /** The UUIDs of the profile's accepted friends (who may see its presence, and whose presence it sees). */
  async friendUuids(profile: OwnProfile): Promise<string[]> {
    return (await this.lists(profile)).friends.map((friend) => friend.uuid);
  }

  /**
   * ADD: accepts the target's request when there is one, else sends the target a request. Refused (and nothing
   * changed): an unknown profile, one's own profiles, friends already or a request already sent, a target who takes
   * no requests (its preferences, or its account blocked this profile), and past the limits.
   */
  async add(_acting: ActingAccount, profile: OwnProfile, target: FriendTarget): Promise<FriendLists> {
    const other = await this.targetOf(target);
    if (other.user_id === profile.userId) throw refusal('CANNOT_ADD_SELF', 'self');
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.db.transaction().execute(async (trx) => {
          const pair = await this.pairOf(trx, profile.id, other.id);
          if (pair?.accepted_at != null) throw refusal('ALREADY_FRIENDS', 'alreadyFriends', { name: other.name });
          if (pair && pair.requester_profile_id === profile.id) throw refusal('ALREADY_FRIENDS', 'alreadyAsked', { name: other.name });
          const counts = await this.countsOf(trx, profile.id);
          if (counts.friends >= MAX_FRIENDS) throw refusal('LIMIT_REACHED', 'tooManyFriends', { max: MAX_FRIENDS });
          if (pair) {
            // The other side asked: this accepts.
            await this.wherePair(trx.updateTable('friendships').set({ accepted_at: this.clock.now() }), profile.id, other.id).execute();
            return this.lists(profile, trx);
          }
          if (counts.outgoing >= MAX_OUTGOING_REQUESTS) throw refusal('LIMIT_REACHED', 'tooManyRequests', { max: MAX_OUTGOING_REQUESTS });
          if (!(await this.takesRequests(trx, other.id, other.user_id, profile.id)))
            throw refusal('INVITE_REJECTED', 'rejected', { name: other.name });
          const [low, high] = profile.id < other.id ? [profile.id, other.id] : [other.id, profile.id];
          await trx
            .insertInto('friendships')
            .values({
              low_profile_id: low,
              high_profile_id: high,
              requester_profile_id: profile.id,
              created_at: this.clock.now(),
              accepted_at: null,
            })
            .execute();
          return this.lists(profile, trx);
        });
      } catch (error) {
        // The other side sent its request at the same moment: once more, which now accepts it.
        if (attempt === 0 && isUniqueViolation(error)) continue;
        throw error;
      }
    }
  }

  /** REMOVE: ends a friendship, declines a request received or takes back one sent; NOT_FRIENDS when there is none. */
  async remove(_acting: ActingAccount, profile: OwnProfile, target: FriendTarget): Promise<FriendLists> {
    const other = await this.targetOf(target);
    const removed = await this.wherePair(this.db.deleteFrom('friendships'), profile.id, other.id).executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) throw refusal('NOT_FRIENDS', 'notFriends', { name: other.name });
    return this.lists(profile);
  }

  /** The profile's friends preferences, the defaults when the game never changed them. */
  async preferences(profileId: number): Promise<FriendPreferences> {
    const row = await this.db
      .selectFrom('friend_preferences')
      .select(['friends', 'accept_invites'])
      .where('profile_id', '=', profileId)
      .executeTakeFirst();
    if (!row) return { ...DEFAULT_FRIEND_PREFERENCES };
    return { friends: toggle(row.friends), acceptInvites: toggle(row.accept_invites) };
  }

  /** Saves what the game changed of them (either or both). */
  async savePreferences(profileId: number, changes: Partial<FriendPreferences>): Promise<void> {
    if (changes.friends === undefined && changes.acceptInvites === undefined) return;
    const next = { ...(await this.preferences(profileId)), ...changes };
    const values = { friends: next.friends === 'ENABLED' ? 1 : 0, accept_invites: next.acceptInvites === 'ENABLED' ? 1 : 0 };
    await this.db
      .insertInto('friend_preferences')
      .values({ profile_id: profileId, ...values })
      .onConflict((conflict) => conflict.column('profile_id').doUpdateSet(values))
      .execute();
  }

  private async targetOf(target: FriendTarget) {
    const query = this.db.selectFrom('profiles').select(['id', 'uuid', 'name', 'user_id']);
    let row;
    if ('profileId' in target) {
      const uuid = normalizeUuid(target.profileId);
      row = uuid ? await query.where('uuid', '=', uuid).executeTakeFirst() : undefined;
      if (!row) throw refusal('UNKNOWN_PROFILE', 'unknownProfile', { id: target.profileId.slice(0, 64) });
    } else {
      const name = target.name.trim();
      row = name && name.length <= 64 ? await query.where('name_key', '=', usernameKey(name)).executeTakeFirst() : undefined;
      if (!row) throw refusal('UNKNOWN_PROFILE', 'unknownName', { name: name.slice(0, 64) });
    }
    return row;
  }

  private pairOf(db: Executor, a: number, b: number) {
    return this.wherePair(db.selectFrom('friendships').select(['requester_profile_id', 'accepted_at']), a, b).executeTakeFirst();
  }

  private wherePair<Q extends { where: (...args: any[]) => any }>(query: Q, a: number, b: number): Q {
    const [low, high] = a < b ? [a, b] : [b, a];
    return query.where('low_profile_id', '=', low).where('high_profile_id', '=', high) as Q;
  }

  private async countsOf(db: Executor, profileId: number) {
    const rows = await db
      .selectFrom('friendships')
      .select(['requester_profile_id', 'accepted_at'])
      .where((eb) => eb.or([eb('low_profile_id', '=', profileId), eb('high_profile_id', '=', profileId)]))
      .execute();
    return {
      friends: rows.filter((row) => row.accepted_at !== null).length,
      outgoing: rows.filter((row) => row.accepted_at === null && row.requester_profile_id === profileId).length,
    };
  }

  /** Whether the target takes a request from this profile: its preferences allow it and its account did not block it. */
  private async takesRequests(db: Executor, targetId: number, targetUserId: number, fromProfileId: number): Promise<boolean> {
    const [preferences, block] = await Promise.all([
      db.selectFrom('friend_preferences').select(['friends', 'accept_invites']).where('profile_id', '=', targetId).executeTakeFirst(),
      db
        .selectFrom('player_blocks')
        .select('profile_id')
        .where('user_id', '=', targetUserId)
        .where('profile_id', '=', fromProfileId)
        .executeTakeFirst(),
    ]);
    if (block) return false;
    return !preferences || (preferences.friends === 1 && preferences.accept_invites === 1);
  }
}

const toggle = (value: number): 'ENABLED' | 'DISABLED' => (value === 1 ? 'ENABLED' : 'DISABLED');
