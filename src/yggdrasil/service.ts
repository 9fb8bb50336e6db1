// The game login (contract section 9, authlib-injector's Yggdrasil server specification), HTTP-free: the routes
// parse and shape, this decides. Passwords go through the one credential check, accounts through the one standing
// rule, joins through the join records the launcher API shares.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Caller } from '../accounts/authenticate.ts';
import { normalizeUuid } from '../accounts/identifiers.ts';
import type { Credentials } from '../accounts/credentials.ts';
import { usernameKey } from '../accounts/rules.ts';
import { revokeGameSessions } from '../sessions/sessions.ts';
import { standingProblem, accountPerms, standingRefusal } from '../accounts/standing.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../database/schema.ts';
import { type ApiError, fixedError } from '../http/envelope.ts';
import { render } from '../i18n/i18n.ts';
import type { JoinRecords } from '../joins/join-records.ts';
import type { RateLimiter } from '../ratelimit/limiter.ts';
import type { OwnCapes } from '../textures/own-capes.ts';
import type { Wardrobe } from '../textures/wardrobe.ts';
import type { PlayerWearing, playerWearingLookups } from '../textures/worn.ts';
import { CERTIFICATES_PER_TOKEN, type PlayerCertificateKeys } from './certificates.ts';
import { invalidToken, refusedLogin } from './errors.ts';
import type { GameProfiles } from './profiles.ts';
import {
  profileRef,
  userUuid,
  type AuthenticateAnswer,
  type GameProfile,
  type GameUser,
  type PlayerCertificates,
  type ProfileActionType,
  type ProfileRef,
  type RefreshAnswer,
} from './shapes.ts';
import type { GameTokens, PlayingUser, UsableGameToken } from './tokens.ts';

export interface YggdrasilDeps {
  db: Kysely<Database>;
  clock: Clock;
  credentials: Credentials;
  tokens: GameTokens;
  profiles: GameProfiles;
  players: ReturnType<typeof playerWearingLookups>;
  joins: JoinRecords;
  wardrobe: Wardrobe;
  ownCapes: OwnCapes;
  certificates: PlayerCertificateKeys;
  limiter: RateLimiter;
  offlineSkins: boolean;
  /** Why the account may not join game servers now (a multiplayer ban, contract section 24), or null. */
  refuseJoin?: (userId: number, profileId: number) => Promise<ApiError | null>;
  /** The actions forced on a player's profile (contract section 24): carried in profileActions; a blocked skin left out. */
  profileActions?: (player: PlayerWearing) => Promise<ProfileActionType[]>;
  /** MOJANG_FALLBACK=auth: where players unknown here are looked for (contract section 20); null: nowhere. */
  fallThrough: FallThrough | null;
}

/** Players unknown here, answered by other account services (src/fallback); the answers are theirs, unchanged. */
export interface FallThrough {
  hasJoined(username: string, serverId: string, ip?: string): Promise<GameProfile | null>;
  profile(uuid: string, signed: boolean): Promise<GameProfile | null>;
  lookUpNames(names: string[]): Promise<ProfileRef[]>;
}

/** The user object launchers ask for with requestUser; the pages are in English for now. */
const gameUser = (userId: number): GameUser => ({ id: userUuid(userId), properties: [{ name: 'preferredLanguage', value: 'en' }] });

/** The game login is a way in for launchers that speak only the password login: app passwords work on it. */
const APP_PASSWORDS = { appPasswords: true };

export class YggdrasilService {
  constructor(private readonly deps: YggdrasilDeps) {}

