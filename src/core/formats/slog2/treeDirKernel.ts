/**
 * The TreeDir's per-entry passes at open in WebAssembly (treeDirKernel.wat): the parse with its
 * summary, the proof that no two blocks overlap, and the index's levels. Each is a JS loop over
 * every entry otherwise, ~5 ms for the 14 000 entries of a 1.7 GB file in a fresh process (cold
 * code), most of the open; in the kernel they take a few milliseconds together, most of it the
 * first call's. An open's calls share an instance, garbage once their results are copied out. Each
 * answers undefined where WebAssembly is missing or refused: the caller runs its JS loop instead, which is
 * also what names an entry at fault (the kernel only shows that all is well).
 */
import { readerKernel } from './readerKernels';
import { holdBytes, instantiateWasm, type WasmMemory } from '../../bytes/wasmModule';
import type { TreeDirColumns, TreeDirSummary } from './treeDir';

/** Directories above this many entries (a trace of hundreds of GB) stay with the JS loops: the kernel's memory is ~70 bytes an entry. */
const MAX_KERNEL_ENTRIES = 1 << 22;
const ENTRY_BYTES = 34;
/** The summary block's size (see the .wat's `parse`). */
const SUMMARY_BYTES = 32;

type KernelFn = (...args: number[]) => number;

/**
 * The last instance, kept until the current task's microtasks run: open calls the kernel three
 * times in one synchronous stretch (parse, overlap, levels), and the later two reuse the parse's
 * memory (already mapped and big enough) instead of a new one each.
 */
let recent: Kernel | undefined;

interface Kernel {
  readonly memory: WasmMemory;
  readonly exports: Record<string, unknown>;
}

/**
 * An instance whose memory holds at least `bytes`, or undefined (no WebAssembly, or no memory for
 * it). `zeroed`: a new instance, whose memory is all zeros (the parse counts into it).
 */
function instance(bytes: number, zeroed: boolean): Kernel | undefined {
  if (!zeroed && recent !== undefined && recent.memory.buffer.byteLength >= bytes) return recent;
  const module = readerKernel('treeDir');
  const made = module === undefined ? undefined : instantiateWasm(module);
  if (made === undefined) return undefined;
  const memory = made.exports.memory as WasmMemory;
  if (!holdBytes(memory, bytes)) return undefined;
  if (recent === undefined) queueMicrotask(() => (recent = undefined));
  recent = { memory, exports: made.exports };
  return recent;
}

const align8 = (n: number): number => Math.ceil(n / 8) * 8;

/**
 * Parses `count` entries of `entries` into `dir`'s columns and returns their summary, or undefined
 * (nothing written that the JS parse will not overwrite) when the kernel cannot run or an fptr is
 * beyond what a double holds exactly (the JS parse names it).
 */
