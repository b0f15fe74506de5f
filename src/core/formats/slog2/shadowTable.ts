/**
 * A shadow buffer's shadows (SLOG2.md §7.4) decoded into columns: one pass over a section that
 * the node's parse has walked and bounds-checked (treeNode.ts skipShadow), with the object
 * decoder's results (the same NaN drops and warnings, the same categories seen). The window
 * builder reads the columns; the objects (`Shadow`) are made from them when asked. A whole-trace
 * window's root holds ~1 500 shadows and ~8 000 weights: as objects, they and the collections
 * they caused were ~20 ms of a first window in a fresh process.
 */
import type { Shadow } from '../../model/types';
import type { NodeParseContext } from './treeNode';
import { SEEN_CATEGORY, decodeInKernel } from './shadowKernel';

const VERTEX_BYTES = 12;

export interface ShadowTable {
  /** The shadows kept (one with a NaN/∞ time is dropped), in buffer order: nestless, then nestable. */
  readonly count: number;
  readonly category: Int32Array;
  readonly earliest: Float64Array;
  readonly latest: Float64Array;
  readonly numRealObjs: Float64Array;
  /** Shadow k's vertices are [vertexStart[k], vertexStart[k + 1]) (at least one each). */
  readonly vertexStart: Int32Array;
  readonly vertexTime: Float64Array;
  readonly vertexLine: Int32Array;
  /** Shadow k's category weights are [weightStart[k], weightStart[k + 1]), in file order. */
  readonly weightStart: Int32Array;
  readonly weightCategory: Int32Array;
  readonly weightIncl: Float32Array;
  readonly weightExcl: Float32Array;
  /** NaN in SLOG-2 2.0.5 files (no count written). */
  readonly weightCount: Float64Array;
  /**
   * Each shadow's weights in drawing order (the payload's, shadowWeights.ts): [weightStart[k],
   * weightStart[k + 1]) holds indices into the weight columns, by exclusion ratio descending (NaN
   * or infinite as 0), then inclusion ratio, then category.
   */
  readonly weightOrder: Int32Array;
}

/**
 * The shadows of a buffer section (`counts`: nestless, nestable) as columns. `bytes` starts at the
 * section, `base` is its file offset (for warnings). In the WebAssembly kernel where it runs
 * (shadowKernel.ts), else by the JS loop: the same columns, categories seen and warnings.
 */
export function decodeShadowTable(bytes: Uint8Array, base: number, file: string, counts: readonly [number, number], ctx: NodeParseContext): ShadowTable {
  const byKernel = decodeInKernel(bytes, counts, ctx.version === 'SLOG 2.0.6');
  if (byKernel === undefined) return decodeInJs(bytes, base, file, counts, ctx);
  const ev = byKernel.events;
  for (let i = 0; i < ev.length; i += 3) {
    if (ev[i] === SEEN_CATEGORY) ctx.seeCategory(ev[i + 1]!, base + ev[i + 2]!);
    else ctx.warn(droppedMessage(file, base + ev[i + 2]!));
  }
  return byKernel.table;
}

const droppedMessage = (file: string, at: number): string => `${file}:${at}: shadow with a NaN or infinite time dropped`;

