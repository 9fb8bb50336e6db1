// Mojang's `minecraft/profile` routes for the profile a game token acts as (contract section 25, research
// wire-shapes-26 §6.1-6.3): its wardrobe as Mojang lists skins and capes, and every change through the same service
// code, limits and audit as the web's (the wardrobe for skins, the account's profiles for capes and names). Errors
// the web's services throw keep their words and take Mojang's status and errorType where Mojang's differ.
import type { Kysely } from 'kysely';
import type { Caller } from '../accounts/authenticate.ts';
import { checkNewUsername } from '../accounts/rules.ts';
import type { Database } from '../database/schema.ts';
import { ApiError } from '../http/envelope.ts';
import { playerNameKey } from '../minecraft/player-names.ts';
import { checkNameNotKeptByUuid } from '../accounts/profile-rows.ts';
import type { AccountProfiles } from '../profiles/service.ts';
import type { ProfileSettings } from '../settings.ts';
import type { TextureLibrary } from '../textures/library.ts';
import type { Wardrobe } from '../textures/wardrobe.ts';
import { chosenBy } from '../textures/worn.ts';
import { servicesProfile } from '../yggdrasil/profiles.ts';
import type { MinecraftProfile } from '../yggdrasil/shapes.ts';
import { constraintViolation, ServicesError } from './errors.ts';

export type NameAvailability = 'AVAILABLE' | 'DUPLICATE' | 'NOT_ALLOWED';

export interface NameChange {
  changedAt: string;
  createdAt: string;
  nameChangeAllowed: boolean;
}

export interface MinecraftProfileDeps {
  db: Kysely<Database>;
  wardrobe: Wardrobe;
  profiles: AccountProfiles;
  library: TextureLibrary;
  settings: ProfileSettings;
  publicUrl: string;
  now: () => number;
}

/** What a launcher's upload is called in the wardrobe, as the Yggdrasil upload names it. */
const LAUNCHER_SKIN_NAME = 'From the launcher';
const TEXTURE_URL = /^\/textures\/([0-9a-f]{64})$/;
const isoInstant = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** No profile behind the token (a login by mail of an account with several, not yet bound): Mojang's answer. */
const noProfile = () => new ServicesError(404, 'NOT_FOUND', 'The server has not found anything matching the request URI');

/** `classic` or `slim` in any letter case; absent: the wardrobe tells it from the picture. */
export function parseVariant(value: unknown): boolean | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const variant = typeof value === 'string' ? value.toLowerCase() : '';
  if (variant === 'slim') return true;
  if (variant === 'classic') return false;
  throw constraintViolation('variant: must be classic or slim');
}

/** Runs a change of the web's services, giving their refusals Mojang's status and errorType where they differ. */
async function asMojang<T>(work: () => Promise<T>, refusals: Partial<Record<number, (error: ApiError) => ServicesError>>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const translate = error instanceof ApiError && !(error instanceof ServicesError) ? refusals[error.status] : undefined;
    throw translate ? translate(error as ApiError) : error;
  }
}

export class MinecraftProfiles {
  constructor(private readonly deps: MinecraftProfileDeps) {}

