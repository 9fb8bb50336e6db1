// The game login (contract section 9, authlib-injector's Yggdrasil server specification), HTTP-free: the routes
// parse and shape, this decides. Passwords go through the one credential check, accounts through the one standing
// rule, joins through the join records the launcher API shares.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { normalizeUuid } from '../accounts/identifiers.ts';
import type { Credentials } from '../accounts/credentials.ts';
import { usernameKey } from '../accounts/rules.ts';
import { revokeGameTokens } from '../accounts/service.ts';
import { STANDING_MESSAGES, standingProblem } from '../accounts/standing.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../database/schema.ts';
import { ApiError, fixedError } from '../http/envelope.ts';
import { t } from '../i18n/i18n.ts';
import { bearerToken } from '../http/secrets.ts';
import type { JoinRecords } from '../joins/join-records.ts';
import type { ServiceKey } from '../signing/service-key.ts';
import type { Wardrobe } from '../textures/wardrobe.ts';
import type { PlayerWearing, playerWearingLookups } from '../textures/worn.ts';
import { playerCertificates } from './certificates.ts';
import { invalidToken, refusedLogin } from './errors.ts';
import type { GameProfiles } from './profiles.ts';
import {
  unsignedUuid,
  userUuid,
  type AuthenticateAnswer,
  type GameProfile,
  type GameUser,
  type PlayerCertificates,
  type ProfileRef,
  type RefreshAnswer,
} from './shapes.ts';
import type { GameTokens, LiveGameToken, TokenHolder } from './tokens.ts';

/** Mojang caps a name lookup at 10; the contract allows 100. */
export const MAX_NAMES_PER_LOOKUP = 100;

export interface YggdrasilDeps {
  db: Kysely<Database>;
  clock: Clock;
  credentials: Credentials;
  tokens: GameTokens;
  profiles: GameProfiles;
  players: ReturnType<typeof playerWearingLookups>;
  joins: JoinRecords;
  wardrobe: Wardrobe;
  serviceKey: () => Promise<ServiceKey>;
  offlineSkins: boolean;
}

type FinishedHolder = TokenHolder & { uuid: string; username: string };

const profileOf = (user: FinishedHolder): ProfileRef => ({ id: unsignedUuid(user.uuid), name: user.username });

/** The user object launchers ask for with requestUser; the pages are in English for now. */
const gameUser = (userId: number): GameUser => ({ id: userUuid(userId), properties: [{ name: 'preferredLanguage', value: 'en' }] });

export class YggdrasilService {
  constructor(private readonly deps: YggdrasilDeps) {}

  async authenticate(
    input: { username: string; password: string; clientToken?: string; requestUser?: boolean },
    clientAddress: string,
  ): Promise<AuthenticateAnswer> {
    // With two-factor login on, the code follows the password's last colon (password:123456).
    const { user, refusal } = await this.deps.credentials.check(input.username, input.password, clientAddress, 'after-colon');
    if (!user) throw refusedLogin(refusal);
    const player = this.inGoodStanding(user);
    const clientToken = input.clientToken ?? randomUUID().replace(/-/g, '');
    const accessToken = await this.deps.tokens.issue(this.deps.db, player.id, clientToken, player.username);
    const profile = profileOf(player);
    return {
      accessToken,
      clientToken,
      availableProfiles: [profile],
      selectedProfile: profile,
      ...(input.requestUser ? { user: gameUser(player.id) } : {}),
    };
  }

  /** A new token for a live one, also one only temporarily invalid after a rename; the old one stops working. */
  async refresh(input: {
    accessToken: string;
    clientToken?: string;
    requestUser?: boolean;
    selectedProfile?: { id?: string; name?: string };
  }): Promise<RefreshAnswer> {
    const token = await this.deps.tokens.find(input.accessToken, input.clientToken);
    if (!token) throw invalidToken();
    const player = this.inGoodStanding(token.user);
    // Every token here is bound to the account's one profile at authenticate: naming another profile is the
    // specification's "already has a profile assigned"; naming the same one is accepted.
    const asked = input.selectedProfile;
    if (asked && (asked.id === undefined || normalizeUuid(asked.id) !== player.uuid)) {
      throw fixedError(400, 'Access token already has a profile assigned.');
    }
    const accessToken = await this.deps.db.transaction().execute(async (trx) => {
      // Refreshes of one token at the same moment all found it live: only the one that revokes it gets a new token.
      if ((await this.deps.tokens.revoke(trx, [token.id])) === 0) throw invalidToken();
      return this.deps.tokens.issue(trx, player.id, token.clientToken, player.username);
    });
    return {
      accessToken,
      clientToken: token.clientToken,
      selectedProfile: profileOf(player),
      ...(input.requestUser ? { user: gameUser(player.id) } : {}),
    };
  }

  async validate(accessToken: string, clientToken?: string): Promise<void> {
    await this.validToken(accessToken, clientToken);
  }

  /** Always succeeds, whether or not the token existed (the specification's answer). */
  async invalidate(accessToken: string): Promise<void> {
    const token = await this.deps.tokens.find(accessToken);
    if (token) await this.deps.tokens.revoke(this.deps.db, [token.id]);
  }

  async signout(username: string, password: string, clientAddress: string): Promise<void> {
    const { user, refusal } = await this.deps.credentials.check(username, password, clientAddress, 'after-colon');
    if (!user) throw refusedLogin(refusal);
    await revokeGameTokens(this.deps.db, user.id, this.deps.clock.now());
  }