/** decodeShadowTable's JS loop. */
function decodeInJs(bytes: Uint8Array, base: number, file: string, counts: readonly [number, number], ctx: NodeParseContext): ShadowTable {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const weightBytes = ctx.version === 'SLOG 2.0.6' ? 20 : 12;
  const shadows = counts[0] + counts[1];
  // Upper bounds from the section's size (a vertex and a weight take at least 12 bytes each); trimmed at the end.
  const maxItems = Math.floor(bytes.length / VERTEX_BYTES);
  const category = new Int32Array(shadows);
  const earliestOf = new Float64Array(shadows);
  const latestOf = new Float64Array(shadows);
  const numRealObjs = new Float64Array(shadows);
  const vertexStart = new Int32Array(shadows + 1);
  const weightStart = new Int32Array(shadows + 1);
  const vertexTime = new Float64Array(maxItems);
  const vertexLine = new Int32Array(maxItems);
  const weightCategory = new Int32Array(maxItems);
  const weightIncl = new Float32Array(maxItems);
  const weightExcl = new Float32Array(maxItems);
  const weightCount = new Float64Array(maxItems);
  const weightOrder = new Int32Array(maxItems);
  // Each category once per section (the reader warns once per unknown one, at its first offset).
  const seen = new Set<number>();
  let kept = 0;
  let v = 0;
  let w = 0;
  let pos = 0;
  for (let list = 0; list < 2; list++) {
    pos += 4;
    for (let k = counts[list]!; k > 0; k--) {
      const at = pos;
      const c = dv.getInt32(pos);
      if (!seen.has(c)) {
        seen.add(c);
        ctx.seeCategory(c, base + pos);
      }
      pos += 6 + dv.getInt16(pos + 4);
      const nverts = dv.getInt16(pos);
      pos += 2;
      // A dropped shadow's vertices and weights are overwritten by the next one's.
      const v0 = v;
      const w0 = w;
      let finite = true;
      for (let i = 0; i < nverts; i++, pos += VERTEX_BYTES, v++) {
        const time = dv.getFloat64(pos);
        if (!Number.isFinite(time)) finite = false;
        vertexTime[v] = time;
        vertexLine[v] = dv.getInt32(pos + 8);
      }
      const earliest = dv.getFloat64(pos);
      const latest = dv.getFloat64(pos + 8);
      const real = int64(dv, pos + 16);
      const nweights = dv.getInt32(pos + 24);
      pos += 28;
      for (let i = 0; i < nweights; i++, pos += weightBytes, w++) {
        const wc = dv.getInt32(pos);
        if (!seen.has(wc)) {
          seen.add(wc);
          ctx.seeCategory(wc, base + pos);
        }
        weightCategory[w] = wc;
        weightIncl[w] = dv.getFloat32(pos + 4);
        weightExcl[w] = dv.getFloat32(pos + 8);
        weightCount[w] = weightBytes === 20 ? int64(dv, pos + 12) : NaN;
      }
      if (!finite || !Number.isFinite(earliest) || !Number.isFinite(latest)) {
        ctx.warn(droppedMessage(file, base + at));
        v = v0;
        w = w0;
        continue;
      }
      category[kept] = c;
      earliestOf[kept] = earliest;
      latestOf[kept] = latest;
      numRealObjs[kept] = real;
      vertexStart[kept] = v0;
      weightStart[kept] = w0;
      orderWeights(weightOrder, weightCategory, weightIncl, weightExcl, w0, w);
      kept++;
    }
  }
  vertexStart[kept] = v;
  weightStart[kept] = w;
  return {
    count: kept,
    category: category.subarray(0, kept),
    earliest: earliestOf.subarray(0, kept),
    latest: latestOf.subarray(0, kept),
    numRealObjs: numRealObjs.subarray(0, kept),
    vertexStart: vertexStart.subarray(0, kept + 1),
    vertexTime: vertexTime.slice(0, v),
    vertexLine: vertexLine.slice(0, v),
    weightStart: weightStart.subarray(0, kept + 1),
    weightCategory: weightCategory.slice(0, w),
    weightIncl: weightIncl.slice(0, w),
    weightExcl: weightExcl.slice(0, w),
    weightCount: weightCount.slice(0, w),
    weightOrder: weightOrder.slice(0, w),
  };
}

/** Weights [w0, w1)'s drawing order into `order` (ShadowTable.weightOrder): an insertion sort, a shadow has a handful. */
function orderWeights(order: Int32Array, category: Int32Array, incl: Float32Array, excl: Float32Array, w0: number, w1: number): void {
  for (let j = w0; j < w1; j++) {
    const x = drawnRatio(excl[j]!);
    const n = drawnRatio(incl[j]!);
    const c = category[j]!;
    let i = j;
    for (; i > w0; i--) {
      const o = order[i - 1]!;
      const x2 = drawnRatio(excl[o]!);
      const n2 = drawnRatio(incl[o]!);
      if (!(x > x2 || (x === x2 && (n > n2 || (n === n2 && c < category[o]!))))) break;
      order[i] = o;
    }
    order[i] = j;
  }
}

