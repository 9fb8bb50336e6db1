// Where texture bytes live. Files under DATA_DIR/textures (default), or the textures.data column
// (TEXTURE_STORE=database), for several instances that share one PostgreSQL and no disk.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../database/schema.ts';
import type { Settings } from '../settings.ts';

export interface TextureStore {
  /** true: the bytes travel in the textures row itself, written in the same transaction. */
  readonly inDatabase: boolean;
  /** Makes the bytes durable before the row that refers to them commits; does nothing when they are there. */
  write(digest: string, png: Buffer): Promise<void>;
  read(digest: string): Promise<Buffer | null>;
  /**
   * Removes the bytes of a texture whose row was deleted, unless `rowExists()`, asked once the bytes are set aside,
   * says an upload of the same texture has committed a new row since.
   */
  remove(digest: string, rowExists: () => Promise<boolean>): Promise<void>;
  /** Removes bytes that no row refers to (left by a crash between a commit and a file removal). */
  sweep(liveDigests: Set<string>): Promise<number>;
}

/** How old a stray file must be before the start-up sweep removes it. */
export const SWEEP_GRACE_MS = 10 * 60_000;

export class FileTextureStore implements TextureStore {
  readonly inDatabase = false;

  constructor(private readonly dir: string) {}

  private pathOf(digest: string) {
    return join(this.dir, digest.slice(0, 2), `${digest}.png`);
  }

  async write(digest: string, png: Buffer) {
    const path = this.pathOf(digest);
    if (await exists(path)) return;
    // Readable by the service only, like everything in DATA_DIR (whatever the umask of whoever started it).
    await mkdir(join(this.dir, digest.slice(0, 2)), { recursive: true, mode: 0o700 });
    // A temporary name, then rename: a crash never leaves a half-written texture under its real name.
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temporary, png, { mode: 0o600 });
    await rename(temporary, path);
  }

  async read(digest: string) {
    try {
      return await readFile(this.pathOf(digest));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async remove(digest: string, rowExists: () => Promise<boolean>) {
    // Set aside first, then look. An upload whose row commits after the look writes the bytes again after its
    // commit, and only the set-aside name is ever unlinked, so those bytes stay. (Looking first and unlinking the
    // real name after could remove bytes an upload wrote between the two.) A crash leaves a .tmp for the sweep.
    const path = this.pathOf(digest);
    const aside = `${path}.${randomBytes(6).toString('hex')}.removing.tmp`;
    try {
      await rename(path, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    // Putting the bytes back may replace an upload's copy of them: the same bytes, since the name is their digest.
    if (await rowExists()) await rename(aside, path);
    else await unlink(aside);
  }

  /**
   * Removes what a crash left: temporary files and files no texture row names. Only files older than
   * SWEEP_GRACE_MS: with several processes on one directory (WORKERS), a file this young may belong to an upload
   * in flight in another process, whose row is not committed yet.
   */
  async sweep(liveDigests: Set<string>, now = Date.now()) {
    let removed = 0;
    const entries = await readdir(this.dir, { recursive: true }).catch(() => [] as string[]);
    for (const entry of entries) {
      const name = String(entry).split(/[\\/]/).pop()!;
      const digest = name.endsWith('.png') ? name.slice(0, -4) : null;
      if (!name.endsWith('.tmp') && (digest === null || liveDigests.has(digest))) continue;
      const path = join(this.dir, String(entry));
      const modified = await stat(path).then(
        (stats) => stats.mtimeMs,
        () => now,
      );
      if (now - modified < SWEEP_GRACE_MS) continue;
      await unlink(path).catch(() => {});
      removed += 1;
    }
    return removed;
  }
}

export class DatabaseTextureStore implements TextureStore {
  readonly inDatabase = true;

  constructor(private readonly db: Kysely<Database>) {}

  async write() {}

  async read(digest: string) {
    const row = await this.db.selectFrom('textures').select('data').where('digest', '=', digest).executeTakeFirst();
    return row?.data ? Buffer.from(row.data) : null;
  }

  async remove() {}

  async sweep() {
    return 0;
  }
}

async function exists(path: string) {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** The store TEXTURE_STORE names: files under DATA_DIR/textures, or the textures table. */
export const textureStoreOf = (settings: Pick<Settings, 'textureStore' | 'dataDir'>, db: Kysely<Database>): TextureStore =>
  settings.textureStore === 'database' ? new DatabaseTextureStore(db) : new FileTextureStore(join(settings.dataDir, 'textures'));
