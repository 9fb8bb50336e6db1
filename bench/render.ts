// Render benchmark: node --import tsx bench/render.ts
// For every view x type at sizes 100, 300 and 512: renders per second and mean ms per uncached render (PNG bytes
// out, textures already decoded, as the service caches them), the rasterising part alone, and the time to
// PNG-encode the same image (the floor under a render). Then the 3D head drawn by our rasteriser against
// the same head drawn through Skia (@napi-rs/canvas), the alternative that docs/rendering.md compares.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { createCanvas, ImageData } from '@napi-rs/canvas';
import { decodePng, encodePng } from '../src/rendering/png.ts';
import { renderImage, renderPixels, SHADE, type RenderRequest, type RenderType, type RenderView } from '../src/rendering/render.ts';
import type { RgbaImage } from '../src/skin/texture.ts';

export interface Row {
  /** What was measured, e.g. "body player 300" or "skia+own-png head player 100". */
  name: string;
  view: RenderView;
  type: RenderType;
  size: number;
  renderer: 'own' | 'skia';
  rendersPerSecond: number;
  /** Mean time per render, from decoded textures to PNG bytes. */
  meanMs: number;
  /** The rasterising part of meanMs (pixels, no PNG). */
  rasterMs: number;
  /** Time to encode the rendered image with our PNG encoder: the floor under meanMs. */
  encodeMs: number;
  pngBytes: number;
}

const BATCHES = 5;
const BATCH_MS = 80;

/** CPU milliseconds this process has used: unlike the wall clock, it does not count time spent waiting for a core. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Mean ms per run, from the fastest of a few short batches, in CPU time of this process: on a shared machine
 * other processes make the wall clock useless, and only ever make a batch slower (caches), so the fastest batch
 * is the best estimate of the code's own cost.
 */
function measure(run: () => unknown): number {
  const warmUntil = cpuMs() + 40;
  while (cpuMs() < warmUntil) run();
  let fastest = Infinity;
  for (let batch = 0; batch < BATCHES; batch++) {
    let count = 0;
    const start = cpuMs();
    let elapsed = 0;
    while (elapsed < BATCH_MS) {
      run();
      count++;
      elapsed = cpuMs() - start;
    }
    fastest = Math.min(fastest, elapsed / count);
  }
  return fastest;
}

function fixture(path: string): RgbaImage {
  return decodePng(readFileSync(new URL(`../test/fixtures/${path}`, import.meta.url)));
}

export async function runRenderBench(): Promise<Row[]> {
  const skin = fixture('skins/classic.png');
  const cape = fixture('capes/cape.png');
  const rows: Row[] = [];
  for (const view of ['head', 'bust', 'body', 'cloak'] as const) {
    for (const type of ['skin', 'player'] as const) {
      for (const size of [100, 300, 512]) {
        const request: RenderRequest = { view, type, size, skin, slim: false, cape };
        const pixels = renderPixels(request);
        const meanMs = measure(() => renderImage(request));
        rows.push({
          name: `${view} ${type} ${size}`,
          view,
          type,
          size,
          renderer: 'own',
          rendersPerSecond: 1000 / meanMs,
          meanMs,
          rasterMs: measure(() => renderPixels(request)),
          encodeMs: measure(() => encodePng(pixels)),
          pngBytes: renderImage(request).length,
        });
      }
    }
  }
  for (const size of [100, 300]) rows.push(...compareWithSkia(skin, size));
  return rows;
}

