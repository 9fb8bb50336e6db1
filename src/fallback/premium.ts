// Premium links by a challenge skin (contract section 20; Drasl's "challenge skin", no Microsoft application): the
// player asks for a challenge for an account name at a source (Mojang, or a FALLBACK_SERVERS server), gets a token and
// a skin that carries, in a strip of pixels, a keyed hash of the name and the token; they wear that skin at the source
// and ask us to verify: we read that account's profile and skin from the source, uncached, and compare the strip. One
// linked account per source per account, one account here per linked account. With PREMIUM_RECLAIM a profile here
// holding the official name passes to the linking account; with PREMIUM_IMPORT registration's step 3 makes the first
// profile with the official name and UUID. MOJANG_FALLBACK=skins: a linked profile that wears no skin (or no cape)
// here wears the official one, read again every MOJANG_CACHE_TTL by a background loop (official-textures.ts). The
// strip's pixels are drawn and read in challenge-skin.ts.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import type { Caller } from '../accounts/authenticate.ts';
import { normalizeUuid, userByIdentifier } from '../accounts/identifiers.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { profileLimit } from '../accounts/profile.ts';
import { insertProfile, usernameColumns } from '../accounts/profile-rows.ts';
import { checkPassword, usernameKey } from '../accounts/rules.ts';
import { levelOfUser } from '../accounts/standing.ts';
import type { Acting, ActingAccount } from '../audit/acting.ts';
import { recordAudit } from '../audit/audit.ts';
import { BackgroundLoop } from '../background-loop.ts';
import { isUniqueViolation } from '../database/dialect.ts';
import type { Database } from '../database/schema.ts';
import { ApiError, badRequest, conflict, forbidden, message, notFound } from '../http/envelope.ts';
import { languageOfUser, queueMail } from '../mail/outbox.ts';
import { premiumReclaimedMessage } from '../mail/templates.ts';
import type { AccountProfiles } from '../profiles/service.ts';
import { defaultSkin } from '../rendering/default-skin.ts';
import { encodePng } from '../rendering/png.ts';
import type { RateLimiter } from '../ratelimit/limiter.ts';
import type { ProfileSettings } from '../settings.ts';
import { LEVELS } from '../shared/levels.ts';
import type { RgbaImage } from '../skin/texture.ts';
import type { Wardrobe } from '../textures/wardrobe.ts';
import { askSource } from './client.ts';
import { carries, decodeSkin, STRIP_BYTES, stamped } from './challenge-skin.ts';
import { PREMIUM_CHALLENGES_PER_ACCOUNT, PREMIUM_VERIFIES_PER_ACCOUNT } from './limits.ts';
import {
  officialTextures,
  refreshStaleLinks,
  SOURCE_TIMEOUT_MS,
  type OfficialTextureDeps,
  type OfficialTextures,
} from './official-textures.ts';
import type { FallbackSource } from './sources.ts';

/** How long a challenge may be verified. */
export const CHALLENGE_TTL_MS = 60 * 60 * 1000;

/** A linked official account as GET /api/home shows it. */
export interface PremiumLink {
  uuid: string;
  name: string;
  source: string;
}

interface Proven {
  source: FallbackSource;
  uuid: string;
  name: string;
  /** The challenge skin as the source serves it. */
  textures: OfficialTextures;
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

export interface PremiumDeps extends OfficialTextureDeps {
  /** JWT_SECRET: the challenge keys are derived from it. */
  secret: string;
  wardrobe: Wardrobe;
  profiles: AccountProfiles;
  profileSettings: ProfileSettings;
  mailQueued: () => void;
  log: FastifyBaseLogger;
  refreshIntervalMs: number;
  limiter: RateLimiter;
}

export class PremiumService {
  private readonly tokenKey: Buffer;
  private readonly stripKey: Buffer;
  private readonly loop: BackgroundLoop;

