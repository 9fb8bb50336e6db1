// Texture rows and bytes together, so that neither exists without the other:
// bytes are written before the row commits, and removed only after the last row referring to them is gone.
import type { Kysely, Transaction } from 'kysely';
import { ByteBudgetCache, ownedBytes, type CacheMemory } from '../caching/byte-budget-cache.ts';
import type { Clock } from '../clock.ts';
import type { Database, Executor } from '../database/schema.ts';
import { forbidden } from '../http/envelope.ts';
import { openPng } from '../rendering/png-decode.ts';
import type { RgbaImage } from '../skin/texture.ts';
import type { CanonicalTexture } from './canonical.ts';
import type { TextureStore } from './store.ts';

interface CachedImage {
  image: RgbaImage;
  byteLength: number;
}

/** The memory of the library's two caches, in bytes. */
export interface TextureCacheBudgets {
  /** texture files as stored (PNG) */
  files: number;
  /** decoded textures, 4 bytes a pixel */
  decoded: number;
}

export class TextureLibrary {
  private readonly pngs: ByteBudgetCache<Buffer>;
  private readonly images: ByteBudgetCache<CachedImage>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly store: TextureStore,
    private readonly clock: Clock,
    budgets: TextureCacheBudgets,
  ) {
    this.pngs = new ByteBudgetCache(budgets.files);
    this.images = new ByteBudgetCache(budgets.decoded);
  }

  /**
   * Runs `work` in a transaction in which `texture` exists. Its bytes are written after `work` and before the
   * commit: a refusal thrown by `work` (the skin limit) or a failed constraint leaves nothing behind.
   */
  async withTexture<T>(texture: CanonicalTexture, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.withTextures([texture], work);
  }

  /** withTexture for several textures at once (an imported account's wardrobe comes in whole or not at all). */
  async withTextures<T>(textures: CanonicalTexture[], work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    const unique = distinct(textures);
    const result = await this.db.transaction().execute(async (trx) => {
      await this.insertRows(trx, unique);
      const result = await work(trx);
      for (const texture of unique) await this.store.write(texture.digest, texture.png);
      return result;
    });
    // A delete that committed between our write and our commit may have removed the bytes; put them back.
    for (const texture of unique) await this.store.write(texture.digest, texture.png);
    return result;
  }

  /** withTextures rolled back at its end, writing no bytes: a dry run meets every constraint and changes nothing. */
  async triedWithTextures<T>(textures: CanonicalTexture[], work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    const undo = Symbol('dry run');
    let result!: T;
    try {
      await this.db.transaction().execute(async (trx) => {
        await this.insertRows(trx, distinct(textures));
        result = await work(trx);
        throw undo;
      });
    } catch (error) {
      if (error !== undo) throw error;
    }
    return result;
  }

  private async insertRows(trx: Transaction<Database>, textures: CanonicalTexture[]) {
    // Every way a texture comes in (web, game login, import) passes here: a blocked picture stores nothing.
    for (const texture of textures) await checkNotBlocked(trx, texture.digest);
    for (const texture of textures) {
      await trx
        .insertInto('textures')
        .values({
          digest: texture.digest,
          width: texture.image.width,
          height: texture.image.height,
          byte_size: texture.png.length,
          data: this.store.inDatabase ? texture.png : null,
          created_at: this.clock.now(),
        })
        .onConflict((conflict) => conflict.column('digest').doNothing())
        .execute();
    }
  }

  /**
   * Runs `work` in a transaction; `work` returns the digests whose references it removed. Those no skin or cape
   * refers to any more are deleted with the transaction, and their bytes after it.
   */
  async releasing<T>(work: (trx: Transaction<Database>) => Promise<{ result: T; released: string[] }>): Promise<T> {
    const { result, unused } = await this.db.transaction().execute(async (trx) => {
      const { result, released } = await work(trx);
      const unused: string[] = [];
      for (const digest of new Set(released)) if (await this.deleteRowIfUnused(trx, digest)) unused.push(digest);
      return { result, unused };
    });
    for (const digest of unused) await this.removeBytesIfRowGone(digest);
    return result;
  }

  /** Bytes held and budget of each cache, for the metrics. */
  cacheMemory(): Record<keyof TextureCacheBudgets, CacheMemory> {
    return { files: this.pngs.memory(), decoded: this.images.memory() };
  }

  async png(digest: string): Promise<Buffer> {
    const cached = this.pngs.get(digest);
    if (cached) return cached;
    const read = await this.store.read(digest);
    if (!read) throw new Error(`texture ${digest} has a row but no bytes`);
    const png = ownedBytes(read);
    this.pngs.set(digest, png);
    return png;
  }

  /** The bytes of a stored texture, or null when no texture has this digest (a URL made up or gone stale). */
  async pngIfStored(digest: string): Promise<Buffer | null> {
    if (this.pngs.get(digest)) return this.png(digest);
    const row = await this.db.selectFrom('textures').select('digest').where('digest', '=', digest).executeTakeFirst();
    return row ? this.png(digest) : null;
  }

  /**
   * The decoded texture; decoding happens once per texture while it stays in the cache. It streams, like an upload's:
   * a texture at the largest MAX_SKIN_WIDTH would otherwise hold its 64 MiB of rows and the event loop at once.
   */
  async image(digest: string): Promise<RgbaImage> {
    const cached = this.images.get(digest);
    if (cached) return cached.image;
    const image = await openPng(await this.png(digest)).decode();
    this.images.set(digest, { image, byteLength: image.data.byteLength });
    return image;
  }

  /** Deletes rows nothing refers to and bytes no row refers to; run at start to clean up after a crash. */
  async sweep(): Promise<number> {
    const unreferenced = await this.db
      .selectFrom('textures')
      .select('digest')
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('skins').select('skins.id').whereRef('skins.texture_digest', '=', 'textures.digest'))),
      )
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('capes').select('capes.id').whereRef('capes.texture_digest', '=', 'textures.digest'))),
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('premium_links')
              .select('premium_links.id')
              .where((eb) =>
                eb.or([
                  eb('premium_links.skin_digest', '=', eb.ref('textures.digest')),
                  eb('premium_links.cape_digest', '=', eb.ref('textures.digest')),
                ]),
              ),
          ),
        ),
      )
      .execute();
    for (const { digest } of unreferenced) await this.releasing(async () => ({ result: null, released: [digest] }));
    const live = new Set((await this.db.selectFrom('textures').select('digest').execute()).map((row) => row.digest));
    return unreferenced.length + (await this.store.sweep(live));
  }

  private async deleteRowIfUnused(trx: Transaction<Database>, digest: string): Promise<boolean> {
    const skin = await trx.selectFrom('skins').select('id').where('texture_digest', '=', digest).limit(1).executeTakeFirst();
    const cape = await trx.selectFrom('capes').select('id').where('texture_digest', '=', digest).limit(1).executeTakeFirst();
    // The official textures a premium link lends (src/fallback/premium.ts) are references too.
    const lent = await trx
      .selectFrom('premium_links')
      .select('id')
      .where((eb) => eb.or([eb('skin_digest', '=', digest), eb('cape_digest', '=', digest)]))
      .limit(1)
      .executeTakeFirst();
    if (skin || cape || lent) return false;
    await trx.deleteFrom('textures').where('digest', '=', digest).execute();
    return true;
  }

  private async removeBytesIfRowGone(digest: string) {
    // An upload of the same texture may have recreated the row since our commit; its bytes must stay.
    await this.store.remove(
      digest,
      async () => (await this.db.selectFrom('textures').select('digest').where('digest', '=', digest).executeTakeFirst()) !== undefined,
    );
  }
}

/** 403 when admins blocked this picture (contract section 19). */
export async function checkNotBlocked(db: Executor, digest: string): Promise<void> {
  const blocked = await db.selectFrom('texture_blocks').select('digest').where('digest', '=', digest).executeTakeFirst();
  if (blocked) throw forbidden('textures.blocked');
}

/** One of each picture: the same digest twice would be one row and one file. */
const distinct = (textures: CanonicalTexture[]) => [...new Map(textures.map((texture) => [texture.digest, texture])).values()];
