// PNG in and out for the renderer. Decoding goes through pngjs (palette, grey, grey+alpha, 16-bit and
// interlaced inputs all come out as 8-bit RGBA). Encoding is our own thin layer over node's zlib, because
// renders are encoded on every uncached request and pngjs's encoder is several times slower.
// Validation of untrusted uploads (signature, IHDR limits, bombs) is the caller's job, before decodePng.
import { deflateSync, constants as zlibConstants } from 'node:zlib';
import { PNG } from 'pngjs';

/** An 8-bit RGBA image, rows top to bottom, 4 bytes per pixel, not premultiplied. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export function decodePng(bytes: Buffer): RgbaImage {
  const png = PNG.sync.read(bytes);
  return { width: png.width, height: png.height, data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.length) };
}

export type PngFilter = 'none' | 'sub' | 'up' | 'paeth';
export interface PngEncodeOptions {
  filter: PngFilter;
  level: number;
  strategy: 'default' | 'rle' | 'filtered';
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const FILTER_TYPE: Record<PngFilter, number> = { none: 0, sub: 1, up: 2, paeth: 4 };
const STRATEGY = {
  default: zlibConstants.Z_DEFAULT_STRATEGY,
  rle: zlibConstants.Z_RLE,
  filtered: zlibConstants.Z_FILTERED,
};

export function encodePng(image: RgbaImage, options: PngEncodeOptions = { filter: 'up', level: 6, strategy: 'default' }): Buffer {
  const { width, height, data } = image;
  const stride = width * 4;
  const filtered = Buffer.allocUnsafe((stride + 1) * height);
  const filterType = FILTER_TYPE[options.filter];
  for (let y = 0; y < height; y++) {
    const out = y * (stride + 1);
    const row = y * stride;
    filtered[out] = filterType;
    filterRow(options.filter, data, row, y === 0 ? -1 : row - stride, stride, filtered, out + 1);
  }
  const idat = deflateSync(filtered, { level: options.level, strategy: STRATEGY[options.strategy] });

  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/** Writes one filtered row; `above` is the start of the previous row, or -1 for the first row. */
function filterRow(filter: PngFilter, data: Uint8Array, row: number, above: number, stride: number, out: Buffer, at: number): void {
  switch (filter) {
    case 'none':
      out.set(data.subarray(row, row + stride), at);
      return;
    case 'sub':
      for (let i = 0; i < stride; i++) out[at + i] = data[row + i] - (i >= 4 ? data[row + i - 4] : 0);
      return;
    case 'up':
      if (above < 0) out.set(data.subarray(row, row + stride), at);
      else for (let i = 0; i < stride; i++) out[at + i] = data[row + i] - data[above + i];
      return;
    case 'paeth':
      for (let i = 0; i < stride; i++) {
        const left = i >= 4 ? data[row + i - 4] : 0;
        const up = above >= 0 ? data[above + i] : 0;
        const upLeft = above >= 0 && i >= 4 ? data[above + i - 4] : 0;
        out[at + i] = data[row + i] - paethPredictor(left, up, upLeft);
      }
      return;
  }
}

function paethPredictor(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const toLeft = Math.abs(estimate - left);
  const toUp = Math.abs(estimate - up);
  const toUpLeft = Math.abs(estimate - upLeft);
  if (toLeft <= toUp && toLeft <= toUpLeft) return left;
  return toUp <= toUpLeft ? up : upLeft;
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