  /** The client tells us it joins a game server; the server will ask hasJoined within seconds. */
  async join(input: { accessToken: string; selectedProfile: string; serverId: string }, clientAddress: string): Promise<void> {
    const { player } = await this.validToken(input.accessToken);
    if (normalizeUuid(input.selectedProfile) !== player.uuid) throw invalidToken();
    await this.deps.joins.remember(player.id, input.serverId, clientAddress);
  }

  /** The signed profile when the named player joined with this server id (and from `ip`, when given); else null. */
  async hasJoined(username: string, serverId: string, ip?: string): Promise<GameProfile | null> {
    const player = await this.deps.players.byUsernameKey(usernameKey(username));
    if (!player || standingProblem(player.standing) !== null) return null;
    if (!(await this.deps.joins.joined(player.userId, serverId, ip))) return null;
    return this.deps.profiles.profile(player, { signed: true });
  }

  /**
   * A profile by UUID; with OFFLINE_SKINS, also by the offline-mode UUID of a registered name, answered under the
   * UUID asked for (what an offline-mode server knows the player by).
   */
  async profile(uuid: string, signed: boolean): Promise<GameProfile | null> {
    const id = normalizeUuid(uuid);
    if (!id) return null;
    const player = await this.deps.players.byUuid(id);
    if (player) return this.deps.profiles.profile(player, { signed });
    const offline = this.deps.offlineSkins ? await this.deps.players.byOfflineUuid(id) : null;
    return offline ? this.deps.profiles.profile(offline, { signed, id }) : null;
  }

  /** Names to profiles, without regard to letter case; unknown names are left out. */
  async lookUpNames(names: string[]): Promise<ProfileRef[]> {
    if (names.length > MAX_NAMES_PER_LOOKUP) throw fixedError(400, `At most ${MAX_NAMES_PER_LOOKUP} names per lookup`);
    const keys = [...new Set(names.map(usernameKey))];
    if (keys.length === 0) return [];
    const rows = await this.deps.db
      .selectFrom('users')
      .select(['uuid', 'username'])
      .where('username_key', 'in', keys)
      .where('uuid', 'is not', null)
      .execute();
    return rows.map((row) => ({ id: unsignedUuid(row.uuid!), name: row.username! }));
  }

  /** PUT api/user/profile/{uuid}/skin: the skin enters the player's wardrobe and is worn. */
  async uploadSkin(bearer: string | undefined, profileId: string, png: Buffer, slim: boolean): Promise<void> {
    const player = await this.ownProfile(bearer, profileId);
    await this.deps.wardrobe.uploadSkin(player, { png, slim, name: 'From the launcher', wear: true });
  }

  async takeOff(bearer: string | undefined, profileId: string, texture: 'skin' | 'cape'): Promise<void> {
    const player = await this.ownProfile(bearer, profileId);
    await this.deps.wardrobe.takeOff(player, texture);
  }

  /** PUT api/user/profile/{uuid}/cape: capes come from admins, never from a launcher. */
  async refuseCapeUpload(bearer: string | undefined, profileId: string): Promise<never> {
    await this.ownProfile(bearer, profileId);
    throw fixedError(403, 'Capes are given by the administrators; a launcher cannot upload one');
  }

  async certificates(bearer: string | undefined): Promise<PlayerCertificates> {
    const { player } = await this.bearerTokenOf(bearer);
    return playerCertificates(await this.deps.serviceKey(), player.uuid, this.deps.clock.now());
  }

  async legacySkin(name: string): Promise<PlayerWearing | null> {
    return this.deps.players.byUsernameKey(usernameKey(name));
  }

  /** A live token whose account may play and whose player name is still the one it was issued for. */
  private async validToken(accessToken: string, clientToken?: string): Promise<{ token: LiveGameToken; player: FinishedHolder }> {
    const token = await this.deps.tokens.find(accessToken, clientToken);
    if (!token || standingProblem({ ...token.user, level: token.user.perms }) !== null) throw invalidToken();
    const player = token.user as FinishedHolder;
    if (player.username !== token.profileName) throw invalidToken();
    return { token, player };
  }

  /** The Bearer token of api/user and minecraftservices calls: 401 without a valid one. */
  private async bearerTokenOf(header: string | undefined) {
    const token = bearerToken(header);
    if (!token) throw fixedError(401, 'Send the header Authorization: Bearer <access token>');
    try {
      return await this.validToken(token);
    } catch (error) {
      if (error instanceof ApiError) throw fixedError(401, 'The access token is invalid, expired or revoked; log in again');
      throw error;
    }
  }

  /** Nobody changes another player's textures: the token's profile must be the one in the path. */
  private async ownProfile(bearer: string | undefined, profileId: string): Promise<FinishedHolder> {
    const { player } = await this.bearerTokenOf(bearer);
    if (normalizeUuid(profileId) !== player.uuid) throw fixedError(403, "This access token is not this profile's");
    return player;
  }

  /** Banned, unverified and unfinished accounts may not play: 403 saying why. */
  private inGoodStanding(user: TokenHolder): FinishedHolder {
    const problem = standingProblem({ ...user, level: user.perms });
    if (problem) throw fixedError(403, t('en', STANDING_MESSAGES[problem]));
    return user as FinishedHolder;
  }
}