export function parseInKernel(entries: Uint8Array, count: number, littleEndian: boolean, maxDepth: number, dir: TreeDirColumns): TreeDirSummary | undefined {
  if (count > MAX_KERNEL_ENTRIES) return undefined;
  const depths = maxDepth + 1;
  const ear = align8(count * ENTRY_BYTES);
  const lat = ear + 8 * count;
  const fp = lat + 8 * count;
  const sum = fp + 8 * count;
  const pd = sum + align8(SUMMARY_BYTES);
  const xp = pd + 32 * depths;
  const sz = xp + 4 * count;
  const dep = sz + 4 * count;
  const k = instance(dep + 2 * count, true);
  if (k === undefined) return undefined;
  const buf = k.memory.buffer;
  new Uint8Array(buf, 0, count * ENTRY_BYTES).set(entries.subarray(0, count * ENTRY_BYTES));
  const bad = (k.exports.parse as KernelFn)(count, littleEndian ? 1 : 0, 0, maxDepth, dep, xp, ear, lat, fp, sz, pd, sum);
  if (bad >= 0) return undefined;
  dir.depth.set(new Int16Array(buf, dep, count));
  dir.xpos.set(new Int32Array(buf, xp, count));
  dir.earliest.set(new Float64Array(buf, ear, count));
  dir.latest.set(new Float64Array(buf, lat, count));
  dir.fptr.set(new Float64Array(buf, fp, count));
  dir.size.set(new Int32Array(buf, sz, count));
  const f64 = new Float64Array(buf, sum, 2);
  const i32 = new Int32Array(buf, sum + 16, 4);
  const perDepth = (at: number): Uint8Array => Uint8Array.from(new Int32Array(buf, at, depths), (x) => (x === 0 ? 1 : 0));
  const none = count === 0;
  return {
    inRange: i32[2] === 0,
    minFptr: none ? 0 : f64[0]!,
    maxEnd: none ? 0 : f64[1]!,
    minSize: none ? 0 : i32[0]!,
    maxSize: none ? 0 : i32[1]!,
    counts: new Int32Array(buf, pd + 16 * depths, depths).slice(),
    // the kernel marks the depths out of order; the summary says which are in order
    byXpos: perDepth(pd + 20 * depths),
    inTime: perDepth(pd + 24 * depths),
    root: i32[3]!,
  };
}

/**
 * Whether the blocks (each entry's, then the `named` ones) are shown to share no byte: true, false
 * (not shown: the caller's JS check finds and names the pair), or undefined (no kernel).
 */
export function disjointInKernel(fptr: Float64Array, size: Int32Array, named: readonly { fptr: number; size: number }[]): boolean | undefined {
  const n = fptr.length;
  if (n > MAX_KERNEL_ENTRIES) return undefined;
  const m = n + named.length;
  const st = 0;
  const en = 8 * m;
  const st2 = 16 * m;
  const en2 = 24 * m;
  const sz = 32 * m;
  const runs = sz + 4 * n;
  const k = instance(runs + 4 * (m + 1), false);
  if (k === undefined) return undefined;
  const buf = k.memory.buffer;
  const starts = new Float64Array(buf, st, m);
  const ends = new Float64Array(buf, en, m);
  starts.set(fptr);
  named.forEach((b, j) => {
    starts[n + j] = b.fptr;
    ends[n + j] = b.fptr + b.size;
  });
  new Int32Array(buf, sz, n).set(size);
  return (k.exports.disjoint as KernelFn)(n, m, st, en, sz, st2, en2, runs) === 1;
}

/**
 * The entries' indices grouped by depth (every depth in 0..counts.length − 1), each group in file
 * order: one array, depth d's group at the sum of the counts before it. undefined: no kernel.
 */
export function levelsInKernel(depth: Int16Array, counts: Int32Array): Int32Array | undefined {
  const n = depth.length;
  if (n > MAX_KERNEL_ENTRIES) return undefined;
  const out = 0;
  const next = 4 * n;
  const dep = next + 4 * counts.length;
  const k = instance(dep + 2 * n, false);
  if (k === undefined) return undefined;
  const buf = k.memory.buffer;
  const firsts = new Int32Array(buf, next, counts.length);
  for (let d = 0, at = 0; d < counts.length; at += counts[d]!, d++) firsts[d] = at;
  new Int16Array(buf, dep, n).set(depth);
  (k.exports.levels as (n: number, dep: number, next: number, out: number) => void)(n, dep, next, out);
  return new Int32Array(buf, out, n).slice();
}

/** 0, 1, …, n − 1 (the kept entries when all are kept), or undefined: no kernel. */
export function allInKernel(n: number): Int32Array | undefined {
  if (n > MAX_KERNEL_ENTRIES) return undefined;
  const k = instance(4 * n, false);
  if (k === undefined) return undefined;
  (k.exports.iota as (n: number, out: number) => void)(n, 0);
  return new Int32Array(k.memory.buffer, 0, n).slice();
}
