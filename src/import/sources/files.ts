// What the source readers share: texture files read on demand from the source's folder (never outside it, never
// more than a bound), and id lists for IN (…) clauses.
import { open } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { SourceFile } from '../model.ts';

/** Larger than any texture the service accepts (MAX_TEXTURE_BYTES is at most 16 MiB): reading stops there. */
const MAX_FILE_BYTES = 16 * 1024 * 1024 + 1;

/** A reader of files under `folder` (the --textures option); without a folder every file is missing. */
export function fileReader(folder: string | undefined): (path: string) => SourceFile {
  const root = folder === undefined ? null : resolve(folder);
  return (path) => async () => {
    if (root === null) return null;
    const full = resolve(root, path);
    if (!full.startsWith(root + sep)) return null; // a name from the source must not lead out of the folder
    const handle = await open(full, 'r').catch(() => null);
    if (!handle) return null;
    try {
      // Sized by the file, read to its end or one byte past the largest texture accepted (which is then refused).
      const buffer = Buffer.alloc(Math.min((await handle.stat()).size + 1, MAX_FILE_BYTES));
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
