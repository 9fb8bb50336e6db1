// The pixel loop of the 3D rasteriser (render.ts), in WebAssembly. In JavaScript, V8 checks every typed
// array's map and bounds and reloads its data pointer on every access (the loop's stack check makes it forget
// what it knew at the end of each iteration): about 60 instructions a pixel, against about 30 here
// (docs/performance.md). The module is assembled below from its instructions, so no build step and no binary
// file is needed. It computes exactly what the JavaScript loop did: the same double arithmetic in the same
// order, the depth rounded to float32, translucent texels blended by render.ts in JavaScript.

/** Depth ties (an overlay over its base in flat views) go to the face drawn later. */
export const DEPTH_SLACK = 1e-3;

/**
 * The loop's memory, laid out for one 3D render: the depth buffer (float32 a pixel), the image (RGBA words), one
 * face's spans (four float64 a row: first and last pixel index, texel coordinates a and b at the first), the
 * face's patch (RGBA words, see render.ts) and the translucent pixels the loop found in it, for render.ts to
 * blend (two int32 each: the byte addresses of the pixel and of its texel in `bytes`).
 */
export interface SpanMemory {
  depth: Float32Array;
  colours: Uint32Array;
  /** `colours` as bytes. */
  pixels: Uint8Array;
  spans: Float64Array;
  patch: Uint32Array;
  blends: Int32Array;
  /** The whole memory as bytes. */
  bytes: Uint8Array;
}

const memory = new WebAssembly.Memory({ initial: 0 });
const PAGE_BYTES = 65536;

/**
 * The memory laid out for an image of `pixels` pixels in `rows` rows and patches of up to `patchTexels` texels,
 * grown if it is too small. One memory, reused by every render (renders are synchronous).
 */
export function spanMemory(pixels: number, rows: number, patchTexels: number): SpanMemory {
  const coloursAt = 4 * pixels;
  const spansAt = align8(coloursAt + 4 * pixels);
  const patchAt = spansAt + 32 * rows;
  const blendsAt = align8(patchAt + 4 * patchTexels);
  const end = blendsAt + 8 * pixels;
  if (memory.buffer.byteLength < end) memory.grow(Math.ceil((end - memory.buffer.byteLength) / PAGE_BYTES));
  const { buffer } = memory;
  return {
    depth: new Float32Array(buffer, 0, pixels),
    colours: new Uint32Array(buffer, coloursAt, pixels),
    pixels: new Uint8Array(buffer, coloursAt, 4 * pixels),
    spans: new Float64Array(buffer, spansAt, 4 * rows),
    patch: new Uint32Array(buffer, patchAt, patchTexels),
    blends: new Int32Array(buffer, blendsAt, 2 * pixels),
    bytes: new Uint8Array(buffer),
  };
}

const align8 = (offset: number) => Math.ceil(offset / 8) * 8;

/** The numbers of one face that the loop needs besides its spans and patch (see drawFace in render.ts). */
export interface SpanFace {
  aPerX: number;
  bPerX: number;
  depth0: number;
  depthA: number;
  depthB: number;
  texelScale: number;
  /** Texels a row of the patch, its border included. */
  patchWidth: number;
  /** Whether every texel of the patch is opaque: then the depth is tested first, and no alpha. */
  opaque: boolean;
}

/**
 * Draws the first `spanCount` spans of `memory.spans`: at each pixel, the texel of the patch under it if that is
 * not transparent and the pixel is not behind what is drawn there (then its depth is stored too). Translucent
 * texels are listed in `memory.blends` instead of drawn; returns how many.
 */
export function drawSpans(memory: SpanMemory, spanCount: number, face: SpanFace): number {
  const { depth, colours, spans, patch, blends } = memory;
  const { patchWidth } = face;
  const blendsEnd = (face.opaque ? loops.drawOpaqueSpans : loops.drawSpans)(
    spans.byteOffset,
    spans.byteOffset + 32 * spanCount,
    // The texel at (0, 0), inside the patch's border.
    patch.byteOffset + 4 * (patchWidth + 1),
    patchWidth,
    depth.byteOffset,
    colours.byteOffset,
    blends.byteOffset,
    face.aPerX,
    face.bPerX,
    face.depth0,
    face.depthA,
    face.depthB,
    face.texelScale,
    DEPTH_SLACK,
    INTEGER_BIAS,
  );
  return (blendsEnd - blends.byteOffset) / 8;
}

/**
 * Added to a whole number of at most 2^51 in magnitude, it leaves that number in the low 32 bits of the sum's
 * binary64 representation (two's complement): the loop converts floor(x) to an integer this way, in three
 * machine instructions where i32.trunc_f64_s takes six (it checks for a trap).
 */
const INTEGER_BIAS = 2 ** 52 + 2 ** 51;

