// Serves the launcher document, texture files and renders (interface.md 4.3, contract sections 4 and 7).
// Every image is addressed by what it shows (texture digests and render parameters): that is its ETag and its
// cache key, so a popular head is rendered once and revalidated with a 304.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { normalizeUuid } from '../accounts/identifiers.ts';
import { LEVELS, permsAt } from '../accounts/standing.ts';
import { usernameKey } from '../accounts/rules.ts';
import { ByteBudgetCache, ownedBytes, type CacheMemory } from '../caching/byte-budget-cache.ts';
import type { Clock } from '../clock.ts';
import { reusableQuery } from '../database/reusable-query.ts';
import type { Database } from '../database/schema.ts';
import { notFound } from '../http/envelope.ts';
import type { LauncherDocument } from '../http/shapes/launcher-document.ts';
import { defaultSkin } from '../rendering/default-skin.ts';
import { encodePng } from '../rendering/png.ts';
import { renderImage, type RenderType, type RenderView } from '../rendering/render.ts';
import { matchesEtag } from './etag.ts';
import { nextTurn, type RenderQueue } from './render-queue.ts';
import { defaultModelIsSlim, isSlimSkin, type RgbaImage } from '../skin/texture.ts';
import { digestOf } from '../textures/canonical.ts';
import type { TextureCacheBudgets, TextureLibrary } from '../textures/library.ts';
import { textureUrl } from '../textures/texture-url.ts';
import { playerWearingLookups, type WornTextures } from '../textures/worn.ts';

/** What an image path names: the textures to draw. A null skin means the player has none (default skin). */
interface Wearing extends WornTextures {
  playerUuid: string | null;
  /** The player's name as stored; null for a skin UUID, a texture digest or an identifier nobody has. */
  username: string | null;
  /** Without a skin: the default model to draw, instead of the one the player UUID gives. */
  defaultSlim?: boolean;
  /** Named by a texture digest: what it shows never changes (contract section 25). */
  byTexture?: true;
}

/** Our texture digests, as image paths take them in place of a player (contract section 25): SHA-256, 64 hex digits. */
const TEXTURE_DIGEST = /^[0-9a-f]{64}$/i;
/** The digest in the form textures are stored under, when `identifier` is one; else null. */
export const textureDigestOf = (identifier: string) => (TEXTURE_DIGEST.test(identifier) ? identifier.toLowerCase() : null);

export type DefaultModel = 'classic' | 'slim';

/**
 * How a drop-in URL of another service (contract sections 13 and 25) draws a player without a skin of their own: by
 * default with the model the game gives the UUID (known or not; classic for a name nobody has).
 */
export interface DefaultRules {
  /** Every player without a skin, known or not, gets this model instead (Crafatar's `default`). */
  withoutSkin?: DefaultModel;
}

/** Who asks for an image: uncached renders count on the address's limit (render-queue.ts). */
export interface ImageClient {
  /** The client address (request.ip: the proxy's view with TRUST_PROXY). */
  address: string;
  /** The request's If-None-Match: an image the client has is not drawn again, even when it is not in the cache. */
  ifNoneMatch?: string;
}

export interface RenderOptions {
  client: ImageClient;
  /** Draw the second layer; default true. */
  overlay?: boolean;
  /** The smallest size accepted (Crafatar's avatars go down to 1); the renderer's own minimum by default. */
  minimumSize?: number;
}

/** What the CustomSkinAPI profile of a player holds (contract section 13). */
export interface CustomSkinProfile {
  username: string;
  skin: { digest: string; slim: boolean } | null;
  cape: { digest: string } | null;
}

/** A skin recently uploaded and worn by a player in good standing: only what the texture is, never whose. */
export interface RecentSkin {
  url: string;
  digest: string;
  slim: boolean;
}

export interface ImageResult {
  png: Buffer;
  etag: string;
  /** Named by texture digests only: the answer never changes, and is sent so (reply.ts). */
  immutable?: true;
  /** The client has this image (its If-None-Match names the ETag): no bytes, a 304 to send, nothing to remember. */
  unchanged?: true;
}

const DEFAULT_SKIN_KEY = { false: 'default-classic', true: 'default-slim' };

/** The views of a player (or skin); the cloak view is reached through the cloak path only. */
export type PlayerView = Exclude<RenderView, 'cloak'>;

/** The model drawn: the skin's own, else the chosen default, else the one the player UUID gives. */
const slimOf = (wearing: Wearing) => wearing.skin?.slim ?? wearing.defaultSlim ?? defaultModelIsSlim(wearing.playerUuid);