  constructor(private readonly deps: PremiumDeps) {
    this.tokenKey = createHash('sha256').update(`premium-challenge-token\u0000${deps.secret}`).digest();
    this.stripKey = createHash('sha256').update(`premium-challenge-skin\u0000${deps.secret}`).digest();
    this.loop = new BackgroundLoop('premium textures', () => refreshStaleLinks(this.deps), deps.refreshIntervalMs, deps.log);
  }

  /** PREMIUM_IMPORT: registration's step 3 may join with an existing account. */
  get importOn(): boolean {
    return this.deps.settings.premiumImport;
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** The sources a player may link an account of, in order: their shown names (a server's from its metadata). */
  async sourceNames(): Promise<string[]> {
    await Promise.all(this.deps.sources.map((source) => source.readMetadata()));
    return this.deps.sources.map((source) => source.name);
  }

  /** The shown name of a stored source key (a source no longer configured keeps its key). */
  sourceNameOf(key: string): string {
    return this.deps.sources.find((source) => source.key === key)?.name ?? key;
  }

  /** `name` a source's shown name (any letter case); absent: the first source, Mojang unless FALLBACK_MOJANG=false. */
  private async sourceOf(name: string | undefined): Promise<FallbackSource> {
    const names = await this.sourceNames();
    const source =
      name === undefined || name === ''
        ? this.deps.sources[0]
        : this.deps.sources.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
    if (!source) throw badRequest('premium.unknownSource', { field: 'source', sources: names.join(', ') });
    return source;
  }

  // ---- the challenge ----

  /** A token for (account, source, name) and the skin that carries its hash: the account's current skin, or the default. */
  async challenge(caller: Caller, input: { name: string; source?: string }): Promise<{ token: string; skin: string; source: string }> {
    await this.deps.limiter.take(PREMIUM_CHALLENGES_PER_ACCOUNT, String(caller.accountId));
    const source = await this.sourceOf(input.source);
    const name = checkOfficialName(input.name);
    const payload = base64url(
      Buffer.from(
        JSON.stringify({
          u: caller.accountId,
          s: source.key,
          n: usernameKey(name),
          e: this.deps.clock.now() + CHALLENGE_TTL_MS,
          r: base64url(randomBytes(9)),
        }),
      ),
    );
    const token = `${payload}.${base64url(createHmac('sha256', this.tokenKey).update(payload).digest())}`;
    const template = await this.templateOf(caller);
    const skin = stamped(template, this.stripOf(name, token));
    return { token, skin: `data:image/png;base64,${encodePng(skin).toString('base64')}`, source: source.name };
  }

  /** The 48 bytes the strip carries: a keyed hash of the name (in its key form) and the token. */
  private stripOf(name: string, token: string): Buffer {
    return createHmac('sha512', this.stripKey).update(usernameKey(name)).update('\u0000').update(token).digest().subarray(0, STRIP_BYTES);
  }

  /** The skin the primary profile wears when it is a 64x64 one (what the source accepts), else the classic default. */
  private async templateOf(caller: Caller): Promise<RgbaImage> {
    const worn = await this.deps.db
      .selectFrom('users')
      .innerJoin('skins', 'skins.id', 'users.selected_skin_id')
      .select('skins.texture_digest')
      .where('users.id', '=', caller.accountId)
      .executeTakeFirst();
    if (worn) {
      const image = await this.deps.library.image(worn.texture_digest);
      if (image.width === 64 && image.height === 64) return image;
    }
    return defaultSkin(false);
  }

  /**
   * Checks a challenge: the token (ours, this account's, this source's, this name's, not expired), then the account at
   * the source (404 none) and the skin it wears now (400 not the challenge skin). Reads the source uncached.
   */
  private async prove(accountId: number, input: { name: string; token: string; source?: string }): Promise<Proven> {
    await this.deps.limiter.take(PREMIUM_VERIFIES_PER_ACCOUNT, String(accountId));
    const source = await this.sourceOf(input.source);
    const name = checkOfficialName(input.name);
    const claims = this.tokenClaims(input.token);
    if (!claims || claims.u !== accountId || claims.s !== source.key) throw badRequest('premium.badToken', { field: 'token' });
    if (claims.n !== usernameKey(name)) throw badRequest('premium.otherName', { field: 'name' });
    if (claims.e <= this.deps.clock.now()) throw badRequest('premium.expired', { field: 'token' });
    await source.readMetadata();
    const signal = AbortSignal.timeout(SOURCE_TIMEOUT_MS);
    const looked = await askSource(source.lookupUrl, signal, [name]);
    if (!looked || (looked.status !== 200 && looked.status !== 204 && looked.status !== 404))
      throw new ApiError(503, message('premium.sourceUnavailable', { source: source.name }));
    const ref = Array.isArray(looked.body)
      ? (looked.body as { id?: unknown; name?: unknown }[]).find(
          (entry) => typeof entry?.name === 'string' && usernameKey(entry.name) === usernameKey(name) && typeof entry.id === 'string',
        )
      : undefined;
    const uuid = ref ? normalizeUuid(ref.id as string) : null;
    if (!ref || !uuid) throw notFound('premium.noSuchAccount', { name, source: source.name });
    const textures = await officialTextures(source, uuid, signal, this.deps.maxTextureBytes);
    if (textures === null) throw new ApiError(503, message('premium.sourceUnavailable', { source: source.name }));
    const expected = this.stripOf(name, input.token);
    const worn = textures.skin ? await decodeSkin(textures.skin.png, this.deps.maxSkinWidth) : null;
    if (!worn || !carries(worn, expected)) throw badRequest('premium.skinMismatch', { name, source: source.name });
    return { source, uuid, name: ref.name as string, textures };
  }

  private tokenClaims(token: string): { u: number; s: string; n: string; e: number } | null {
    const [payload, signature, ...rest] = token.split('.');
    if (!payload || !signature || rest.length > 0) return null;
    const expected = createHmac('sha256', this.tokenKey).update(payload).digest();
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      if (typeof claims?.u !== 'number' || typeof claims.s !== 'string' || typeof claims.n !== 'string' || typeof claims.e !== 'number')
        return null;
      return claims;
    } catch {
      return null;
    }
  }

  // ---- the link ----

  /** Verifies the challenge and links the account; with PREMIUM_RECLAIM a profile here holding the name passes over. */
  async verify(caller: Caller, input: { name: string; token: string; source?: string }): Promise<PremiumLink> {
    const proven = await this.prove(caller.accountId, input);
    const { reclaim } = await this.linkOrConflict(() =>
      this.deps.db.transaction().execute(async (trx) => {
        const linkId = await this.insertLink(trx, caller, proven, null);
        const holder = await trx
          .selectFrom('profiles')
          .innerJoin('users', 'users.id', 'profiles.user_id')
          .select(['profiles.id', 'profiles.uuid', 'profiles.user_id', 'users.uuid as primary_uuid'])
          .where('profiles.name_key', '=', usernameKey(proven.name))
          .executeTakeFirst();
        const own = holder?.user_id === caller.accountId ? holder.id : null;
        await this.lendTexturesTo(trx, linkId, caller.accountId, own);
        // A primary profile is its account's login name: it stays (docs/decisions.md).
        const reclaim =
          this.deps.settings.premiumReclaim && holder && holder.user_id !== caller.accountId && holder.uuid !== holder.primary_uuid
            ? { linkId, profileUuid: holder.uuid, fromUserId: holder.user_id }
            : null;
        return { reclaim };
      }),
    );
    if (reclaim) await this.reclaim(caller, reclaim);
    this.deps.texturesChanged();
    return { uuid: proven.uuid, name: proven.name, source: proven.source.name };
  }

  /** The profile that holds the official name passes to the linker; its owner is mailed. */
  private async reclaim(caller: Caller, reclaim: { linkId: number; profileUuid: string; fromUserId: number }) {
    const from = await this.deps.db
      .selectFrom('users')
      .select(['mail', 'username'])
      .where('id', '=', reclaim.fromUserId)
      .executeTakeFirst();
    const moved = await this.deps.profiles.transfer(caller, reclaim.fromUserId, reclaim.profileUuid, caller.accountId);
    await this.deps.db.transaction().execute(async (trx) => {
      const profile = await trx.selectFrom('profiles').select('id').where('uuid', '=', moved.uuid).executeTakeFirstOrThrow();
      const taken = await trx.selectFrom('premium_links').select('id').where('profile_id', '=', profile.id).executeTakeFirst();
      if (!taken) await trx.updateTable('premium_links').set({ profile_id: profile.id }).where('id', '=', reclaim.linkId).execute();
      if (from) {
        const language = await languageOfUser(trx, reclaim.fromUserId);
        await queueMail(
          trx,
          this.deps.clock.now(),
          from.mail,
          premiumReclaimedMessage(language, { account: from.username ?? from.mail, name: moved.name ?? moved.uuid }),
        );
      }
    });
    this.deps.mailQueued();
  }

  /** 409 when the account has a link at this source, or the official account is linked to another account here. */
  private async insertLink(
    trx: Transaction<Database>,
    acting: Acting & { accountId: number },
    proven: Proven,
    profileId: number | null,
  ): Promise<number> {
    const mine = await trx
      .selectFrom('premium_links')
      .select('id')
      .where('user_id', '=', acting.accountId)
      .where('source', '=', proven.source.key)
      .executeTakeFirst();
    if (mine) throw conflict('premium.sourceLinked', { source: proven.source.name });
    await this.checkNotLinkedElsewhere(trx, proven);
    const now = this.deps.clock.now();
    const { id } = await trx
      .insertInto('premium_links')
      .values({
        user_id: acting.accountId,
        source: proven.source.key,
        premium_uuid: proven.uuid,
        premium_name: proven.name,
        profile_id: profileId,
        skin_slim: 0,
        // The skin worn now is the challenge skin: the official one is read a MOJANG_CACHE_TTL later.
        textures_at: now,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordAudit(trx, now, {
      actor: acting.actor,
      action: 'premium.link',
      target: acting.accountId,
      details: { source: proven.source.name, uuid: proven.uuid, name: proven.name },
    });
    return id;
  }

  private async checkNotLinkedElsewhere(trx: Transaction<Database>, proven: Proven) {
    const theirs = await trx
      .selectFrom('premium_links')
      .select('id')
      .where('source', '=', proven.source.key)
      .where('premium_uuid', '=', proven.uuid)
      .executeTakeFirst();
    if (theirs) throw conflict('premium.linkedElsewhere', { name: proven.name, source: proven.source.name });
  }

  /**
   * The profile the link lends the official textures to (MOJANG_FALLBACK=skins): `preferred` (a profile of the account
   * with the official name), else one with the official UUID, else the primary profile; none when another link of the
   * account lends to it already.
   */
  private async lendTexturesTo(trx: Transaction<Database>, linkId: number, userId: number, preferred: number | null) {
    const link = await trx.selectFrom('premium_links').select('premium_uuid').where('id', '=', linkId).executeTakeFirstOrThrow();
    const candidates = await trx
      .selectFrom('profiles')
      .innerJoin('users', 'users.id', 'profiles.user_id')
      .leftJoin('premium_links', 'premium_links.profile_id', 'profiles.id')
      .select(['profiles.id', 'profiles.uuid', 'users.uuid as primary_uuid', 'premium_links.id as lent'])
      .where('profiles.user_id', '=', userId)
      .execute();
    const free = candidates.filter((candidate) => candidate.lent === null);
    const chosen =
      free.find((candidate) => candidate.id === preferred) ??
      free.find((candidate) => candidate.uuid === link.premium_uuid) ??
      free.find((candidate) => candidate.uuid === candidate.primary_uuid);
    if (chosen) await trx.updateTable('premium_links').set({ profile_id: chosen.id }).where('id', '=', linkId).execute();
  }

  /** A unique index that refused a concurrent second link says what the checks say. */
  private async linkOrConflict<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('premium.linkedElsewhere', { name: '', source: '' });
      throw error;
    }
  }

  /** Ends the caller's link at `source` (absent: the first source); the official textures it lent go with it. */
  async unlink(acting: ActingAccount, sourceName: string | undefined): Promise<void> {
    await this.endLink(acting, acting.accountId, sourceName);
  }

  /** An administrator ends a link of a player below their own level (the operator: of anyone), as unlink does. */
  async unlinkFor(acting: Acting, identifier: string, sourceName: string | undefined): Promise<{ id: number }> {
    const target = await userByIdentifier(this.deps.db, identifier);
    const targetLevel = await levelOfUser(this.deps.db, target, this.deps.clock.now());
    if (!acting.operator && (acting.level < LEVELS.admin || targetLevel >= acting.level)) throw forbidden('premium.belowOwnLevel');
    await this.endLink(acting, target.id, sourceName);
    return { id: target.id };
  }

  private async endLink(acting: Acting, userId: number, sourceName: string | undefined): Promise<void> {
    const source = await this.sourceOf(sourceName);
    await this.deps.library.releasing(async (trx) => {
      const link = await trx
        .selectFrom('premium_links')
        .selectAll()
        .where('user_id', '=', userId)
        .where('source', '=', source.key)
        .executeTakeFirst();
      if (!link) throw notFound('premium.notLinked', { source: source.name });
      await trx.deleteFrom('premium_links').where('id', '=', link.id).execute();
      await recordAudit(trx, this.deps.clock.now(), {
        actor: acting.actor,
        action: 'premium.unlink',
        target: userId,
        details: {
          source: source.name,
          uuid: link.premium_uuid,
          name: link.premium_name,
          ...(acting.accountId !== userId && { by: acting.operator ? 'operator' : 'admin' }),
        },
      });
      return { result: null, released: [link.skin_digest, link.cape_digest].filter((digest): digest is string => digest !== null) };
    });
    this.deps.texturesChanged();
  }

  /** The account's links, in source order. */
  async links(userId: number): Promise<PremiumLink[]> {
    const rows = await this.deps.db
      .selectFrom('premium_links')
      .select(['source', 'premium_uuid', 'premium_name'])
      .where('user_id', '=', userId)
      .execute();
    const order = (key: string) => {
      const index = this.deps.sources.findIndex((source) => source.key === key);
      return index < 0 ? Number.MAX_SAFE_INTEGER : index;
    };
    return rows
      .sort((a, b) => order(a.source) - order(b.source))
      .map((row) => ({ uuid: row.premium_uuid, name: row.premium_name, source: this.sourceNameOf(row.source) }));
  }

  // ---- the official skin, once ----

  /** Copies the linked account's current skin at `source` into the wardrobe, named "From <source>". */
  async importSkin(caller: Caller, sourceName: string | undefined) {
    const source = await this.sourceOf(sourceName);
    const link = await this.deps.db
      .selectFrom('premium_links')
      .select(['premium_uuid'])
      .where('user_id', '=', caller.accountId)
      .where('source', '=', source.key)
      .executeTakeFirst();
    if (!link) throw notFound('premium.notLinked', { source: source.name });
    await source.readMetadata();
    const textures = await officialTextures(source, link.premium_uuid, AbortSignal.timeout(SOURCE_TIMEOUT_MS), this.deps.maxTextureBytes);
    if (!textures) throw new ApiError(503, message('premium.sourceUnavailable', { source: source.name }));
    if (!textures.skin) throw notFound('premium.noOfficialSkin', { source: source.name });
    return this.deps.wardrobe.uploadSkin(caller, {
      png: textures.skin.png,
      slim: textures.skin.slim,
      name: `From ${source.name}`.slice(0, 32),
    });
  }

  // ---- joining with an existing account (PREMIUM_IMPORT) ----

  /**
   * Registration step 3 with a proven account: the account's name and UUID become the first profile's (409 when
   * taken here, unless PREMIUM_RECLAIM passes a non-primary profile holding the name over), the link is made, and the
   * official skin becomes the first wardrobe entry.
   */
  async finishRegistration(caller: Caller, input: { name: string; token: string; source?: string }, password?: string): Promise<void> {
    if (!this.deps.settings.premiumImport) throw forbidden('premium.importOff');
    if (caller.user.username !== null) throw conflict('accounts.registrationFinished');
    const proven = await this.prove(caller.accountId, input);
    const passwordHash = password === undefined ? undefined : await hashPassword(checkPassword(password, [caller.user.mail, proven.name]));
    await this.reclaimNameFor(caller, proven);
    await this.linkOrConflict(() =>
      this.deps.db.transaction().execute(async (trx) => {
        await this.checkOfficialFree(trx, proven);
        const now = this.deps.clock.now();
        const result = await trx
          .updateTable('users')
          .set({ ...usernameColumns(proven.name), ...(passwordHash && { password: passwordHash }), uuid: proven.uuid, updated_at: now })
          .where('id', '=', caller.accountId)
          .where('username', 'is', null)
          .executeTakeFirst();
        if (result.numUpdatedRows !== 1n) throw conflict('accounts.registrationFinished');
        const profileId = await insertProfile(trx, { userId: caller.accountId, name: proven.name, uuid: proven.uuid, now });
        await recordAudit(trx, now, {
          actor: { id: caller.accountId, name: proven.name },
          action: 'auth.register_finish',
          target: caller.accountId,
          details: { premium: proven.source.name },
        });
        await this.insertLink(trx, { ...caller, actor: { id: caller.accountId, name: proven.name } }, proven, profileId);
      }),
    );
  }

  /** A linked account's further profile with the official name and UUID (contract section 16's limits apply). */
  async createProfile(caller: Caller, sourceName: string | undefined): Promise<{ uuid: string; name: string }> {
    if (!this.deps.settings.premiumReclaim && !this.deps.settings.premiumImport) throw forbidden('premium.profileOff');
    const source = await this.sourceOf(sourceName);
    const link = await this.deps.db
      .selectFrom('premium_links')
      .select(['id', 'premium_uuid', 'premium_name'])
      .where('user_id', '=', caller.accountId)
      .where('source', '=', source.key)
      .executeTakeFirst();
    if (!link) throw notFound('premium.notLinked', { source: source.name });
    const proven: Proven = { source, uuid: link.premium_uuid, name: link.premium_name, textures: { skin: null, cape: null } };
    await this.reclaimNameFor(caller, proven);
    await this.linkOrConflict(() =>
      this.deps.db.transaction().execute(async (trx) => {
        await this.checkOfficialFree(trx, proven);
        const account = await trx
          .selectFrom('users')
          .select(['id', 'perms', 'banned_until', 'max_profiles', 'mail_verify', 'mail_verification', 'username'])
          .where('id', '=', caller.accountId)
          .executeTakeFirstOrThrow();
        const limit = profileLimit(
          account.max_profiles,
          this.deps.profileSettings.maxProfiles,
          await levelOfUser(trx, account, this.deps.clock.now()),
        );
        const { count } = await trx
          .selectFrom('profiles')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('user_id', '=', caller.accountId)
          .executeTakeFirstOrThrow();
        if (limit !== -1 && Number(count) >= limit) throw forbidden('profiles.limit', { limit });
        const now = this.deps.clock.now();
        const profileId = await insertProfile(trx, { userId: caller.accountId, name: link.premium_name, uuid: link.premium_uuid, now });
        await recordAudit(trx, now, {
          actor: caller.actor,
          action: 'profile.create',
          target: caller.accountId,
          details: { uuid: link.premium_uuid, name: link.premium_name },
        });
        const lends = await trx.selectFrom('premium_links').select('profile_id').where('id', '=', link.id).executeTakeFirstOrThrow();
        const lent = await trx
          .selectFrom('profiles')
          .select('uuid')
          .where('id', '=', lends.profile_id ?? -1)
          .executeTakeFirst();
        // The profile with the official UUID wears the official textures rather than the primary one.
        if (!lent || lent.uuid !== link.premium_uuid)
          await trx.updateTable('premium_links').set({ profile_id: profileId }).where('id', '=', link.id).execute();
      }),
    );
    this.deps.texturesChanged();
    return { uuid: link.premium_uuid, name: link.premium_name };
  }

  /** 409 when a profile here has the official UUID or name (a name PREMIUM_RECLAIM could not pass over). */
  private async checkOfficialFree(trx: Transaction<Database>, proven: Proven) {
    const holder = await trx
      .selectFrom('profiles')
      .select(['uuid', 'name_key'])
      .where((eb) => eb.or([eb('uuid', '=', proven.uuid), eb('name_key', '=', usernameKey(proven.name))]))
      .executeTakeFirst();
    if (holder?.uuid === proven.uuid) throw conflict('premium.uuidTaken', { name: proven.name });
    if (holder) throw conflict('premium.nameTaken', { name: proven.name, field: 'name' });
  }

  /**
   * PREMIUM_RECLAIM for a profile made with the official UUID: a non-primary profile of another account holding the
   * name cannot pass over whole (its UUID is not the official one), so its owner keeps it under a free variant of the
   * name and is mailed. A primary profile is its account's login name and stays (then 409).
   */
  private async reclaimNameFor(caller: Caller, proven: Proven) {
    if (!this.deps.settings.premiumReclaim) return;
    const holder = await this.deps.db
      .selectFrom('profiles')
      .innerJoin('users', 'users.id', 'profiles.user_id')
      .select(['profiles.uuid', 'profiles.user_id', 'users.uuid as primary_uuid'])
      .where('profiles.name_key', '=', usernameKey(proven.name))
      .executeTakeFirst();
    if (!holder || holder.user_id === caller.accountId || holder.uuid === holder.primary_uuid || holder.uuid === proven.uuid) return;
    // It cannot pass over whole (its UUID is not the official one): its owner keeps it under another name.
    await this.renameAway(caller, holder.uuid, holder.user_id, proven.name);
  }

  /** Renames another account's profile to a free variant of its name, and mails its owner. */
  private async renameAway(acting: Acting, profileUuid: string, userId: number, name: string) {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const variant = `${name.slice(0, 11)}_${randomBytes(2).toString('hex')}`;
      try {
        await this.deps.profiles.update(acting, userId, profileUuid, { name: variant });
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) continue;
        throw error;
      }
      await this.deps.db.transaction().execute(async (trx) => {
        const user = await trx.selectFrom('users').select(['mail', 'username']).where('id', '=', userId).executeTakeFirstOrThrow();
        const language = await languageOfUser(trx, userId);
        await queueMail(
          trx,
          this.deps.clock.now(),
          user.mail,
          premiumReclaimedMessage(language, { account: user.username ?? user.mail, name, renamed: variant }),
        );
      });
      this.deps.mailQueued();
      return;
    }
  }

  // ---- MOJANG_FALLBACK=skins: the official textures of linked profiles ----

  /** Asks the loop for a pass now (tests, and after a link). */
  wake(): void {
    this.loop.wake();
  }
}

/** An official name as the sources spell them: 1 to 16 letters, digits and underscores (Mojang's rule). */
function checkOfficialName(value: string): string {
  const name = value.trim();
  if (!/^[A-Za-z0-9_]{1,16}$/.test(name)) throw badRequest('premium.nameRule', { field: 'name' });
  return name;
}
