// The one PNG reader: uploads, stored textures and everything else decode here. Bounded by construction: the
// header is read first (so callers can refuse its dimensions before any work), then the whole chunk list, without
// inflating anything, and only then the image data, inflated to exactly the size the header implies and no further,
// and unfiltered row by row as it streams out of zlib.
// Compressed ancillary chunks (zTXt, iTXt, iCCP) are skipped unread, like every other ancillary chunk but tRNS.
// Results match what pngjs produced before (8-bit RGBA; 16-bit and low-bit samples rounded to the nearest 8-bit
// value; tRNS applied; gamma ignored), so textures keep their digests.
import { pipeline } from 'node:stream/promises';
import { createInflate, crc32, inflateSync } from 'node:zlib';
import type { RgbaImage } from '../skin/texture.ts';

export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  interlaced: boolean;
}

/** What is wrong with a file, named as the texture error keys name it. */
export type PngProblem = 'empty' | 'notPng' | 'headerMissing' | 'headerDamaged' | 'truncated';

export class PngError extends Error {
  constructor(
    readonly problem: PngProblem,
    detail: string,
  ) {
    super(detail);
  }
}

const damaged = (detail: string) => new PngError('truncated', detail);

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Allowed bit depths for each colour type (PNG specification, table 11.1). */
const BIT_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Adam7: [x start, y start, x step, y step] of each of the seven passes. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;
const WHOLE_IMAGE = [[0, 0, 1, 1]] as const;
/** The PNG specification's largest width or height. */
const MAX_SIDE = 2 ** 31 - 1;

/**
 * Reads the signature and the first IHDR (the first 33 bytes); decoding is left to `decode`, which streams the image
 * data through two rows at a time and lets the event loop run between pieces. Every upload and stored texture goes here.
 */
export function openPng(bytes: Buffer): { header: PngHeader; decode(): Promise<RgbaImage> } {
  const header = readHeader(bytes);
  return { header, decode: () => decodeStreaming(bytes, header) };
}

/** Decodes at once, holding all the inflated data: only for files known to be small (bundled art, tests). */
export const decodePng = (bytes: Buffer): RgbaImage => decodeWhole(bytes, readHeader(bytes));

function readHeader(bytes: Buffer): PngHeader {
  if (bytes.length === 0) throw new PngError('empty', 'the file is empty');
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) throw new PngError('notPng', 'no PNG signature');
  if (bytes.length < 33 || bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR') {
    throw new PngError('headerMissing', 'no IHDR first');
  }
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const bitDepth = bytes[24]!;
  const colourType = bytes[25]!;
  const sides = width > 0 && height > 0 && width <= MAX_SIDE && height <= MAX_SIDE;
  const valid = sides && BIT_DEPTHS[colourType]?.includes(bitDepth) && bytes[26] === 0 && bytes[27] === 0 && bytes[28]! <= 1;
  if (!valid) throw new PngError('headerDamaged', 'IHDR values out of range');
  if (crc32(bytes.subarray(12, 29)) !== bytes.readUInt32BE(29)) throw damaged('IHDR CRC');
  return { width, height, bitDepth, colourType, interlaced: bytes[28] === 1 };
}

interface Chunks {
  /** The IDAT contents, in order. */
  data: Buffer[];
  /** RGBA per palette entry (tRNS alpha applied), for colour type 3. */
  palette: Uint8Array | null;
  /** The tRNS sample values of colour types 0 (one) and 2 (three). */
  transparent: number[] | null;
}

/**
 * Walks the chunk list without inflating anything: one IHDR (the first), at most one PLTE and a tRNS before the
 * data, consecutive IDATs, an empty IEND that ends the file. CRCs are checked on the chunks that are used, as pngjs did.
 */
