// Encodes test images in PNG forms the fixtures lack: Adam7-interlaced RGBA and grey+alpha.
import { deflateSync } from 'node:zlib';
import type { RgbaImage } from '../../src/skin/texture.ts';
import { chunk } from './png-chunks.ts';

// Adam7: [x start, y start, x step, y step] of each of the seven passes.
const PASSES = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];

export function encodeVariant(image: RgbaImage, form: { colourType: 6 | 4; interlaced: boolean }): Buffer {
  const pixel = (x: number, y: number) => {
    const at = (y * image.width + x) * 4;
    const [r, g, b, a] = [image.data[at]!, image.data[at + 1]!, image.data[at + 2]!, image.data[at + 3]!];
    return form.colourType === 6 ? [r, g, b, a] : [Math.round((r + g + b) / 3), a];
  };
  const rows: number[] = [];
  const passes = form.interlaced ? PASSES : [[0, 0, 1, 1]];
  for (const [x0, y0, dx, dy] of passes) {
    for (let y = y0!; y < image.height; y += dy!) {
      if (x0! >= image.width) break;
      rows.push(0); // filter type None
      for (let x = x0!; x < image.width; x += dx!) rows.push(...pixel(x, y));
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header[8] = 8;
  header[9] = form.colourType;
  header[12] = form.interlaced ? 1 : 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('tEXt', Buffer.from('Comment\0metadata that the canonical form drops', 'latin1')),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The grey+alpha image `encodeVariant` with colour type 4 stands for, as RGBA. */
export function greyOf(image: RgbaImage): RgbaImage {
  const data = new Uint8Array(image.data.length);
  for (let at = 0; at < data.length; at += 4) {
    const grey = Math.round((image.data[at]! + image.data[at + 1]! + image.data[at + 2]!) / 3);
    data.set([grey, grey, grey, image.data[at + 3]!], at);
  }
  return { width: image.width, height: image.height, data };
}
