// The GravitLauncher API (contract section 10), HTTP-free: the routes parse and shape, this decides. Passwords go
// through the one credential check, accounts through the one standing rule, joins through the join records the game
// login shares, hardware through the store that audits every change.
import type { Kysely } from 'kysely';
import type { Credentials } from '../accounts/credentials.ts';
import { normalizeUuid } from '../accounts/identifiers.ts';
import { usernameKey } from '../accounts/rules.ts';
import { effectiveLevel, LEVELS, STANDING_MESSAGES, standingProblem, accountPerms } from '../accounts/standing.ts';
import type { Clock } from '../clock.ts';
import type { Database, UserRow } from '../database/schema.ts';
import { fixedError } from '../http/envelope.ts';
import { t } from '../i18n/i18n.ts';
import type { LauncherDocument } from '../http/shapes/launcher-document.ts';
import type { JoinRecords } from '../joins/join-records.ts';
import { levelNameOf } from '../shared/levels.ts';
import { expiredToken, invalidRefreshToken, invalidToken, require2fa, userBlocked, wrongPassword, wrongTotp } from './errors.ts';
import { factsOf, type HardwareStore, LAUNCHSERVER, type StoredHardware, userHardwareOf } from './hardware.ts';
import type { LauncherSessions } from '../sessions/launcher.ts';
import type { GravitUser, HardwareInfo, UserHardware, UserSession } from './shapes.ts';

export interface GravitDeps {
  db: Kysely<Database>;
  clock: Clock;
  credentials: Credentials;
  sessions: LauncherSessions;
  hardware: HardwareStore;
  joins: JoinRecords;
  /** The launcher document of a player (ImageService.launcherDocument): the User's `assets`. */
  assetsOf: (uuid: string) => Promise<LauncherDocument>;
}

/** The account columns the standing rule reads, with the role grant that may raise the level. */
type Account = Pick<UserRow, 'id' | 'username' | 'uuid' | 'perms' | 'banned_until' | 'mail_verify' | 'mail_verification'> & {
  grant_level: number | null;
  grant_expires_at: number | null;
};

/**
 * A game profile (contract section 16) with its account: a User describes the profile (its name, UUID and
 * textures), its standing and level are the account's.
 */
type Player = Account & { profile_id: number; profile_name: string; profile_name_key: string; profile_uuid: string };

/** A hardware record named in a call: the UserHardware the LaunchServer got before (its id is what counts). */
export interface HardwareRef {
  id: string;
}

export interface JoinRequest {
  accessToken: string;
  serverId: string;
  username?: string;
  uuid?: string;
}

const ACCOUNT_COLUMNS = [
  'users.id',
  'users.username',
  'users.uuid',
  'users.perms',
  'users.mail_verify',
  'users.mail_verification',
  'users.banned_until',
  'role_grants.role_level as grant_level',
  'role_grants.expires_at as grant_expires_at',
] as const;

const NOT_JOINED = 'The player has not joined this server: no join with this server id in the last 30 seconds';
const levelName = (level: number) => levelNameOf(level) ?? 'player';

export class GravitService {
  constructor(private readonly deps: GravitDeps) {}

  /**
   * The launcher's login: a new launcher session. With two-factor login on, `totpCode` is needed too: without it
   * auth.require2fa (the launcher then asks the player for the code and sends it again), a wrong one auth.wrongtotp.
   */
  async authorize(login: string, password: string, totpCode?: string): Promise<UserSession> {
    // A profile name logs that profile in, the mail address the primary profile (contract section 16). The
    // LaunchServer relays the login without the player's address; it limits addresses itself (its AuthLimiter).
    // An app password (contract section 18) logs in without the code.
    const { user, refusal, namedProfileId } = await this.deps.credentials.check(
      login,
      password,
      null,
      { code: totpCode },
      { appPasswords: true },
    );
    if (refusal === 'code-required') throw require2fa();
    // A code already used is a wrong code to the launcher, which knows auth.wrongtotp only.
    if (refusal === 'code-wrong' || refusal === 'code-used') throw wrongTotp();
    if (!user) throw wrongPassword();
    const account = await this.account(user.id);
    if (!account) throw wrongPassword();
    this.mayPlay(account);
    const profile = namedProfileId === undefined ? await this.player('primary', user.id) : await this.player('id', namedProfileId);
    // A profile deleted (or moved) during the login: as if the name were wrong.
    if (!profile || profile.id !== user.id) throw wrongPassword();
    return this.userSession(await this.deps.sessions.issue(user.id, profile.profile_id), this.mayPlay(profile));
  }