function readChunks(bytes: Buffer, header: PngHeader): Chunks {
  const chunks: Chunks = { data: [], palette: null, transparent: null };
  let dataEnded = false;
  for (let at = 33; ;) {
    if (at + 12 > bytes.length) throw damaged('the file ends inside a chunk or before IEND');
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const body = at + 8;
    const end = body + length;
    if (end + 4 > bytes.length) throw damaged(`${type} runs past the end`);
    const critical = (bytes[at + 4]! & 0x20) === 0;
    if (!critical && type !== 'tRNS') {
      // Ancillary chunks (text, compressed text, colour profiles, ...) are dropped unread. None may sit between IDATs.
      if (chunks.data.length > 0) dataEnded = true;
      at = end + 4;
      continue;
    }
    if (crc32(bytes.subarray(at + 4, end)) !== bytes.readUInt32BE(end)) throw damaged(`${type} CRC`);
    const content = bytes.subarray(body, end);
    if (type === 'IDAT') {
      if (dataEnded) throw damaged('IDAT chunks are not consecutive');
      chunks.data.push(content);
    } else if (type === 'IEND') {
      if (length !== 0 || chunks.data.length === 0) throw damaged('IEND not empty or before any IDAT');
      if (end + 4 !== bytes.length) throw damaged('bytes after IEND');
      if (header.colourType === 3 && !chunks.palette) throw damaged('no PLTE');
      return chunks;
    } else if (chunks.data.length > 0) {
      throw damaged(`${type} after IDAT`);
    } else if (type === 'PLTE') {
      if (chunks.palette || chunks.transparent || length === 0 || length % 3 !== 0 || length > 256 * 3) throw damaged('PLTE');
      chunks.palette = paletteOf(content);
    } else if (type === 'tRNS') {
      readTransparency(chunks, content, header.colourType);
    } else {
      throw damaged(`unexpected critical chunk ${type}`);
    }
    at = end + 4;
  }
}

function paletteOf(content: Buffer): Uint8Array {
  const palette = new Uint8Array((content.length / 3) * 4).fill(255);
  for (let entry = 0; entry < content.length / 3; entry++) palette.set(content.subarray(entry * 3, entry * 3 + 3), entry * 4);
  return palette;
}

function readTransparency(chunks: Chunks, content: Buffer, colourType: number) {
  if (colourType === 3) {
    if (!chunks.palette || content.length > chunks.palette.length / 4) throw damaged('tRNS before PLTE or longer than it');
    for (let entry = 0; entry < content.length; entry++) chunks.palette[entry * 4 + 3] = content[entry]!;
  } else if (colourType === 0 || colourType === 2) {
    const samples = colourType === 0 ? 1 : 3;
    if (content.length < samples * 2) throw damaged('tRNS too short');
    chunks.transparent = Array.from({ length: samples }, (_, sample) => content.readUInt16BE(sample * 2));
  }
  // Colour types 4 and 6 carry alpha already; a tRNS there is ignored, as pngjs did.
}

interface Pass {
  x0: number;
  y0: number;
  dx: number;
  dy: number;
  width: number;
  height: number;
}

function passesOf(header: PngHeader): Pass[] {
  const passes = (header.interlaced ? ADAM7 : WHOLE_IMAGE).map(([x0, y0, dx, dy]) => ({
    x0,
    y0,
    dx,
    dy,
    width: Math.ceil(Math.max(header.width - x0, 0) / dx),
    height: Math.ceil(Math.max(header.height - y0, 0) / dy),
  }));
  return passes.filter((pass) => pass.width > 0 && pass.height > 0);
}

const rowBytesOf = (width: number, header: PngHeader) => Math.ceil((width * CHANNELS[header.colourType]! * header.bitDepth) / 8);

/**
 * Unfilters rows as their bytes arrive, in pieces of any size, and writes their pixels straight into the image. It
 * holds the current and the previous filtered row, never the whole inflated data, and refuses a byte past the last row.
 */
class RowReader {
  readonly image: RgbaImage;
  private readonly passes: Pass[];
  private readonly step: number;
  private readonly toRgba: ReturnType<typeof rowConverter>;
  private current: Uint8Array;
  private previous: Uint8Array;
  private pass = 0;
  private row = 0;
  /** Bytes of the current row (filter byte included) received so far. */
  private filled = 0;