/**
 * How long a resolved identifier (player or skin to texture digests) is reused. A change made through this
 * instance clears them at once; another instance's change shows here within this time (images are cached by
 * browsers for 60 s anyway). Measured: resolving costs more than serving a cached render.
 */
export const RESOLUTION_TTL_MS = 2_000;
/** What a resolution holds at most, beyond its cache entry: a player UUID and two digests, and three small objects. */
const RESOLUTION_BYTES = 2 * (36 + 64 + 64) + 3 * 64;

/** The memory of the image service's own three caches, in bytes. */
export interface ImageCacheBudgets {
  /** whole answers by request URL, for RESOLUTION_TTL_MS */
  answers: number;
  /** identifiers resolved to texture digests, for RESOLUTION_TTL_MS */
  resolutions: number;
  /** rendered images by what they show */
  renders: number;
}

/**
 * RENDER_CACHE_MB shared among the five image caches, adding up to it exactly (the renders take the rounding).
 * Renders cost the most to make again (0.2 to 12 ms each), decoded textures next; texture files are small; answers
 * and resolutions only spare a few microseconds of a repeat within RESOLUTION_TTL_MS. docs/performance.md.
 */
export function imageCacheBudgets(totalBytes: number): { images: ImageCacheBudgets; textures: TextureCacheBudgets } {
  const sixteenth = Math.floor(totalBytes / 16);
  return {
    images: { answers: sixteenth, resolutions: sixteenth, renders: totalBytes - 7 * sixteenth },
    textures: { files: sixteenth, decoded: 4 * sixteenth },
  };
}

/** The answer marked immutable when it was found by texture digests alone (contract section 25). */
const immutableIf = (byTexture: boolean | undefined, image: ImageResult): ImageResult =>
  byTexture ? { ...image, immutable: true } : image;

interface CachedImage extends ImageResult {
  byteLength: number;
}

const cachedImage = (image: ImageResult): CachedImage => {
  const png = ownedBytes(image.png);
  return { ...image, png, byteLength: png.byteLength + 2 * image.etag.length };
};