  /** The session of a live access token; 1001 when only its life is over (the launcher then refreshes), else 1000. */
  async sessionByToken(accessToken: string): Promise<UserSession> {
    const session = await this.deps.sessions.byAccessToken(accessToken);
    const player = session && (await this.playerOf(session));
    if (!session || !player || this.standingProblemOf(player) !== null) throw invalidToken();
    if (session.accessExpiresAt <= this.deps.clock.now()) throw expiredToken();
    return this.userSession({ ...session, accessToken }, player);
  }

  /** A new token pair for the session; the old pair stops working at once. */
  async refresh(refreshToken: string): Promise<UserSession> {
    const session = await this.deps.sessions.rotate(refreshToken);
    const player = session && (await this.playerOf(session));
    if (!session || !player || this.standingProblemOf(player) !== null) throw invalidRefreshToken();
    return this.userSession(session, player);
  }

  /** Any profile by its name, without regard to case. */
  async userByUsername(username: string): Promise<GravitUser> {
    const player = await this.player('name_key', usernameKey(username));
    if (!player) throw fixedError(404, `No player is named ${username}`);
    return this.userOf(player);
  }

  /** Any profile by its UUID. */
  async userByUuid(uuid: string): Promise<GravitUser> {
    const id = normalizeUuid(uuid);
    if (!id) throw fixedError(400, 'query parameter "uuid" must be a UUID');
    const player = await this.player('uuid', id);
    if (!player) throw fixedError(404, `No player has the UUID ${id}`);
    return this.userOf(player);
  }

  /**
   * The game joins a server with the launcher's access token: recorded for checkServer. A token past its life still
   * joins (the game keeps it for its whole run); a revoked or ended session does not.
   */
  async joinServer(request: JoinRequest): Promise<void> {
    if (request.username === undefined && request.uuid === undefined) {
      throw fixedError(400, 'Send the player as "username" or "uuid" (or both)');
    }
    const session = await this.deps.sessions.byAccessToken(request.accessToken);
    const found = session && (await this.playerOf(session));
    if (!found) throw invalidToken();
    // The session's profile joins: another profile of the same account is another player.
    const player = this.mayPlay(found);
    const otherName = request.username !== undefined && usernameKey(request.username) !== player.profile_name_key;
    const otherUuid = request.uuid !== undefined && normalizeUuid(request.uuid) !== player.profile_uuid;
    if (otherName || otherUuid) throw fixedError(403, 'This access token is another player’s');
    // The request comes from the LaunchServer, not from the player: there is no player address to record.
    await this.deps.joins.remember(player.profile_id, request.serverId, null);
  }

  /** The profile of that name, when its latest join (at most 30 seconds old) carried this server id. */
  async checkServer(username: string, serverId: string): Promise<GravitUser> {
    const player = await this.player('name_key', usernameKey(username));
    if (!player || this.standingProblemOf(player) !== null) throw fixedError(403, NOT_JOINED);
    if (!(await this.deps.joins.joined(player.profile_id, serverId))) throw fixedError(403, NOT_JOINED);
    return this.userOf(player);
  }

  /**
   * GravitLauncher's json password verifier: whether `password` is the password of the account whose stored hash
   * `encryptedPassword` is, and that account may play (so a ban holds for a LaunchServer reading the users table). With
   * two-factor login on, only `password:code` succeeds.
   */
  async verifyPassword(encryptedPassword: string, password: string): Promise<boolean> {
    const { user } = await this.deps.credentials.checkStoredHash(encryptedPassword, password);
    return user !== undefined && standingProblem({ ...user, level: accountPerms(user, this.deps.clock.now()) }) === null;
  }

  // ---- hardware ----

  async hardwareByKey(publicKey: string): Promise<UserHardware | null> {
    return this.presented(await this.deps.hardware.byPublicKey(Buffer.from(publicKey, 'base64url')));
  }

  async hardwareByData(info: Partial<HardwareInfo>): Promise<UserHardware | null> {
    return this.presented(await this.deps.hardware.byData(factsOf(info)));
  }

  async hardwareById(id: string): Promise<UserHardware | null> {
    return this.presented(await this.deps.hardware.byId(Number(id)));
  }

  async createHardware(info: Partial<HardwareInfo>, publicKey: string): Promise<UserHardware> {
    return userHardwareOf(await this.deps.hardware.create(LAUNCHSERVER, factsOf(info), Buffer.from(publicKey, 'base64url')));
  }

  /** Links the account of the session's player (by the UUID of its user: any of its profiles) to the hardware. */
  async connectHardware(ref: HardwareRef, playerUuid: string): Promise<void> {
    const hardware = await this.mustHardware(ref);
    const uuid = normalizeUuid(playerUuid);
    const player = uuid && (await this.player('uuid', uuid));
    if (!player) throw fixedError(404, `No player has the UUID ${playerUuid}`);
    await this.deps.hardware.connect(LAUNCHSERVER, hardware.id, player.id);
  }

