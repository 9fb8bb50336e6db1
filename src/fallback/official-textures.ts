// What a linked account wears at its source (contract section 20): its profile read uncached, its textures fetched
// only from the source's texture hosts and bounded in size; and the background pass of MOJANG_FALLBACK=skins that
// reads them again every MOJANG_CACHE_TTL and stores them as the textures the linked profile wears.
import type { Kysely, Transaction } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Database } from '../database/schema.ts';
import type { FallbackSettings } from '../settings.ts';
import { canonicalTexture } from '../textures/canonical.ts';
import type { TextureLibrary } from '../textures/library.ts';
import { askSource } from './client.ts';
import type { FallbackSource } from './sources.ts';

/** A source that does not answer within this counts as unavailable (the player tries again). */
export const SOURCE_TIMEOUT_MS = 5_000;
/** How many links the background loop reads again in one pass. */
const REFRESH_BATCH = 20;

/** What a source says an account wears now. */
export interface OfficialTextures {
  skin: { png: Buffer; slim: boolean } | null;
  cape: { png: Buffer } | null;
}

/** What reading the official textures of links needs. */
export interface OfficialTextureDeps {
  db: Kysely<Database>;
  clock: Clock;
  settings: FallbackSettings;
  sources: FallbackSource[];
  library: TextureLibrary;
  maxTextureBytes: number;
  maxSkinWidth: number;
  /** Told after a change to what a profile wears (cached images resolve it anew). */
  texturesChanged: () => void;
}

/**
 * The account's profile at the source (unsigned, uncached) and the textures it names, each fetched only from the
 * source's texture hosts and at most MAX_TEXTURE_BYTES. null: the source did not answer; an account without a skin
 * (or a URL on another host) has `skin: null`.
 */
export async function officialTextures(
  source: FallbackSource,
  uuid: string,
  signal: AbortSignal,
  maxTextureBytes: number,
): Promise<OfficialTextures | null> {
  const answer = await askSource(`${source.sessionBase}profile/${uuid.replace(/-/g, '')}`, signal);
  if (!answer) return null;
  if (answer.status !== 200) return { skin: null, cape: null };
  const property = ((answer.body as { properties?: { name?: unknown; value?: unknown }[] })?.properties ?? []).find(
    (candidate) => candidate?.name === 'textures' && typeof candidate.value === 'string',
  );
  let textures: { SKIN?: { url?: unknown; metadata?: { model?: unknown } }; CAPE?: { url?: unknown } } = {};
  try {
    textures = property ? (JSON.parse(Buffer.from(property.value as string, 'base64').toString('utf8')).textures ?? {}) : {};
  } catch {
    textures = {};
  }
  const fetchTexture = async (url: unknown) =>
    typeof url === 'string' && source.servesTexturesFrom(url) ? await download(url, signal, maxTextureBytes) : null;
  const skinPng = await fetchTexture(textures.SKIN?.url);
  const capePng = await fetchTexture(textures.CAPE?.url);
  return {
    skin: skinPng ? { png: skinPng, slim: textures.SKIN?.metadata?.model === 'slim' } : null,
    cape: capePng ? { png: capePng } : null,
  };
}

/** A texture's bytes, bounded by MAX_TEXTURE_BYTES; null when it cannot be had. */
async function download(url: string, signal: AbortSignal, maxBytes: number): Promise<Buffer | null> {
  try {
    const response = await fetch(url, { redirect: 'error', signal });
    if (response.status !== 200 || !response.body) {
      await response.body?.cancel();
      return null;
    }
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    for await (const chunk of response.body) {
      bytes += chunk.byteLength;
      if (bytes > maxBytes) return null;
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  } catch {
    return null;
  }
}

/** Reads again the official textures of links last read more than MOJANG_CACHE_TTL ago, a batch at a time. */
export async function refreshStaleLinks(deps: OfficialTextureDeps): Promise<void> {
  const now = deps.clock.now();
  const stale = await deps.db
    .selectFrom('premium_links')
    .select(['id', 'source', 'premium_uuid', 'skin_digest', 'cape_digest'])
    .where('profile_id', 'is not', null)
    .where('textures_at', '<=', now - deps.settings.cacheTtlSeconds * 1000)
    .orderBy('textures_at')
    .limit(REFRESH_BATCH)
    .execute();
  let changed = false;
  for (const link of stale) {
    const source = deps.sources.find((candidate) => candidate.key === link.source);
    if (!source) continue;
    await source.readMetadata();
    const textures = await officialTextures(source, link.premium_uuid, AbortSignal.timeout(SOURCE_TIMEOUT_MS), deps.maxTextureBytes);
    if (!textures) continue;
    let skin = textures.skin ? await canonicalOrNull(textures.skin.png, 'skin', deps.maxSkinWidth) : null;
    let cape = textures.cape ? await canonicalOrNull(textures.cape.png, 'cape', deps.maxSkinWidth) : null;
    const fresh = [skin, cape].filter((texture) => texture !== null);
    const write = async (trx: Transaction<Database>) => {
      await trx
        .updateTable('premium_links')
        .set({
          skin_digest: skin?.digest ?? null,
          skin_slim: textures.skin?.slim ? 1 : 0,
          cape_digest: cape?.digest ?? null,
          textures_at: deps.clock.now(),
        })
        .where('id', '=', link.id)
        .execute();
    };
    // A picture admins blocked is not worn: the link lends nothing until the official one changes.
    const stored = await deps.library.withTextures(fresh, write).then(
      () => true,
      () => false,
    );
    if (!stored) {
      skin = null;
      cape = null;
      await deps.db.transaction().execute(write);
    }
    const released = [link.skin_digest, link.cape_digest].filter(
      (digest): digest is string => digest !== null && digest !== skin?.digest && digest !== cape?.digest,
    );
    if (released.length > 0) await deps.library.releasing(async () => ({ result: null, released }));
    changed ||= link.skin_digest !== (skin?.digest ?? null) || link.cape_digest !== (cape?.digest ?? null);
  }
  if (changed) deps.texturesChanged();
}

async function canonicalOrNull(png: Buffer, kind: 'skin' | 'cape', maxWidth: number) {
  try {
    return await canonicalTexture(png, kind, maxWidth);
  } catch {
    return null;
  }
}