// ---------------------------------------------------------------------------------------------------------
// The module, in the WebAssembly binary format: an imported memory and two functions of one type,
// (spans spansEnd patch patchWidth depth colours blends: i32, aPerX bPerX depth0 depthA depthB texelScale
// depthSlack integerBias: f64) -> blendsEnd: i32, addresses in bytes.

const op = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  br_if: 0x0d,
  local_get: 0x20,
  local_set: 0x21,
  local_tee: 0x22,
  i32_load: 0x28,
  f32_load: 0x2a,
  f64_load: 0x2b,
  i32_store: 0x36,
  f32_store: 0x38,
  i32_const: 0x41,
  i32_eqz: 0x45,
  i32_eq: 0x46,
  i32_le_s: 0x4c,
  i32_ge_u: 0x4f,
  f64_lt: 0x63,
  i32_add: 0x6a,
  i32_mul: 0x6c,
  i32_shl: 0x74,
  i32_shr_u: 0x76,
  f64_floor: 0x9c,
  f64_add: 0xa0,
  f64_sub: 0xa1,
  f64_mul: 0xa2,
  i32_wrap_i64: 0xa7,
  i32_trunc_f64_s: 0xaa,
  f32_demote_f64: 0xb6,
  f64_promote_f32: 0xbb,
  i64_reinterpret_f64: 0xbd,
} as const;
const I32 = 0x7f;
const F64 = 0x7c;
/** Block type of a block, loop or if that leaves nothing on the stack. */
const EMPTY = 0x40;

// Parameters, then locals, by index.
const [SPANS, SPANS_END, PATCH, PATCH_WIDTH, DEPTH, COLOURS, BLENDS] = [0, 1, 2, 3, 4, 5, 6];
const [A_PER_X, B_PER_X, DEPTH_0, DEPTH_A, DEPTH_B, TEXEL_SCALE, SLACK, BIAS] = [7, 8, 9, 10, 11, 12, 13, 14];
const [INDEX, LAST, TEXEL_AT, TEXEL, ALPHA, DEPTH_AT] = [15, 16, 17, 18, 19, 20];
const [A, B, Z] = [21, 22, 23];
const PARAMETERS = [...Array(7).fill(I32), ...Array(8).fill(F64)];
const LOCALS = [
  [6, I32],
  [3, F64],
];

const get = (local: number) => [op.local_get, local];
const set = (local: number) => [op.local_set, local];
const i32 = (value: number) => [op.i32_const, ...signed(value)];
/** Alignment (log2 of bytes) and offset of a load or store. */
const aligned = (log2Align: number, offset = 0) => [log2Align, ...unsigned(offset)];
/** base + 4 * local: the address of element `local` of a 32-bit array at `base`. */
const element32 = (base: number, local: number) => [...get(base), ...get(local), ...i32(2), op.i32_shl, op.i32_add];
/** x (a double on the stack) -> floor(x) as an i32. */
const floorToI32 = [op.f64_floor, ...get(BIAS), op.f64_add, op.i64_reinterpret_f64, op.i32_wrap_i64];

// prettier-ignore
/**
 * texelAt = patch + 4 * (floor(b * texelScale) * patchWidth + floor(a * texelScale)). The JavaScript loop
 * truncated toward zero; the two differ only for the pixel centres up to EDGE_SLACK outside a face's top or
 * left edge, which floor maps to row or column -1: the patch's border repeats row and column 0 there.
 */
const texelAddress = [
  ...get(B), ...get(TEXEL_SCALE), op.f64_mul, ...floorToI32, ...get(PATCH_WIDTH), op.i32_mul,
  ...get(A), ...get(TEXEL_SCALE), op.f64_mul, ...floorToI32, op.i32_add,
  ...i32(2), op.i32_shl, ...get(PATCH), op.i32_add,
];

// prettier-ignore
/** z = depth0 + a * depthA + b * depthB; to $next if z < depth[index] - depthSlack; else depth[index] = float32(z). */
const depthTest = [
  ...get(DEPTH_0), ...get(A), ...get(DEPTH_A), op.f64_mul, op.f64_add, ...get(B), ...get(DEPTH_B), op.f64_mul, op.f64_add,
  op.local_tee, Z,
  ...element32(DEPTH, INDEX), op.local_tee, DEPTH_AT, op.f32_load, ...aligned(2), op.f64_promote_f32,
  ...get(SLACK), op.f64_sub, op.f64_lt, op.br_if, 0,
  ...get(DEPTH_AT), ...get(Z), op.f32_demote_f64, op.f32_store, ...aligned(2),
];

