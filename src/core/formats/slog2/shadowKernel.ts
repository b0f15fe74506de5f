/**
 * A shadow section's decoding into columns in WebAssembly (shadowKernel.wat), for shadowTable.ts:
 * the JS loop runs once per buffer, as cold code in a fresh process, where it was ~6 ms of a
 * whole-trace first window (~1 500 shadows, ~8 000 weights). The kernel gives the same columns
 * and, as a list of events, the categories met and the shadows dropped in the order the JS loop
 * reports them. undefined where WebAssembly is missing or refused, or the kernel stops: the
 * caller decodes in JS.
 */
import { readerKernel } from './readerKernels';
import { holdBytes, instantiateWasm, type WasmMemory } from '../../bytes/wasmModule';
import type { ShadowTable } from './shadowTable';

/** Sections above this size stay with the JS loop (a node is at most a few MB; this is far past it). */
const MAX_KERNEL_SECTION = 64 << 20;
/** An instance whose memory grew past this is not kept for the next section (memory never shrinks). */
const KEEP_BYTES = 4 << 20;
const VERTEX_BYTES = 12;
/** The first try's set of categories met (the kernel says when it is half full). */
const FIRST_SET_SLOTS = 256;

/** Event kinds in the kernel's list. */
export const SEEN_CATEGORY = 0;
export const DROPPED_SHADOW = 1;

export interface KernelDecoding {
  readonly table: ShadowTable;
  /** (kind, category, offset in the section) triples, in the JS decoder's order. */
  readonly events: Int32Array;
}

type DecodeFn = (...args: number[]) => void;

let kept: { memory: WasmMemory; decode: DecodeFn } | undefined;

function instance(bytes: number): { memory: WasmMemory; decode: DecodeFn } | undefined {
  let k = kept;
  if (k === undefined) {
    const module = readerKernel('shadow');
    const made = module === undefined ? undefined : instantiateWasm(module);
    if (made === undefined) return undefined;
    k = { memory: made.exports.memory as WasmMemory, decode: made.exports.decode as DecodeFn };
  }
  if (!holdBytes(k.memory, bytes)) return undefined;
  kept = k.memory.buffer.byteLength <= KEEP_BYTES ? k : undefined;
  return k;
}

const align8 = (n: number): number => Math.ceil(n / 8) * 8;

/** Regions of the given sizes one after another from `start`: each one's offset, and where the last ends. */
function laidOut<K extends string>(start: number, sizes: Record<K, number>): Record<K | 'end', number> {
  const at = {} as Record<K | 'end', number>;
  let next = start;
  for (const key of Object.keys(sizes) as K[]) {
    at[key] = next;
    next += sizes[key];
  }
  at.end = next;
  return at;
}

/**
 * The shadows of a section (`counts`: nestless, nestable) that the node's parse walked and
 * bounds-checked, as columns, or undefined: decode them in JS.
 */
export function decodeInKernel(bytes: Uint8Array, counts: readonly [number, number], v6: boolean): KernelDecoding | undefined {
  if (bytes.length > MAX_KERNEL_SECTION) return undefined;
  const shadows = counts[0] + counts[1];
  // the JS decoder's upper bounds (a vertex and a weight take at least 12 bytes each)
  const items = Math.floor(bytes.length / VERTEX_BYTES);
  const events = 2 * shadows + items;
  // A section meets a few categories: a small set first, one that holds every field if it fills.
  let slots = 16;
  while (slots <= 2 * (shadows + items)) slots *= 2;
  for (const tried of slots > FIRST_SET_SLOTS ? [FIRST_SET_SLOTS, slots] : [slots]) {
    const decoded = decodeWith(bytes, counts, v6, shadows, items, events, tried);
    if (decoded !== 'set full') return decoded;
  }
  return undefined;
}

function decodeWith(
  bytes: Uint8Array,
  counts: readonly [number, number],
  v6: boolean,
  shadows: number,
  items: number,
  events: number,
  slots: number,
): KernelDecoding | 'set full' | undefined {
  // f64 columns first (aligned), then i32 and f32 ones
  const { ear, lat, real, vt, wn, set, cat, vs, ws, vl, wc, wi, we, wo, kn, kx, ev, res, end } = laidOut(align8(bytes.length), {
    ear: 8 * shadows,
    lat: 8 * shadows,
    real: 8 * shadows,
    vt: 8 * items,
    wn: 8 * items,
    set: 8 * slots,
    cat: 4 * shadows,
    vs: 4 * (shadows + 1),
    ws: 4 * (shadows + 1),
    vl: 4 * items,
    wc: 4 * items,
    wi: 4 * items,
    we: 4 * items,
    wo: 4 * items,
    kn: 4 * items,
    kx: 4 * items,
    ev: 12 * events,
    res: 16,
  });
  const k = instance(end);
  if (k === undefined) return undefined;
  const buf = k.memory.buffer;
  new Uint8Array(buf, 0, bytes.length).set(bytes);
  new Uint8Array(buf, set, 8 * slots).fill(0);
  try {
    k.decode(counts[0], counts[1], v6 ? 1 : 0, cat, ear, lat, real, vs, ws, vt, vl, wc, wi, we, wn, wo, kn, kx, ev, set, slots - 1, res);
  } catch {
    // a length the walk did not see ran past the memory: the JS decoder reports it
    kept = undefined;
    return undefined;
  }
  const [n, v, w, e] = new Int32Array(buf, res, 4);
  if (n! < 0) return 'set full';
  const i32 = (at: number, len: number): Int32Array => new Int32Array(buf, at, len).slice();
  const f64 = (at: number, len: number): Float64Array => new Float64Array(buf, at, len).slice();
  const f32 = (at: number, len: number): Float32Array => new Float32Array(buf, at, len).slice();
  return {
    table: {
      count: n!,
      category: i32(cat, n!),
      earliest: f64(ear, n!),
      latest: f64(lat, n!),
      numRealObjs: f64(real, n!),
      vertexStart: i32(vs, n! + 1),
      vertexTime: f64(vt, v!),
      vertexLine: i32(vl, v!),
      weightStart: i32(ws, n! + 1),
      weightCategory: i32(wc, w!),
      weightIncl: f32(wi, w!),
      weightExcl: f32(we, w!),
      weightCount: f64(wn, w!),
      weightOrder: i32(wo, w!),
    },
    events: i32(ev, 3 * e!),
  };
}