/** A weight's ratio as drawn and sorted: NaN/∞ in reference files (zero-duration shadows) as 0. */
export function drawnRatio(x: number): number {
  return Number.isFinite(x) ? x : 0;
}

/** The table's shadows as objects (the reader's `Shadow`s: the same values, in the same order). */
export function shadowObjects(t: ShadowTable): Shadow[] {
  const out: Shadow[] = [];
  for (let k = 0; k < t.count; k++) {
    const vertices = [];
    for (let v = t.vertexStart[k]!; v < t.vertexStart[k + 1]!; v++) vertices.push({ time: t.vertexTime[v]!, lineID: t.vertexLine[v]! });
    const weights = [];
    for (let w = t.weightStart[k]!; w < t.weightStart[k + 1]!; w++) {
      weights.push({ category: t.weightCategory[w]!, incl: t.weightIncl[w]!, excl: t.weightExcl[w]!, count: t.weightCount[w]! });
    }
    out.push({ category: t.category[k]!, vertices, earliest: t.earliest[k]!, latest: t.latest[k]!, numRealObjs: t.numRealObjs[k]!, weights });
  }
  return out;
}

/**
 * Steps over `n` big-endian shadows from `pos` (SLOG2.md §7.4) as treeNode.ts skipShadow does,
 * reading the bytes straight: returns the position after them, or −1 at anything skipShadow would
 * look at twice (a length out of bounds, a count past ±2^21·2^32, …): the caller then walks them
 * again with skipShadow, which accepts or names the field. Its reader calls, ~10 a shadow, were
 * most of the parse of a whole-trace root (~1 500 shadows) in a fresh process.
 */
export function walkShadows(b: Uint8Array, pos: number, n: number, v6: boolean): number {
  const end = b.length;
  const weightBytes = v6 ? 20 : 12;
  for (let k = 0; k < n; k++) {
    if (pos + 8 > end) return -1;
    const infolen = ((b[pos + 4]! << 24) | (b[pos + 5]! << 16)) >> 16;
    if (infolen < 0) return -1;
    pos += 6 + infolen;
    if (pos + 2 > end) return -1;
    const nverts = ((b[pos]! << 24) | (b[pos + 1]! << 16)) >> 16;
    pos += 2 + nverts * VERTEX_BYTES;
    // the vertices, both times, num_real_objs and the weight count
    if (nverts <= 0 || pos + 28 > end || !inSafeRange(b, pos + 16)) return -1;
    const nweights = (b[pos + 24]! << 24) | (b[pos + 25]! << 16) | (b[pos + 26]! << 8) | b[pos + 27]!;
    pos += 28;
    if (nweights < 0 || pos + nweights * weightBytes > end) return -1;
    if (v6)
      for (let w = 0, p = pos + 12; w < nweights; w++, p += 20) {
        // each weight's count, as inSafeRange (written out: a call per weight showed in a cold parse)
        const hi = (b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!;
        if (!(hi > -0x200000 && hi < 0x200000)) return -1;
      }
    pos += nweights * weightBytes;
  }
  return pos;
}

/** Whether the big-endian i64 at `p` has its high word inside ±2^21 (then the value is inside ±2^53). */
function inSafeRange(b: Uint8Array, p: number): boolean {
  const hi = (b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!;
  return hi > -0x200000 && hi < 0x200000;
}

/** A big-endian i64 that skipShadow found inside ±2^53. */
function int64(dv: DataView, pos: number): number {
  return dv.getInt32(pos) * 0x100000000 + dv.getUint32(pos + 4);
}