export class ImageService {
  private readonly renders: ByteBudgetCache<CachedImage>;
  private readonly resolutions: ByteBudgetCache<{ value: Wearing | string; byteLength: number }>;
  /** Whole answers by request URL, stored only once the URL passed validation; cleared with the resolutions. */
  private readonly answers: ByteBudgetCache<CachedImage>;
  private readonly defaultSkins: Record<'true' | 'false', { image: RgbaImage; png: Buffer; digest: string }>;
  private readonly players;
  private readonly skinByUuid;
  private readonly capeByUuid;
  private readonly skinByTexture;
  private readonly capeByTexture;
  /** Renders being drawn, by key, for those who ask for the same one meanwhile (drawOnce). */
  private readonly drawing = new Map<string, Promise<CachedImage>>();
  /** The answer of recentSkin(), until the next change to skins or selections (forgetResolutions). */
  private recent: Promise<RecentSkin | null> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly library: TextureLibrary,
    private readonly clock: Clock,
    private readonly publicUrl: string,
    budgets: ImageCacheBudgets,
    private readonly renderQueue: RenderQueue,
  ) {
    const expiry = { ttlMs: RESOLUTION_TTL_MS, now: () => this.clock.now() };
    this.renders = new ByteBudgetCache(budgets.renders);
    this.resolutions = new ByteBudgetCache(budgets.resolutions, expiry);
    this.answers = new ByteBudgetCache(budgets.answers, expiry);
    const prepareDefault = (slim: boolean) => {
      const image = defaultSkin(slim);
      const png = encodePng(image);
      return { image, png, digest: digestOf(png) };
    };
    this.defaultSkins = { false: prepareDefault(false), true: prepareDefault(true) };

    this.players = playerWearingLookups(db);
    this.skinByUuid = reusableQuery(db, { key: '\u0000skin-uuid' }, ({ key }) =>
      db
        .selectFrom('skins')
        // The linked cape only while the skin's owner owns it (the rule of textures/worn.ts).
        .leftJoin('cape_owners', (join) =>
          join.onRef('cape_owners.cape_id', '=', 'skins.cape_id').onRef('cape_owners.user_id', '=', 'skins.user_id'),
        )
        .leftJoin('capes', 'capes.id', 'cape_owners.cape_id')
        .select(['skins.texture_digest', 'skins.slim', 'capes.texture_digest as cape_digest'])
        .where('skins.uuid', '=', key),
    );
    this.capeByUuid = reusableQuery(db, { key: '\u0000cape-uuid' }, ({ key }) =>
      db.selectFrom('capes').select('texture_digest').where('uuid', '=', key),
    );
    // A texture some skin (or cape) has: one row however many have it.
    const textureOf = (kind: 'skins' | 'capes', key: string) =>
      db
        .selectFrom('textures')
        .select('digest as texture_digest')
        .where('digest', '=', key)
        .where((where) => where.exists(where.selectFrom(kind).select('id').whereRef(`${kind}.texture_digest`, '=', 'textures.digest')));
    this.skinByTexture = reusableQuery(db, { key: '\u0000skin-texture' }, ({ key }) => textureOf('skins', key));
    this.capeByTexture = reusableQuery(db, { key: '\u0000cape-texture' }, ({ key }) => textureOf('capes', key));
  }

  /** Forgets every resolved identifier: called after any change to skins, capes or selections. */
  forgetResolutions() {
    this.resolutions.clear();
    this.answers.clear();
    this.recent = null;
  }

  /**
   * The newest skin that a player wears (the primary profile's choice), of an account in good standing (registration
   * finished, mail confirmed or exempt, not banned), for the front page's figure; null when nobody wears one. One
   * query, shared by every caller until a skin or a choice changes.
   */
  recentSkin(): Promise<RecentSkin | null> {
    this.recent ??= this.db
      .selectFrom('users')
      .innerJoin('skins', 'skins.id', 'users.selected_skin_id')
      .select(['skins.texture_digest', 'skins.slim'])
      .where('users.username', 'is not', null)
      .where(permsAt(this.clock.now()), '<>', LEVELS.banned)
      .where((where) => where.or([where('users.mail_verify', '=', 1), where('users.mail_verification', '=', 0)]))
      .orderBy('skins.id', 'desc')
      .limit(1)
      .executeTakeFirst()
      .then(
        (row) => (row ? { url: textureUrl(this.publicUrl, row.texture_digest), digest: row.texture_digest, slim: row.slim === 1 } : null),
        (error: unknown) => {
          this.recent = null;
          throw error;
        },
      );
    return this.recent;
  }

  /** The image answered to this exact request URL within RESOLUTION_TTL_MS, if any. */
  recentAnswer(requestUrl: string): ImageResult | undefined {
    return this.answers.get(requestUrl);
  }

  /** Call only once the request passed validation: a URL the routes would refuse must never become a key. */
  rememberAnswer(requestUrl: string, image: ImageResult) {
    this.answers.set(requestUrl, cachedImage(image));
  }

  /** A repeat answered by recentAnswer() never reaches the render cache; both count as cache hits. */
  cacheCounts() {
    return { answerHits: this.answers.hits, renderHits: this.renders.hits, renderMisses: this.renders.misses };
  }

  /** Bytes held and budget of each of the five image caches, the texture library's two included. */
  cacheMemory(): Record<keyof ImageCacheBudgets | keyof TextureCacheBudgets, CacheMemory> {
    return {
      answers: this.answers.memory(),
      resolutions: this.resolutions.memory(),
      renders: this.renders.memory(),
      ...this.library.cacheMemory(),
    };
  }

  /** Reuses a found (never a missing) resolution for RESOLUTION_TTL_MS. */
  private async resolved<T extends Wearing | string>(key: string, resolve: () => Promise<T | null>): Promise<T | null> {
    const hit = this.resolutions.get(key);
    if (hit) return hit.value as T;
    const value = await resolve();
    if (value !== null) this.resolutions.set(key, { value, byteLength: RESOLUTION_BYTES });
    return value;
  }

  /**
   * A player (UUID or username), a skin UUID, or the digest of a skin's texture; every spelling of one identifier
   * shares one resolution.
   */
  private wearing(identifier: string): Promise<Wearing | null> {
    const digest = textureDigestOf(identifier);
    if (digest) return this.resolved(`wearing-texture:${digest}`, () => this.lookUpSkinTexture(digest));
    const uuid = normalizeUuid(identifier);
    const key = uuid ? `wearing:${uuid}` : `wearing-name:${usernameKey(identifier)}`;
    return this.resolved(key, () => this.lookUpWearing(uuid, identifier));
  }

  private async lookUpWearing(uuid: string | null, identifier: string): Promise<Wearing | null> {
    const player = uuid ? await this.players.byUuid(uuid) : await this.players.byUsernameKey(usernameKey(identifier));
    if (player) return { playerUuid: player.uuid, username: player.username, skin: player.skin, cape: player.cape };
    if (!uuid) return null;
    const [skin] = await this.skinByUuid({ key: uuid });
    if (!skin) return null;
    return {
      playerUuid: null,
      username: null,
      skin: { digest: skin.texture_digest, slim: skin.slim === 1 },
      cape: skin.cape_digest ? { digest: skin.cape_digest } : null,
    };
  }

  /**
   * A skin texture by its digest: drawn with the model its pixels show (isSlimSkin), the one fact about it that cannot
   * change, since the answer is immutable (a skin row's `slim` flag can be changed by its owner or an admin).
   */
  private async lookUpSkinTexture(digest: string): Promise<Wearing | null> {
    const [skin] = await this.skinByTexture({ key: digest });
    if (!skin) return null;
    const slim = isSlimSkin(await this.library.image(digest));
    return { playerUuid: null, username: null, skin: { digest, slim }, cape: null, byTexture: true };
  }

  private async mustWear(identifier: string): Promise<Wearing> {
    const wearing = await this.wearing(identifier);
    if (!wearing) throw notFound('images.noPlayerOrSkin', { identifier });
    return wearing;
  }

  /**
   * Drop-in URLs: an identifier nobody has is drawn as a player without a skin (contract section 13): a UUID with the
   * model the game gives it (section 25), a name classic, unless `rules` choose.
   */
  private async wearingOrNobody(identifier: string, rules: DefaultRules): Promise<Wearing> {
    const wearing = (await this.wearing(identifier)) ?? { playerUuid: normalizeUuid(identifier), username: null, skin: null, cape: null };
    return rules.withoutSkin && !wearing.skin ? { ...wearing, defaultSlim: rules.withoutSkin === 'slim' } : wearing;
  }

  /** The CustomSkinAPI profile of a player by name, or null when no player has that name. */
  async customSkinProfile(name: string): Promise<CustomSkinProfile | null> {
    if (normalizeUuid(name)) return null;
    const wearing = await this.wearing(name);
    if (!wearing?.username) return null;
    return { username: wearing.username, skin: wearing.skin, cape: wearing.cape };
  }

  /** The texture of a cape named by its UUID or by its texture digest; null for anything else. */
  private capeDigest(identifier: string): Promise<string | null> {
    const digest = textureDigestOf(identifier);
    if (digest)
      return this.resolved(`cape-texture:${digest}`, async () => (await this.capeByTexture({ key: digest }))[0]?.texture_digest ?? null);
    const uuid = normalizeUuid(identifier);
    if (!uuid) return Promise.resolve(null);
    return this.resolved(`cape:${uuid}`, async () => (await this.capeByUuid({ key: uuid }))[0]?.texture_digest ?? null);
  }

  /**
   * `{}` for an identifier nothing has, as for a player without textures: a GravitLauncher LaunchServer 5.7 fails
   * the player's login on any non-2xx answer here (contract section 7).
   */
  async launcherDocument(identifier: string): Promise<LauncherDocument> {
    const wearing = await this.wearing(identifier);
    const document: LauncherDocument = {};
    if (!wearing) return document;
    const path = wearing.playerUuid ?? identifier;
    const link = (route: string, digest: string) => ({ url: `${this.publicUrl}${route}/${path}`, digest, hash: digest });
    if (wearing.skin) {
      document.SKIN = link('/api/skin/cloak', wearing.skin.digest);
      if (wearing.skin.slim) document.SKIN.metadata = { model: 'slim' };
    }
    if (wearing.cape) document.CAPE = link('/api/skin/standart/cape', wearing.cape.digest);
    return document;
  }

  /**
   * `/api/skin/cloak/:id`: a cape (by UUID or texture digest) is the cloak image; anything else is a player (or skin,
   * or skin texture) and its skin file.
   */
  async cloakPath(identifier: string, type: RenderType, size: number, options: RenderOptions): Promise<ImageResult> {
    const capeDigest = await this.capeDigest(identifier);
    if (capeDigest) {
      const cloak = { playerUuid: null, username: null, skin: null, cape: { digest: capeDigest } };
      return this.render('cloak', type, size, textureDigestOf(identifier) ? { ...cloak, byTexture: true } : cloak, options);
    }
    return this.skinFile(identifier);
  }

  /** The skin texture a player wears (the default skin when they have none) or that a skin UUID names. */
  async skinFile(identifier: string): Promise<ImageResult> {
    return this.skinFileOf(await this.mustWear(identifier));
  }

  /** Drop-in URLs: the skin file of anyone, the default skin `rules` choose for one without a skin or unknown. */
  async skinFileOrDefault(identifier: string, rules: DefaultRules = {}): Promise<ImageResult> {
    return this.skinFileOf(await this.wearingOrNobody(identifier, rules));
  }

  private async skinFileOf(wearing: Wearing): Promise<ImageResult> {
    if (wearing.skin) {
      return immutableIf(wearing.byTexture, { png: await this.library.png(wearing.skin.digest), etag: `"${wearing.skin.digest}"` });
    }
    const fallback = this.defaultSkins[`${slimOf(wearing)}`];
    return { png: fallback.png, etag: `"${fallback.digest}"` };
  }

  /** `/api/skin/standart/cape/:uuid`: a cape (by UUID or texture digest), or the cape a player (or skin) wears. */
  async capeFile(identifier: string): Promise<ImageResult> {
    const cape = await this.capeDigest(identifier);
    const digest = cape ?? (await this.mustWear(identifier)).cape?.digest;
    if (!digest) throw notFound('images.noCapeWorn', { identifier });
    return immutableIf(cape !== null && textureDigestOf(identifier) !== null, { png: await this.library.png(digest), etag: `"${digest}"` });
  }

  /** A stored texture by its digest (`/textures/{hash}`). */
  async textureFile(digest: string): Promise<ImageResult> {
    const png = await this.library.pngIfStored(digest);
    if (!png) throw notFound('images.noTexture', { digest });
    return { png, etag: `"${digest}"` };
  }

  async playerImage(view: PlayerView, identifier: string, type: RenderType, size: number, options: RenderOptions): Promise<ImageResult> {
    return this.render(view, type, size, await this.mustWear(identifier), options);
  }

  /** Drop-in URLs: the image of anyone, drawn with the default skin `rules` choose for one without a skin or unknown. */
  async imageOrDefault(
    view: PlayerView,
    identifier: string,
    type: RenderType,
    size: number,
    options: RenderOptions & DefaultRules,
  ): Promise<ImageResult> {
    return this.render(view, type, size, await this.wearingOrNobody(identifier, options), options);
  }

  private async render(view: RenderView, type: RenderType, size: number, wearing: Wearing, options: RenderOptions): Promise<ImageResult> {
    const slim = slimOf(wearing);
    const overlay = options.overlay ?? true;
    const skinKey = wearing.skin?.digest ?? DEFAULT_SKIN_KEY[`${slim}`];
    // Only the cloak views show the cape; a cape change must not invalidate heads and bodies.
    const capeKey = view === 'cloak' ? wearing.cape?.digest : undefined;
    // The keys (and so the ETags) of images with the second layer are those they had before `overlay` existed.
    const key = `${view}/${type}/${size}/${skinKey}/${slim ? 'slim' : 'classic'}/${capeKey ?? '-'}${overlay ? '' : '/base'}`;
    const cached = this.renders.get(key);
    if (cached) return immutableIf(wearing.byTexture, cached);
    const etag = `"${createHash('sha1').update(key).digest('base64url')}"`;
    // A revalidation is answered from the key alone: a 304 never draws, so it is never limited.
    if (matchesEtag(options.client.ifNoneMatch, etag)) return { png: Buffer.alloc(0), etag, unchanged: true };
    const draw = async () => {
      const skin = wearing.skin ? await this.library.image(wearing.skin.digest) : this.defaultSkins[`${slim}`].image;
      const cape = capeKey ? await this.library.image(capeKey) : undefined;
      // Requests that came in meanwhile (cached images, logins) are answered before this render holds the loop.
      await nextTurn();
      const rendered = cachedImage({
        png: renderImage({ view, type, size, skin, slim, cape, overlay, minimumSize: options.minimumSize }),
        etag,
      });
      this.renders.set(key, rendered);
      return rendered;
    };
    return immutableIf(wearing.byTexture, await this.drawOnce(key, options.client.address, draw));
  }

  /**
   * Draws the image `key` within the render budget of `address` (render-queue.ts), once however many ask for it at the
   * same moment: the others wait for that drawing and count nothing. If it is refused (its client's limit, a full
   * queue), each of them asks for itself.
   */
  private async drawOnce(key: string, address: string, draw: () => Promise<CachedImage>): Promise<CachedImage> {
    const drawing = this.drawing.get(key);
    if (drawing) {
      try {
        return await drawing;
      } catch {
        // Refused for another client: this one's own budget decides below.
      }
    }
    const own = this.renderQueue.run(address, draw);
    this.drawing.set(key, own);
    try {
      return await own;
    } finally {
      if (this.drawing.get(key) === own) this.drawing.delete(key);
    }
  }
}
