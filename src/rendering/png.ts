// PNG in and out for the renderer. Decoding goes through pngjs (palette, grey, grey+alpha, 16-bit and
// interlaced inputs all come out as 8-bit RGBA). Encoding is our own thin layer over node's zlib, because
// renders are encoded on every uncached request and pngjs's encoder is 5-10x slower on them.
// Validation of untrusted uploads (signature, IHDR limits, bombs) is the caller's job, before decodePng.
import { deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import type { RgbaImage } from '../skin/texture.ts';

export function decodePng(bytes: Buffer): RgbaImage {
  const png = PNG.sync.read(bytes);
  return { width: png.width, height: png.height, data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.length) };
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const FILTER_UP = 2;
/** zlib's fastest level: on renders about 10% faster than level 3 for about 10% more bytes. */
const DEFLATE_LEVEL = 1;
const HIGH_BITS = 0x80808080 | 0;

if (new Uint8Array(Uint32Array.of(1).buffer)[0] !== 1) throw new Error('the PNG encoder assumes a little-endian platform');

/**
 * Encodes 8-bit RGBA with the Up filter on every row: nearest-neighbour renders repeat whole rows and
 * columns, so rows minus the row above are mostly zeros and deflate fast and small (measured against None,
 * Sub and Paeth in docs/rendering.md). Same input, same bytes.
 */
export function encodePng(image: RgbaImage): Buffer {
  const { width, height, data } = image;
  const stride = width * 4;
  const filtered = Buffer.allocUnsafe((stride + 1) * height);
  const aligned = data.byteOffset % 4 === 0 ? data : new Uint8Array(data);
  const words = new Uint32Array(aligned.buffer, aligned.byteOffset, width * height);
  const difference = new Uint32Array(width);
  const differenceBytes = new Uint8Array(difference.buffer);
  for (let y = 0; y < height; y++) {
    const out = y * (stride + 1);
    filtered[out] = FILTER_UP;
    if (y === 0) {
      filtered.set(aligned.subarray(0, stride), out + 1);
      continue;
    }
    // Byte-wise subtraction four bytes at a time: set each byte's top bit so no borrow crosses a byte,
    // subtract, then fix the top bits (Hacker's Delight, "SWAR" arithmetic).
    for (let x = 0, here = y * width, above = here - width; x < width; x++) {
      const current = words[here + x];
      const previous = words[above + x];
      difference[x] = ((current | HIGH_BITS) - (previous & ~HIGH_BITS)) ^ ((current ^ ~previous) & HIGH_BITS);
    }
    filtered.set(differenceBytes, out + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type: RGBA
  const idat = deflateSync(filtered, { level: DEFLATE_LEVEL });
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

function chunk(type: string, body: Buffer): Buffer {
  const out = Buffer.alloc(12 + body.length);
  out.writeUInt32BE(body.length, 0);
  out.write(type, 4, 'latin1');
  body.copy(out, 8);
  out.writeUInt32BE(crc32(out, 4, 8 + body.length), 8 + body.length);
  return out;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Buffer, start: number, end: number): number {
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) crc = CRC_TABLE[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