  /** The token's profile with every skin of the account's wardrobe and every cape it owns; the worn ones ACTIVE. */
  async profile(caller: Caller): Promise<MinecraftProfile> {
    const { db, publicUrl } = this.deps;
    const profileUuid = this.profileOf(caller);
    const worn = await db
      .selectFrom('profiles')
      .innerJoin('users', 'users.id', 'profiles.user_id')
      .leftJoin('skins', (join) => join.on('skins.id', '=', chosenBy('selected_skin_id')))
      .select(['profiles.uuid', 'profiles.name', 'profiles.user_id', 'skins.id as skin_id', 'skins.cape_id as linked_cape_id'])
      .select(chosenBy('selected_cape_id').as('cape_id'))
      .where('profiles.uuid', '=', profileUuid)
      .executeTakeFirst();
    if (!worn) throw noProfile();
    const skins = await db
      .selectFrom('skins')
      .select(['id', 'uuid', 'slim', 'texture_digest'])
      .where('user_id', '=', worn.user_id)
      .orderBy('id')
      .execute();
    const capes = await db
      .selectFrom('capes')
      .innerJoin('cape_owners', 'cape_owners.cape_id', 'capes.id')
      .select(['capes.id', 'capes.uuid', 'capes.name', 'capes.texture_digest'])
      .where('cape_owners.user_id', '=', worn.user_id)
      .orderBy('capes.id')
      .execute();
    // The rule of textures/worn.ts: the worn skin's own cape, else the chosen one, each only while owned.
    const owned = new Set(capes.map((cape) => cape.id));
    const activeCape = [worn.linked_cape_id, worn.cape_id].find((id) => id != null && owned.has(Number(id))) ?? null;
    return servicesProfile(publicUrl, worn, {
      skins: skins.map((skin) => ({ ...skin, worn: skin.id === worn.skin_id })),
      capes: capes.map((cape) => ({ ...cape, worn: activeCape !== null && cape.id === Number(activeCape) })),
    });
  }

  /** A PNG upload (multipart): into the wardrobe and worn by the token's profile, as the web's upload and the launcher's. */
  async uploadSkin(caller: Caller, png: Buffer, slim: boolean | undefined): Promise<MinecraftProfile> {
    const wear = this.profileOf(caller);
    await this.deps.wardrobe.uploadSkin(caller, { png, slim, name: LAUNCHER_SKIN_NAME, wear });
    return this.profile(caller);
  }

  /**
   * The JSON form: `url` must be one of this service's skin texture URLs (a URL from elsewhere is refused, never
   * fetched). A skin of the wardrobe with that texture and model is worn again; any other enters the wardrobe.
   */
  async skinFromUrl(caller: Caller, url: string, slim: boolean | undefined): Promise<MinecraftProfile> {
    const wear = this.profileOf(caller);
    const digest = this.ownTextureDigest(url);
    const { db, wardrobe, library } = this.deps;
    let query = db.selectFrom('skins').select('uuid').where('user_id', '=', caller.user.id).where('texture_digest', '=', digest);
    if (slim !== undefined) query = query.where('slim', '=', slim ? 1 : 0);
    const own = await query.orderBy('id').executeTakeFirst();
    if (own) {
      await this.deps.profiles.update(caller, caller.user.id, wear, { selected_skin: own.uuid });
      return this.profile(caller);
    }
    const isSkin = await db.selectFrom('skins').select('id').where('texture_digest', '=', digest).executeTakeFirst();
    const png = isSkin ? await library.pngIfStored(digest) : null;
    if (!png) throw constraintViolation(`url: ${url} is no skin of this service`);
    await wardrobe.uploadSkin(caller, { png, slim, name: LAUNCHER_SKIN_NAME, wear });
    return this.profile(caller);
  }

  /** DELETE skins/active: the profile wears no skin (the game draws its default); the wardrobe keeps it. */
  async resetSkin(caller: Caller): Promise<MinecraftProfile> {
    await this.deps.wardrobe.takeOff(caller, this.profileOf(caller), 'skin');
    return this.profile(caller);
  }

  /** PUT capes/active: a cape the account owns (else 400, as Mojang), worn even where the worn skin links another. */
  async wearCape(caller: Caller, capeId: string): Promise<MinecraftProfile> {
    const uuid = this.profileOf(caller);
    await asMojang(() => this.deps.profiles.update(caller, caller.user.id, uuid, { selected_cape: capeId }), {
      404: (error) => new ServicesError(400, 'BAD_REQUEST', error.message),
      400: (error) => new ServicesError(400, 'BAD_REQUEST', error.message),
    });
    // A cape linked to the worn skin would still show (textures/worn.ts): unlink it, as the web's "take off" does.
    const linked = await this.deps.db
      .selectFrom('profiles')
      .innerJoin('users', 'users.id', 'profiles.user_id')
      .innerJoin('skins', (join) => join.on('skins.id', '=', chosenBy('selected_skin_id')))
      .innerJoin('capes', 'capes.id', 'skins.cape_id')
      .select(['skins.uuid', 'capes.uuid as cape_uuid'])
      .where('profiles.uuid', '=', uuid)
      .executeTakeFirst();
    if (linked && linked.cape_uuid !== capeId) await this.deps.wardrobe.updateOwnSkin(caller, linked.uuid, { cloakid: '' });
    return this.profile(caller);
  }

