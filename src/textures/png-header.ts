// What an upload is allowed to be is decided from its first 33 bytes, before anything is decompressed:
// a 20000x20000 "decompression bomb" is refused here without inflating a byte of it.
import { badRequest } from '../http/envelope.ts';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
// Allowed bit depths for each PNG colour type (PNG specification, table 11.1).
const BIT_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

export interface PngHeader {
  width: number;
  height: number;
}

export function readPngHeader(bytes: Buffer, what: 'skin' | 'cape'): PngHeader {
  if (bytes.length === 0) throw badRequest('textures.empty', { context: what });
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(SIGNATURE)) throw badRequest('textures.notPng', { context: what });
  if (bytes.length < 33 || bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR') {
    throw badRequest('textures.headerMissing', { context: what });
  }
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const bitDepth = bytes[24]!;
  const colourType = bytes[25]!;
  const valid =
    width > 0 && height > 0 && BIT_DEPTHS[colourType]?.includes(bitDepth) && bytes[26] === 0 && bytes[27] === 0 && bytes[28]! <= 1;
  if (!valid) throw badRequest('textures.headerDamaged', { context: what });
  return { width, height };
}