  /**
   * Contract section 16: the token is bound when the account has one profile, or when the login was one of its
   * profile names (then that profile is the only one offered); a mail login of an account with several is unbound,
   * and the launcher binds it with refresh.
   */
  async authenticate(
    input: { username: string; password: string; clientToken?: string; requestUser?: boolean },
    clientAddress: string,
  ): Promise<AuthenticateAnswer> {
    // With two-factor login on, the code follows the password's last colon (password:123456); an app password
    // needs none.
    const { user, refusal, namedProfileId } = await this.deps.credentials.check(
      input.username,
      input.password,
      clientAddress,
      'after-colon',
      APP_PASSWORDS,
    );
    if (!user) throw refusedLogin(refusal);
    const player = await this.inGoodStanding(user);
    const owned = await this.profilesOf(player.id);
    const named = owned.find((profile) => profile.id === namedProfileId);
    const available = named ? [named] : owned;
    const bound = available.length === 1 ? available[0]! : null;
    const clientToken = input.clientToken ?? randomUUID().replace(/-/g, '');
    const accessToken = await this.deps.tokens.issue(this.deps.db, player.id, clientToken, bound);
    return {
      accessToken,
      clientToken,
      availableProfiles: available.map(profileRef),
      ...(bound ? { selectedProfile: profileRef(bound) } : {}),
      ...(input.requestUser ? { user: gameUser(player.id) } : {}),
    };
  }