  /** DELETE capes/active: no cape, neither the chosen one nor the worn skin's. */
  async hideCape(caller: Caller): Promise<MinecraftProfile> {
    await this.deps.wardrobe.takeOff(caller, this.profileOf(caller), 'cape');
    return this.profile(caller);
  }

  /** PUT name/{name}: section 16's rename with PROFILE_RENAME and NAME_CHANGE_DAYS; Mojang's refusals. */
  async rename(caller: Caller, name: string): Promise<MinecraftProfile> {
    const uuid = this.profileOf(caller);
    await asMojang(() => this.deps.profiles.update(caller, caller.user.id, uuid, { name }), {
      400: (error) => constraintViolation(`changeProfileName.profileName: ${error.message}`),
      403: (error) => new ServicesError(403, 'FORBIDDEN', error.message),
      // Taken by someone, or a spelling a renamed profile keeps (profile-rows.ts): Mojang's 403 with the reason.
      409: (error) =>
        new ServicesError(403, 'FORBIDDEN', error.message, {
          status: error.text?.key === 'profiles.nameTaken' ? 'DUPLICATE' : 'NOT_ALLOWED',
        }),
    });
    return this.profile(caller);
  }

  /** Whether the token's profile could take `name` now: AVAILABLE, DUPLICATE (anyone has it) or NOT_ALLOWED. */
  async nameAvailability(caller: Caller, name: string): Promise<NameAvailability> {
    const uuid = this.profileOf(caller);
    const { db, settings } = this.deps;
    if (!settings.rename) return 'NOT_ALLOWED';
    try {
      checkNewUsername(name, settings.nameRule);
    } catch {
      return 'NOT_ALLOWED';
    }
    const holder = await db.selectFrom('profiles').select('uuid').where('name_key', '=', playerNameKey(name)).executeTakeFirst();
    if (holder) return 'DUPLICATE';
    try {
      await checkNameNotKeptByUuid(db, name, uuid);
    } catch {
      return 'NOT_ALLOWED';
    }
    return 'AVAILABLE';
  }

  /** GET namechange: when the name last changed (its creation before any rename) and whether it may change now. */
  async nameChange(caller: Caller): Promise<NameChange> {
    const row = await this.deps.db
      .selectFrom('profiles')
      .select(['created_at', 'name_changed_at'])
      .where('uuid', '=', this.profileOf(caller))
      .executeTakeFirst();
    if (!row) throw noProfile();
    const changedAt = row.name_changed_at === null ? null : Number(row.name_changed_at);
    const allowedFrom = this.deps.profiles.renameAllowedFrom(changedAt);
    return {
      changedAt: isoInstant(changedAt ?? Number(row.created_at)),
      createdAt: isoInstant(Number(row.created_at)),
      nameChangeAllowed: this.deps.settings.rename && (allowedFrom === null || this.deps.now() >= allowedFrom),
    };
  }

  private profileOf(caller: Caller): string {
    if (!caller.profile) throw noProfile();
    return caller.profile.uuid;
  }

  /** The digest of one of this service's texture URLs (PUBLIC_URL/textures/{digest}); anything else: 400. */
  private ownTextureDigest(url: string): string {
    const base = new URL(this.deps.publicUrl);
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      parsed = null;
    }
    const path = parsed && parsed.host === base.host ? parsed.pathname.slice(base.pathname.replace(/\/$/, '').length) : '';
    const digest = TEXTURE_URL.exec(path)?.[1];
    if (!digest) throw constraintViolation(`url: only this service's texture URLs (${base.origin}/textures/…) are accepted`);
    return digest;
  }
}