  async addPublicKey(ref: HardwareRef, publicKey: string): Promise<void> {
    const hardware = await this.mustHardware(ref);
    await this.deps.hardware.addPublicKey(LAUNCHSERVER, hardware.id, Buffer.from(publicKey, 'base64url'));
  }

  async setHardwareBanned(ref: HardwareRef, banned: boolean): Promise<void> {
    const hardware = await this.mustHardware(ref);
    await this.deps.hardware.setBanned(LAUNCHSERVER, hardware.id, banned);
  }

  /** The accounts that used the hardware (hardware is linked to accounts), each as its primary profile. */
  async hardwareUsers(ref: HardwareRef): Promise<GravitUser[]> {
    const hardware = await this.mustHardware(ref);
    const users: GravitUser[] = [];
    for (const userId of await this.deps.hardware.userIds(hardware.id)) {
      const player = await this.player('primary', userId);
      if (player) users.push(await this.userOf(player));
    }
    return users;
  }

  private presented(hardware: StoredHardware | null): UserHardware | null {
    return hardware && userHardwareOf(hardware);
  }

  private async mustHardware(ref: HardwareRef): Promise<StoredHardware> {
    const hardware = await this.deps.hardware.byId(Number(ref.id));
    if (!hardware) throw fixedError(404, `No hardware ${ref.id}`);
    return hardware;
  }

  // ---- accounts ----

  /** The account with its role grant (the level a role raises). */
  private account(userId: number): Promise<Account | undefined> {
    return this.deps.db
      .selectFrom('users')
      .leftJoin('role_grants', 'role_grants.user_id', 'users.id')
      .select(ACCOUNT_COLUMNS)
      .where('users.id', '=', userId)
      .executeTakeFirst();
  }

  /**
   * A game profile with its account and role grant: by the profile's id, UUID or name key, or an account's primary
   * profile (the one whose UUID is the account's) by the account id.
   */
  private player(by: 'id' | 'uuid' | 'name_key' | 'primary', value: number | string): Promise<Player | undefined> {
    const query = this.deps.db
      .selectFrom('profiles')
      .innerJoin('users', 'users.id', 'profiles.user_id')
      .leftJoin('role_grants', 'role_grants.user_id', 'users.id')
      .select([
        ...ACCOUNT_COLUMNS,
        'profiles.id as profile_id',
        'profiles.name as profile_name',
        'profiles.name_key as profile_name_key',
        'profiles.uuid as profile_uuid',
      ]);
    if (by === 'primary')
      return query
        .where('users.id', '=', value as number)
        .whereRef('profiles.uuid', '=', 'users.uuid')
        .executeTakeFirst();
    return query.where(`profiles.${by}`, '=', value).executeTakeFirst();
  }

  /** The profile a launcher session logged in, while it is still that account's (a session from before profiles: the primary one). */
  private async playerOf(session: { userId: number; profileId: number | null }): Promise<Player | undefined> {
    const player = session.profileId === null ? await this.player('primary', session.userId) : await this.player('id', session.profileId);
    return player?.id === session.userId ? player : undefined;
  }

  private level(account: Account): number {
    const grant = account.grant_level === null ? null : { role_level: account.grant_level, expires_at: account.grant_expires_at };
    return effectiveLevel(accountPerms(account, this.deps.clock.now()), grant, this.deps.clock.now());
  }

  private standingProblemOf(account: Account) {
    return standingProblem({ ...account, level: this.level(account) });
  }

  /** Banned, unverified and unfinished accounts may not play: banned is GravitLauncher's auth.userblocked. */
  private mayPlay<T extends Account>(account: T): T {
    const problem = this.standingProblemOf(account);
    if (problem === 'banned') throw userBlocked();
    if (problem) throw fixedError(403, t('en', STANDING_MESSAGES[problem]));
    return account;
  }

  /** The User of a profile: its name, UUID and textures, with its account's level. */
  private async userOf(player: Player): Promise<GravitUser> {
    const level = this.level(player);
    return {
      username: player.profile_name,
      uuid: player.profile_uuid,
      permissions: [],
      roles: [levelName(level)],
      assets: await this.deps.assetsOf(player.profile_uuid),
      banned: level === LEVELS.banned,
    };
  }

  private async userSession(
    session: { id: number; accessToken: string; refreshToken?: string; accessExpiresAt: number },
    player: Player,
  ): Promise<UserSession> {
    return {
      id: String(session.id),
      accessToken: session.accessToken,
      ...(session.refreshToken !== undefined ? { refreshToken: session.refreshToken } : {}),
      expire: Math.max(0, Math.ceil((session.accessExpiresAt - this.deps.clock.now()) / 1000)),
      user: await this.userOf(player),
    };
  }
}