  constructor(
    private readonly header: PngHeader,
    chunks: Chunks,
  ) {
    this.image = { width: header.width, height: header.height, data: new Uint8Array(header.width * header.height * 4) };
    this.passes = passesOf(header);
    this.step = filterStep(header);
    this.toRgba = rowConverter(header, chunks, this.image.data);
    // Sized for the widest pass, so that every row of every pass fits.
    const longest = Math.max(...this.passes.map((pass) => rowBytesOf(pass.width, header) + 1));
    this.current = new Uint8Array(longest);
    this.previous = new Uint8Array(longest);
  }

  /** The exact inflated size of a well-formed file: each pass's rows, each with its filter byte. */
  get expectedBytes(): number {
    return this.passes.reduce((sum, pass) => sum + (rowBytesOf(pass.width, this.header) + 1) * pass.height, 0);
  }

  write(piece: Uint8Array) {
    for (let at = 0; at < piece.length;) {
      const pass = this.passes[this.pass];
      if (!pass) throw damaged('image data after the last row');
      const rowLength = rowBytesOf(pass.width, this.header) + 1;
      const taken = Math.min(rowLength - this.filled, piece.length - at);
      this.current.set(piece.subarray(at, at + taken), this.filled);
      this.filled += taken;
      at += taken;
      if (this.filled === rowLength) this.completeRow(pass, rowLength);
    }
  }

  /** The decoded image, once every row has arrived. */
  end(): RgbaImage {
    if (this.pass < this.passes.length) throw damaged('image data ends before the last row');
    return this.image;
  }

  private completeRow(pass: Pass, rowLength: number) {
    const row = this.current.subarray(0, rowLength);
    unfilter(row, this.row === 0 ? null : this.previous.subarray(0, rowLength), this.step);
    this.toRgba(row.subarray(1), pass, pass.y0 + this.row * pass.dy);
    [this.previous, this.current] = [this.current, this.previous];
    this.filled = 0;
    this.row += 1;
    if (this.row === pass.height) {
      this.pass += 1;
      this.row = 0;
    }
  }
}

/** The upload path: the IDATs inflated one after another through one stream, rows unfiltered as they complete. */
async function decodeStreaming(bytes: Buffer, header: PngHeader): Promise<RgbaImage> {
  const chunks = readChunks(bytes, header);
  const rows = new RowReader(header, chunks);
  const inflate = createInflate();
  try {
    // An error thrown by `rows` (a bad filter byte, data past the last row) destroys the stream: inflation stops there.
    await pipeline(chunks.data, inflate, async (pieces: AsyncIterable<Buffer>) => {
      for await (const piece of pieces) rows.write(piece);
    });
  } catch (error) {
    throw error instanceof PngError ? error : damaged(`image data: ${(error as Error).message}`);
  }
  checkAllInflated(inflate.bytesWritten, chunks.data);
  return rows.end();
}

/** Inflates all the data at once (S bytes, twice while zlib gathers its pieces): for files already known to be small. */
function decodeWhole(bytes: Buffer, header: PngHeader): RgbaImage {
  const chunks = readChunks(bytes, header);
  const rows = new RowReader(header, chunks);
  const compressed = chunks.data.length === 1 ? chunks.data[0]! : Buffer.concat(chunks.data);
  let inflated: { buffer: Buffer; engine: { bytesWritten: number } };
  try {
    // Inflation stops as soon as the output passes the expected size: a bomb costs no more than an honest file.
    inflated = inflateSync(compressed, { maxOutputLength: rows.expectedBytes, info: true }) as unknown as typeof inflated;
  } catch (error) {
    throw damaged(`image data: ${(error as Error).message}`);
  }
  checkAllInflated(inflated.engine.bytesWritten, chunks.data);
  rows.write(inflated.buffer);
  return rows.end();
}

/** zlib stops at the end of its stream and ignores what follows: bytes of image data after it are damage too. */
function checkAllInflated(consumed: number, data: Buffer[]) {
  const given = data.reduce((sum, chunk) => sum + chunk.length, 0);
  if (consumed !== given) throw damaged(`${given - consumed} bytes of image data after the end of the compressed stream`);
}

/** Bytes between a byte and the one it is predicted from: one pixel, or one byte below 8 bits a sample. */
const filterStep = (header: PngHeader) => Math.max(1, (CHANNELS[header.colourType]! * header.bitDepth) >> 3);

