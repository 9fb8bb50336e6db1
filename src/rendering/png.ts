// PNG in and out for the renderer. Decoding is png-decode.ts's (every PNG that comes in goes through it).
// Encoding is our own thin layer over node's zlib, because renders are encoded on every uncached request and
// pngjs's encoder is 5-10x slower on them.
import { constants, crc32, deflateSync } from 'node:zlib';
import type { RgbaImage } from '../skin/texture.ts';

import { PNG_SIGNATURE } from './png-decode.ts';

export { decodePng } from './png-decode.ts';

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
  out.writeUInt32BE(crc32(out.subarray(4, 8 + body.length)), 8 + body.length);
  return out;
}

/**
 * An indexed-colour PNG, compressed hard, for images made once and fetched often (the favicon: the pages' byte
 * budget, docs/performance.md): a head has a few dozen colours, so it is half the size of the RGBA encoding the
 * renderer's answers use. More than 256 colours: the RGBA encoding.
 */
export function encodeIndexedPng(image: RgbaImage): Buffer {
  const colours = new Map<number, number>();
  const view = new DataView(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  const rows = Buffer.alloc((image.width + 1) * image.height);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      let colour = view.getUint32((y * image.width + x) * 4);
      if ((colour & 0xff) === 0) colour = 0; // every transparent pixel alike
      let index = colours.get(colour);
      if (index === undefined) colours.set(colour, (index = colours.size));
      rows[y * (image.width + 1) + 1 + x] = index;
    }
  }
  if (colours.size > 256) return encodePng(image);
  const palette = Buffer.alloc(colours.size * 3);
  const alphas = Buffer.alloc(colours.size);
  for (const [colour, index] of colours) {
    palette.writeUIntBE(colour >>> 8, index * 3, 3);
    alphas[index] = colour & 0xff;
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header[8] = 8; // bit depth
  header[9] = 3; // colour type: indexed
  const idat = deflateSync(rows, { level: constants.Z_BEST_COMPRESSION });
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('PLTE', palette),
    chunk('tRNS', alphas),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
