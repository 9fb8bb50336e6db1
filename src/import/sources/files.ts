// What the source readers share: texture files read on demand from the source's folder (only regular files inside
// it: no link leads out, no FIFO or device is opened for reading, never more than a bound), and id lists for IN (…).
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { SourceFile } from '../model.ts';

/** Larger than any texture the service accepts (MAX_TEXTURE_BYTES is at most 16 MiB): reading stops there. */
const MAX_FILE_BYTES = 16 * 1024 * 1024 + 1;

const MISSING = 'the file is missing';
const OUTSIDE = 'the file is a link out of the texture folder';
const NOT_REGULAR = 'not a regular file (a folder, a FIFO or a device)';

/**
 * A reader of files under `folder` (the --textures option); without a folder every file is missing. A file is read
 * when its real path (links resolved) is inside the folder's real path and it is a regular file; it is opened
 * without following a link and without blocking (a FIFO would otherwise wait for a writer), and checked on the handle.
 */
export function fileReader(folder: string | undefined): (path: string) => SourceFile {
  let root: Promise<string | null> | null = null;
  const rootOf = () => (root ??= folder === undefined ? Promise.resolve(null) : realpath(resolve(folder)).catch(() => null));
  return (path) => async () => {
    const base = await rootOf();
    if (base === null) return MISSING;
    const named = resolve(base, path);
    if (!named.startsWith(base + sep)) return MISSING; // a name from the source must not lead out of the folder
    const real = await realpath(named).catch(() => null);
    if (real === null) return MISSING;
    if (!real.startsWith(base + sep)) return OUTSIDE;
    const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => null);
    if (!handle) return MISSING;
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) return NOT_REGULAR;
      // Sized by the file, read to its end or one byte past the largest texture accepted (which is then refused).
      const buffer = Buffer.alloc(Math.min(stats.size + 1, MAX_FILE_BYTES));
      let size = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, size, buffer.length - size, null);
        size += bytesRead;
        if (bytesRead === 0 || size === buffer.length) return buffer.subarray(0, size);
      }
    } finally {
      await handle.close();
    }
  };
}

/** Numbers for an IN (…) list, checked to be numbers (they come from the source). */
export const idList = (ids: number[]) => ids.filter((id) => Number.isSafeInteger(id)).join(', ') || 'NULL';