/** The 3D head with hat, at one size: own rasteriser vs Skia, both from decoded texture to PNG bytes. */
function compareWithSkia(skin: RgbaImage, size: number): Row[] {
  const request: RenderRequest = { view: 'head', type: 'player', size, skin, slim: false };
  const own = renderPixels(request);
  const skia = skiaHead(skin, size);
  const encodeMs = measure(() => encodePng(own));
  const row = (name: string, renderer: Row['renderer'], meanMs: number, rasterMs: number, pngBytes: number): Row => ({
    name: `${name} head player ${size}`,
    view: 'head',
    type: 'player',
    size,
    renderer,
    rendersPerSecond: 1000 / meanMs,
    meanMs,
    rasterMs,
    encodeMs,
    pngBytes,
  });
  return [
    row(
      'own',
      'own',
      measure(() => renderImage(request)),
      measure(() => renderPixels(request)),
      renderImage(request).length,
    ),
    row(
      'skia+own-png',
      'skia',
      measure(() => encodePng(skiaHead(skin, size))),
      measure(() => skiaHead(skin, size)),
      encodePng(skia).length,
    ),
    row(
      'skia+skia-png',
      'skia',
      measure(() => skiaHeadCanvas(skin, size).encodeSync('png')),
      measure(() => skiaHead(skin, size)),
      skiaHeadCanvas(skin, size).encodeSync('png').length,
    ),
  ];
}

// The same isometric head through Skia: each visible face of the head and of its hat shell is the
// texture's face rectangle drawn under an affine transform (nearest neighbour), back to front.
type Vector = readonly [number, number, number];
const ISO_RIGHT: Vector = [1 / Math.SQRT2, 0, 1 / Math.SQRT2];
const ISO_UP: Vector = [1 / Math.sqrt(6), 2 / Math.sqrt(6), -1 / Math.sqrt(6)];
const dot = (a: Vector, b: Vector) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

function skiaHead(skin: RgbaImage, size: number): RgbaImage {
  const data = skiaHeadCanvas(skin, size).getContext('2d').getImageData(0, 0, size, size).data;
  return { width: size, height: size, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

function skiaHeadCanvas(skin: RgbaImage, size: number) {
  const texture = createCanvas(skin.width, skin.height);
  texture.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(skin.data), skin.width, skin.height), 0, 0);
  const canvas = createCanvas(size, size);
  const context = canvas.getContext('2d');
  context.imageSmoothingEnabled = false;
  const texelScale = skin.width / 64;
  const hatHalf = 4.5;
  // The hat cube's outline is a hexagon 8*4.5/sqrt6 high (and narrower than that): fit its height.
  const scale = size / ((8 * hatHalf) / Math.sqrt(6));
  const onScreen = (v: Vector) => [scale * dot(v, ISO_RIGHT), -scale * dot(v, ISO_UP)] as const;
  for (const [u, v, half] of [
    [0, 0, 4],
    [32, 0, hatHalf],
  ] as const) {
    const edge = 2 * half;
    const faces: [x: number, y: number, corner: Vector, across: Vector, down: Vector, brightness: number][] = [
      [u + 8, v, [-half, half, -half], [edge, 0, 0], [0, 0, edge], SHADE.top],
      [u, v + 8, [-half, half, -half], [0, 0, edge], [0, -edge, 0], SHADE.side],
      [u + 8, v + 8, [-half, half, half], [edge, 0, 0], [0, -edge, 0], SHADE.front],
    ];
    for (const [x, y, corner, across, down, brightness] of faces) {
      const [ox, oy] = onScreen(corner);
      const [ax, ay] = onScreen(across);
      const [bx, by] = onScreen(down);
      context.setTransform(ax / 8, ay / 8, bx / 8, by / 8, size / 2 + ox, size / 2 + oy);
      context.filter = brightness === 1 ? 'none' : `brightness(${brightness})`;
      context.drawImage(texture, x * texelScale, y * texelScale, 8 * texelScale, 8 * texelScale, 0, 0, 8, 8);
    }
  }
  return canvas;
}

function printRows(rows: Row[]): void {
  const header = ['case', 'renders/s', 'mean ms', 'raster ms', 'encode ms', 'bytes'];
  const lines = rows.map((row) => [
    row.name,
    row.rendersPerSecond.toFixed(0),
    row.meanMs.toFixed(3),
    row.rasterMs.toFixed(3),
    row.encodeMs.toFixed(3),
    String(row.pngBytes),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  for (const line of [header, ...lines])
    console.log(line.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  '));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printRows(await runRenderBench());
}