// prettier-ignore
/** A pixel of a patch with transparent or translucent texels: the texel is tested first, then the depth. */
const pixel = [
  ...texelAddress, op.local_tee, TEXEL_AT, op.i32_load, ...aligned(2), op.local_tee, TEXEL,
  // to $next if transparent
  ...i32(24), op.i32_shr_u, op.local_tee, ALPHA, op.i32_eqz, op.br_if, 0,
  ...depthTest,
  // if opaque: colours[index] = texel, else: blends += (address of colours[index], texelAt)
  ...get(ALPHA), ...i32(255), op.i32_eq,
  op.if, EMPTY,
  ...element32(COLOURS, INDEX), ...get(TEXEL), op.i32_store, ...aligned(2),
  op.else,
  ...get(BLENDS), ...element32(COLOURS, INDEX), op.i32_store, ...aligned(2, 0),
  ...get(BLENDS), ...get(TEXEL_AT), op.i32_store, ...aligned(2, 4),
  ...get(BLENDS), ...i32(8), op.i32_add, ...set(BLENDS),
  op.end,
];

// prettier-ignore
/** A pixel of a patch with only opaque texels: the depth decides alone, and pixels behind read no texel. */
const opaquePixel = [
  ...depthTest,
  ...element32(COLOURS, INDEX), ...texelAddress, op.i32_load, ...aligned(2), op.i32_store, ...aligned(2),
];

// prettier-ignore
/** For each span: for index from first to last, a and b stepping by aPerX and bPerX: the pixel; then blendsEnd. */
const spanLoop = (pixelCode: number[]) => [
  op.block, EMPTY, // $done
  op.loop, EMPTY, // $spans
  ...get(SPANS), ...get(SPANS_END), op.i32_ge_u, op.br_if, 1,
  ...get(SPANS), op.f64_load, ...aligned(3, 0), op.i32_trunc_f64_s, ...set(INDEX),
  ...get(SPANS), op.f64_load, ...aligned(3, 8), op.i32_trunc_f64_s, ...set(LAST),
  ...get(SPANS), op.f64_load, ...aligned(3, 16), ...set(A),
  ...get(SPANS), op.f64_load, ...aligned(3, 24), ...set(B),
  ...get(SPANS), ...i32(32), op.i32_add, ...set(SPANS),
  op.loop, EMPTY, // $pixels
  op.block, EMPTY, // $next
  ...pixelCode,
  op.end,
  ...get(A), ...get(A_PER_X), op.f64_add, ...set(A),
  ...get(B), ...get(B_PER_X), op.f64_add, ...set(B),
  ...get(INDEX), ...i32(1), op.i32_add, op.local_tee, INDEX, ...get(LAST), op.i32_le_s, op.br_if, 0,
  op.end,
  op.br, 0,
  op.end,
  op.end,
  ...get(BLENDS),
  op.end,
];

function unsigned(value: number): number[] {
  const bytes = [];
  do {
    const low = value & 0x7f;
    value >>>= 7;
    bytes.push(value === 0 ? low : low | 0x80);
  } while (value !== 0);
  return bytes;
}

function signed(value: number): number[] {
  const bytes = [];
  for (;;) {
    const low = value & 0x7f;
    value >>= 7;
    if ((value === 0 && (low & 0x40) === 0) || (value === -1 && (low & 0x40) !== 0)) return [...bytes, low];
    bytes.push(low | 0x80);
  }
}

const name = (text: string) => [text.length, ...Buffer.from(text, 'latin1')];
const vector = (items: number[][]) => [...unsigned(items.length), ...items.flat()];
const sized = (content: number[]) => [...unsigned(content.length), ...content];
const section = (id: number, content: number[]) => [id, ...sized(content)];
const functionBody = (code: number[]) => sized([...vector(LOCALS), ...code]);

const TYPE = 1;
const IMPORT = 2;
const FUNCTION = 3;
const EXPORT = 7;
const CODE = 10;
const moduleBytes = Uint8Array.from([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
  ...section(TYPE, vector([[0x60, ...vector(PARAMETERS.map((type) => [type])), ...vector([[I32]])]])),
  // "render" "memory": a memory, at least 0 pages
  ...section(IMPORT, vector([[...name('render'), ...name('memory'), 0x02, 0x00, 0x00]])),
  ...section(FUNCTION, vector([[0], [0]])),
  ...section(
    EXPORT,
    vector([
      [...name('drawSpans'), 0x00, 0],
      [...name('drawOpaqueSpans'), 0x00, 1],
    ]),
  ),
  ...section(CODE, vector([functionBody(spanLoop(pixel)), functionBody(spanLoop(opaquePixel))])),
]);

type SpanLoop = (...args: number[]) => number;
const loops = new WebAssembly.Instance(new WebAssembly.Module(moduleBytes), { render: { memory } }).exports as {
  drawSpans: SpanLoop;
  drawOpaqueSpans: SpanLoop;
};