  /**
   * A new token for a live one, also one only temporarily invalid after a rename; the old one stops working.
   * `selectedProfile` binds an unbound token to that profile of the account; a bound token accepts its own profile
   * again (launchers repeat it) and refuses any other.
   */
  async refresh(input: {
    accessToken: string;
    clientToken?: string;
    requestUser?: boolean;
    selectedProfile?: { id?: string; name?: string };
  }): Promise<RefreshAnswer> {
    const token = await this.deps.tokens.find(input.accessToken, input.clientToken);
    if (!token) throw invalidToken();
    // Contract section 18: a launcher renews it with its OAuth refresh token.
    if (token.oauth) throw fixedError(403, 'This token came from Yggdrasil Connect: refresh it with its OAuth refresh token.');
    const player = await this.inGoodStanding(token.user);
    const asked = input.selectedProfile;
    const askedUuid = asked?.id === undefined ? null : normalizeUuid(asked.id);
    let bound: { id: number; uuid: string; name: string } | null = token.profile;
    if (asked && bound && askedUuid !== bound.uuid) throw fixedError(400, 'Access token already has a profile assigned.');
    if (asked && !bound) {
      bound = (await this.profilesOf(player.id)).find((profile) => profile.uuid === askedUuid) ?? null;
      if (!bound) throw fixedError(403, "That profile is not this account's");
    }
    const accessToken = await this.deps.db.transaction().execute(async (trx) => {
      // Refreshes of one token at the same moment all found it live: only the one that revokes it gets a new token.
      if ((await this.deps.tokens.revoke(trx, [token.id])) === 0) throw invalidToken();
      return this.deps.tokens.issue(trx, player.id, token.clientToken, bound);
    });
    return {
      accessToken,
      clientToken: token.clientToken,
      ...(bound ? { selectedProfile: profileRef(bound) } : {}),
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
    const { user, refusal } = await this.deps.credentials.check(username, password, clientAddress, 'after-colon', APP_PASSWORDS);
    if (!user) throw refusedLogin(refusal);
    await revokeGameSessions(this.deps.db, user.id, this.deps.clock.now());
  }

  /** The client tells us it joins a game server; the server will ask hasJoined within seconds. */
  async join(input: { accessToken: string; selectedProfile: string; serverId: string }, clientAddress: string): Promise<void> {
    // A token bound to no profile, or to another one, joins as nobody.
    const { profile, user } = await this.validToken(input.accessToken);
    if (!profile || normalizeUuid(input.selectedProfile) !== profile.uuid) throw invalidToken();
    const refusal = await this.deps.refuseJoin?.(user.id, profile.id);
    if (refusal) throw refusal;
    await this.deps.joins.remember(profile.id, input.serverId, clientAddress);
  }

  /** The signed profile when the named player joined with this server id (and from `ip`, when given); else null. */
  async hasJoined(username: string, serverId: string, ip?: string): Promise<GameProfile | null> {
    const player = await this.deps.players.byUsernameKey(usernameKey(username));
    // A name that a profile here has is answered from here only, joined or not.
    if (!player) return (await this.deps.fallThrough?.hasJoined(username, serverId, ip)) ?? null;
    if (standingProblem({ ...player.standing, level: accountPerms(player.standing, this.deps.clock.now()) }) !== null) return null;
    if (!(await this.deps.joins.joined(player.profileId, serverId, ip))) return null;
    // A join remembered before a ban began does not let the player in after it.
    if (await this.deps.refuseJoin?.(player.userId, player.profileId)) return null;
    return this.deps.profiles.profile(player, { signed: true, actions: await this.actionsOf(player) });
  }

  /**
   * A profile by UUID; with OFFLINE_SKINS, also by the offline-mode UUID of a registered name, answered under the
   * UUID asked for (what an offline-mode server knows the player by).
   */
  async profile(uuid: string, signed: boolean): Promise<GameProfile | null> {
    const id = normalizeUuid(uuid);
    if (!id) return null;
    const player = await this.deps.players.byUuid(id);
    if (player) return this.deps.profiles.profile(player, { signed, actions: await this.actionsOf(player) });
    const offline = this.deps.offlineSkins ? await this.deps.players.byOfflineUuid(id) : null;
    if (offline) return this.deps.profiles.profile(offline, { signed, id, actions: await this.actionsOf(offline) });
    return (await this.deps.fallThrough?.profile(id, signed)) ?? null;
  }

  /**
   * PUT api/user/profile/{uuid}/{texture}, before its body is read: refuses a token of another profile, and a cape
   * unless players upload their own (USER_CAPES; otherwise capes come from admins, never from a launcher).
   */
  checkUpload(caller: Caller, profileId: string, texture: 'skin' | 'cape'): void {
    this.ownProfile(caller, profileId);
    if (texture === 'cape' && !this.deps.ownCapes.enabled)
      throw fixedError(403, 'Capes are given by the administrators; a launcher cannot upload one');
  }

  /** PUT api/user/profile/{uuid}/{texture}, once checkUpload let it through: the texture enters the wardrobe and is worn. */
  async uploadTexture(caller: Caller, texture: 'skin' | 'cape', png: Buffer, slim: boolean): Promise<void> {
    const wear = caller.profile!.uuid;
    if (texture === 'cape') await this.deps.ownCapes.upload(caller, { png, name: 'From the launcher', wear });
    else await this.deps.wardrobe.uploadSkin(caller, { png, slim, name: 'From the launcher', wear });
  }

  async takeOff(caller: Caller, profileId: string, texture: 'skin' | 'cape'): Promise<void> {
    this.ownProfile(caller, profileId);
    await this.deps.wardrobe.takeOff(caller, caller.profile!.uuid, texture);
  }

  async certificates(caller: Caller): Promise<PlayerCertificates> {
    // A key pair is a profile's: a token bound to none has none.
    if (!caller.profile) throw fixedError(403, 'This access token is bound to no profile');
    await this.deps.limiter.take(CERTIFICATES_PER_TOKEN, String(caller.session.id));
    return this.deps.certificates.forProfile(caller.user.id, caller.profile.uuid);
  }

  async legacySkin(name: string): Promise<PlayerWearing | null> {
    return this.deps.players.byUsernameKey(usernameKey(name));
  }

  /** A live token whose account may play and whose player name is still the one it was issued for. */
  private async validToken(accessToken: string, clientToken?: string): Promise<UsableGameToken> {
    const token = await this.deps.tokens.usable(accessToken, clientToken);
    if (!token) throw invalidToken();
    return token;
  }

  /** Nobody changes another player's textures: the token's profile must be the one in the path. */
  private ownProfile(caller: Caller, profileId: string): void {
    if (normalizeUuid(profileId) !== caller.profile?.uuid) throw fixedError(403, "This access token is not this profile's");
  }

  /** The actions forced on the player's profile (none when no service for them was given). */
  private async actionsOf(player: PlayerWearing): Promise<ProfileActionType[]> {
    return (await this.deps.profileActions?.(player)) ?? [];
  }

  /** The account's profiles in creation order. */
  private profilesOf(userId: number) {
    return this.deps.db.selectFrom('profiles').select(['id', 'uuid', 'name']).where('user_id', '=', userId).orderBy('id').execute();
  }

  /** Banned, unverified and unfinished accounts may not play: 403 saying why. */
  private async inGoodStanding(user: Caller['user']): Promise<PlayingUser> {
    const now = this.deps.clock.now();
    const problem = standingProblem({ ...user, level: accountPerms(user, now) });
    if (problem) throw fixedError(403, render('en', await standingRefusal(this.deps.db, user, problem, now)));
    return user as PlayingUser;
  }
}
