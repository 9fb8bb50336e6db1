// PNG files built chunk by chunk for the reader's tests: valid ones around chosen image data, and damaged ones.
import { resourceUsage } from 'node:process';
import { createDeflate, crc32 } from 'node:zlib';

export const MiB = 1024 * 1024;

/** One chunk: length, type, content and the CRC of type and content. */
export function chunk(type: string, content: Buffer): Buffer {
  const out = Buffer.alloc(12 + content.length);
  out.writeUInt32BE(content.length, 0);
  out.write(type, 4, 'latin1');
  content.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + content.length)), 8 + content.length);
  return out;
}

/** The IHDR chunk of an RGBA image. */
export function rgbaHeader(width: number, height: number, { bitDepth = 8, interlaced = false } = {}): Buffer {
  const content = Buffer.alloc(13);
  content.writeUInt32BE(width, 0);
  content.writeUInt32BE(height, 4);
  content[8] = bitDepth;
  content[9] = 6; // RGBA
  content[12] = interlaced ? 1 : 0;
  return chunk('IHDR', content);
}

/** The signature, then `chunks`, then IEND. */
export const pngOf = (...chunks: Buffer[]) =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ...chunks, chunk('IEND', Buffer.alloc(0))]);

/** Deflates `pieces` one by one at `level`, so that the whole inflated data is never in memory at once. */
export async function deflatedPieces(pieces: Iterable<Buffer>, level: number): Promise<Buffer> {
  const deflate = createDeflate({ level });
  const parts: Buffer[] = [];
  deflate.on('data', (part: Buffer) => parts.push(part));
  for (const piece of pieces) if (!deflate.write(piece)) await new Promise((resolve) => deflate.once('drain', resolve));
  const ended = new Promise((resolve) => deflate.once('end', resolve));
  deflate.end();
  await ended;
  return Buffer.concat(parts);
}

/** maxRSS only grows: its growth over some work is at most the work's peak memory. */
export const peakMemory = () => resourceUsage().maxRSS * 1024;