/** Undoes the filter of `row` (its filter byte first) in place; `previous` is the unfiltered row above, if any. */
function unfilter(row: Uint8Array, previous: Uint8Array | null, step: number) {
  const rowBytes = row.length - 1;
  switch (row[0]) {
    case 0:
      return;
    case 1:
      for (let x = 1 + step; x <= rowBytes; x++) row[x] = row[x]! + row[x - step]!;
      return;
    case 2:
      if (previous) for (let x = 1; x <= rowBytes; x++) row[x] = row[x]! + previous[x]!;
      return;
    case 3:
      for (let x = 1; x <= rowBytes; x++) {
        const left = x > step ? row[x - step]! : 0;
        const above = previous ? previous[x]! : 0;
        row[x] = row[x]! + ((left + above) >> 1);
      }
      return;
    case 4:
      for (let x = 1; x <= rowBytes; x++) {
        const left = x > step ? row[x - step]! : 0;
        const above = previous ? previous[x]! : 0;
        const upLeft = previous && x > step ? previous[x - step]! : 0;
        row[x] = row[x]! + paeth(left, above, upLeft);
      }
      return;
    default:
      throw damaged(`filter type ${row[0]}`);
  }
}

function paeth(left: number, above: number, upLeft: number): number {
  const estimate = left + above - upLeft;
  const toLeft = Math.abs(estimate - left);
  const toAbove = Math.abs(estimate - above);
  const toUpLeft = Math.abs(estimate - upLeft);
  if (toLeft <= toAbove && toLeft <= toUpLeft) return left;
  return toAbove <= toUpLeft ? above : upLeft;
}

/** A function that writes one unfiltered row of a pass into the RGBA output. */
function rowConverter(header: PngHeader, chunks: Chunks, out: Uint8Array) {
  const { width, bitDepth: depth, colourType } = header;
  const channels = CHANNELS[colourType]!;
  const largest = 2 ** depth - 1;
  // 8-bit values of every sample value below 16 bits: round(value * 255 / largest), as pngjs computed it.
  const scaled = depth === 16 ? null : Uint8Array.from({ length: largest + 1 }, (_, value) => Math.floor((value * 255) / largest + 0.5));
  const scale = (value: number) => (scaled ? scaled[value]! : Math.floor((value * 255) / largest + 0.5));
  const sample = (row: Uint8Array, index: number) => {
    if (depth === 8) return row[index]!;
    if (depth === 16) return (row[index * 2]! << 8) | row[index * 2 + 1]!;
    const bit = index * depth;
    return (row[bit >> 3]! >> (8 - depth - (bit & 7))) & largest;
  };
  const { palette, transparent } = chunks;
  const entries = palette ? palette.length / 4 : 0;
  return (row: Uint8Array, pass: Pass, y: number) => {
    if (colourType === 6 && depth === 8 && pass.dx === 1) {
      out.set(row, y * width * 4);
      return;
    }
    for (let column = 0; column < pass.width; column++) {
      const to = (y * width + pass.x0 + column * pass.dx) * 4;
      const first = column * channels;
      if (colourType === 3) {
        const index = sample(row, first);
        if (index >= entries) throw damaged(`palette index ${index} of ${entries}`);
        out.set(palette!.subarray(index * 4, index * 4 + 4), to);
        continue;
      }
      const grey = colourType === 0 || colourType === 4;
      const red = sample(row, first);
      const green = grey ? red : sample(row, first + 1);
      const blue = grey ? red : sample(row, first + 2);
      const alpha = colourType === 4 ? sample(row, first + 1) : colourType === 6 ? sample(row, first + 3) : largest;
      // A pixel of the tRNS colour becomes fully transparent black, as in pngjs.
      if (transparent && red === transparent[0] && (grey || (green === transparent[1] && blue === transparent[2]))) {
        out.fill(0, to, to + 4);
        continue;
      }
      out[to] = scale(red);
      out[to + 1] = scale(green);
      out[to + 2] = scale(blue);
      out[to + 3] = scale(alpha);
    }
  };
}
