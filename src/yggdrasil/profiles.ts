// A player's game profile in both of the game's API shapes, built here alone: the Yggdrasil one (id, name and the
// `textures` property, signed when asked for: hasJoined always, profile lookups with unsigned=false) and, at the end,
// Mojang's services one (servicesProfile). Signing with the 4096-bit service key costs milliseconds, so a signed
// property is kept and reused while what it says is unchanged, for SIGNED_TEXTURES_REUSE_MS at most.
import { ByteBudgetCache } from '../caching/byte-budget-cache.ts';
import type { Clock } from '../clock.ts';
import type { ServiceKey } from '../signing/service-key.ts';
import type { PlayerWearing } from '../textures/worn.ts';
import { textureUrl } from '../textures/texture-url.ts';
import {
  unsignedUuid,
  type GameProfile,
  type MinecraftProfile,
  type ProfileActionType,
  type ProfileProperty,
  type TextureState,
} from './shapes.ts';

/** How long a signed textures property (with the timestamp in it) is reused for the same textures. */
export const SIGNED_TEXTURES_REUSE_MS = 10 * 60_000;
/** Memory for reused signed properties: about 1.5 KB each with the key and the signature of a 4096-bit key. */
const SIGNED_CACHE_BYTES = 8 * 1024 * 1024;

/** Launchers show their upload button for these (authlib-injector's `uploadableTextures`); capes come from admins. */
const UPLOADABLE = { name: 'uploadableTextures', value: 'skin' };

interface SignedProperties {
  textures: ProfileProperty;
  uploadable: ProfileProperty;
  byteLength: number;
}

export class GameProfiles {
  private readonly signed: ByteBudgetCache<SignedProperties>;

  constructor(
    private readonly serviceKey: () => Promise<ServiceKey>,
    private readonly publicUrl: string,
    private readonly clock: Clock,
  ) {
    this.signed = new ByteBudgetCache(SIGNED_CACHE_BYTES, { ttlMs: SIGNED_TEXTURES_REUSE_MS, now: () => clock.now() });
  }

  /** The profile of `player`, under `id` when an offline-mode UUID named it (the game then looks for that id). */
  async profile(player: PlayerWearing, options: { signed: boolean; id?: string; actions?: ProfileActionType[] }): Promise<GameProfile> {
    const id = unsignedUuid(options.id ?? player.uuid);
    // Forced actions (contract section 24): objects with both keys, never strings; a blocked skin is not in
    // player.skin (textures/worn.ts leaves it out).
    const profileActions = (options.actions ?? []).map((action) => ({ action, updateType: action }));
    if (!options.signed) {
      return {
        id,
        name: player.username,
        properties: [{ name: 'textures', value: this.texturesValue(player, id, false) }, UPLOADABLE],
        profileActions,
      };
    }
    const key = [id, player.username, player.skin?.digest, player.skin?.slim, player.cape?.digest].join('|');
    let properties = this.signed.get(key);
    if (!properties) {
      const serviceKey = await this.serviceKey();
      const value = this.texturesValue(player, id, true);
      const textures = { name: 'textures', value, signature: serviceKey.sign(value) };
      const uploadable = { ...UPLOADABLE, signature: serviceKey.sign(UPLOADABLE.value) };
      properties = { textures, uploadable, byteLength: key.length + value.length + textures.signature.length * 2 };
      this.signed.set(key, properties);
    }
    return { id, name: player.username, properties: [properties.textures, properties.uploadable], profileActions };
  }

  /** Base64 of the textures JSON; a texture the player lacks is left out, and the game draws its own default. */
  private texturesValue(player: PlayerWearing, id: string, signed: boolean): string {
    const textures: Record<string, unknown> = {};
    if (player.skin) {
      textures.SKIN = {
        url: this.textureUrl(player.skin.digest),
        ...(player.skin.slim ? { metadata: { model: 'slim' } } : {}),
      };
    }
    if (player.cape) textures.CAPE = { url: this.textureUrl(player.cape.digest) };
    const payload = {
      timestamp: this.clock.now(),
      profileId: id,
      profileName: player.username,
      ...(signed ? { signatureRequired: true } : {}),
      textures,
    };
    return Buffer.from(JSON.stringify(payload)).toString('base64');
  }

  private textureUrl(digest: string): string {
    return textureUrl(this.publicUrl, digest);
  }
}

/** A skin or cape of the account's wardrobe as servicesProfile reads it; `worn`: the profile wears it (textures/worn.ts's rule). */
interface WardrobeTexture {
  uuid: string;
  texture_digest: string;
  worn: boolean;
}

/** The profile as Mojang's services API shows it (minecraft/profile): every skin and cape of the account, the worn ones ACTIVE. */
export function servicesProfile(
  publicUrl: string,
  profile: { uuid: string; name: string },
  wardrobe: { skins: (WardrobeTexture & { slim: number })[]; capes: (WardrobeTexture & { name: string })[] },
): MinecraftProfile {
  const state = (active: boolean): TextureState => (active ? 'ACTIVE' : 'INACTIVE');
  return {
    id: unsignedUuid(profile.uuid),
    name: profile.name,
    skins: wardrobe.skins.map((skin) => ({
      id: skin.uuid,
      state: state(skin.worn),
      url: textureUrl(publicUrl, skin.texture_digest),
      textureKey: skin.texture_digest,
      variant: skin.slim === 1 ? 'SLIM' : 'CLASSIC',
    })),
    capes: wardrobe.capes.map((cape) => ({
      id: cape.uuid,
      state: state(cape.worn),
      url: textureUrl(publicUrl, cape.texture_digest),
      alias: cape.name,
    })),
    profileActions: {},
  };
}
