/**
 * A node's shadow weights (SLOG2.md §12.2; shadowWeights.ts) summed by a WebAssembly kernel
 * (shadowWeightsKernel.wat): each member's inclusive ratio added to its shadow's weight of its
 * category, and the exclusive ratios of the state shadows that collect children. In JS (grouping,
 * sorting, a weight looked up and a float added per member) that was ~15 % of the writer thread
 * in a 16-rank conversion. The same Java floats added in the same order: the same bytes. The
 * weights stay in the arena (shadowColumns.ts): a row's are copied in and the sums written back.
 * The JS path stays for nodes too big to copy and wherever WebAssembly is missing or refused or
 * the kernel stops (a unit test compares the two).
 */
import { compiledOnce, holdBytes, instantiateWasm, MemoryLayout, type WasmMemory } from '../../../bytes/wasmModule';
import { keepShapeAlive } from '../../../bytes/keepShape';
import { W_CATEGORY, W_COUNT, W_EXCL, W_INCL, type ShadowColumns } from './shadowColumns';
import type { MemberColumns } from './shadowMembers';
import { SHADOW_WEIGHTS_KERNEL_WASM } from './shadowWeightsKernelWasm';

/**
 * Nodes whose columns take more than this stay with the JS path: the kernel's memory never
 * shrinks. ~70 bytes a member: ~3 500 members. Every node of the 16- and 2-rank bench traces fits
 * (7 610 and 9 680 calls), of the 2048-rank one four in five; at 16 384 ranks, whose peak has little
 * room under 256 MB, 1 MB made no difference there either (4 alternating runs each) but buys nothing.
 */
const MAX_KERNEL_BYTES = 1 << 18;

type KernelFn = (...args: number[]) => number;

const kernelModule = compiledOnce(SHADOW_WEIGHTS_KERNEL_WASM);

/** Bytes at the start of the kernel's memory its category cache keeps (shadowWeightsKernel.wat). */
const CACHE_BYTES = 3072;

/**
 * Where the kernel's columns go in its memory (after its cache) for m members, `rows` shadows,
 * `weights` weights and, for the exclusive ratios, n covers.
 */
class Layout extends MemoryLayout {
  readonly s: number;
  readonly e: number;
  readonly l: number;
  readonly c: number;
  readonly ge: number;
  readonly gl: number;
  readonly gc: number;
  readonly starts: number;
  readonly fill: number;
  readonly re: number;
  readonly rl: number;
  readonly wstarts: number;
  readonly count: number;
  readonly weights: number;
  readonly flags: number;
  readonly cs: number;
  readonly ce: number;
  readonly cl: number;
  readonly cc: number;
  readonly gce: number;
  readonly gcl: number;
  readonly gcc: number;
  readonly cstarts: number;
  readonly order: number;
  readonly tmp: number;
  readonly stack: number;
  readonly excl: number;
  readonly sums: number;
  readonly touched: number;

  /**
   * Inclusive (`n` undefined): room for each row's weights and one a member (16 bytes each,
   * `weights` the rows' own so far); exclusive: the categories, sums and marks of `weights`
   * weights, the covers and the sort's scratch.
   */
  constructor(m: number, rows: number, weights: number, n: number | undefined) {
    super(CACHE_BYTES);
    this.s = this.next(4 * m);
    this.e = this.next(8 * m);
    this.l = this.next(8 * m);
    this.c = this.next(4 * m);
    this.ge = this.next(8 * m);
    this.gl = this.next(8 * m);
    this.gc = this.next(4 * m);
    this.starts = this.next(4 * (rows + 1));
    this.fill = this.next(4 * rows);
    this.re = this.next(8 * rows);
    this.rl = this.next(8 * rows);
    this.wstarts = this.next(4 * (rows + 1));
    const x = n === undefined ? 0 : 1;
    const covers = n ?? 0;
    this.count = this.next((1 - x) * 4 * rows);
    this.weights = this.next((1 - x) * 16 * (weights + m) + x * 4 * weights);
    this.flags = this.next(x * rows);
    this.cs = this.next(4 * covers);
    this.ce = this.next(8 * covers);
    this.cl = this.next(8 * covers);
    this.cc = this.next(4 * covers);
    this.gce = this.next(8 * covers);
    this.gcl = this.next(8 * covers);
    this.gcc = this.next(4 * covers);
    this.cstarts = this.next(x * 4 * (rows + 1));
    this.order = this.next(x * 4 * m);
    this.tmp = this.next(x * 4 * m);
    this.stack = this.next(x * 4 * m);
    this.excl = this.next(x * 8 * m);
    this.sums = this.next(x * 4 * weights);
    this.touched = this.next(x * weights);
  }
}

// a layout is made per kernel call and dropped at once: keep one, and the calls' optimised code (keepShape.ts)
keepShapeAlive(new Layout(0, 0, 0, undefined));

export class ShadowWeightsKernel {
  private constructor(
    private readonly memory: WasmMemory,
    private readonly group: KernelFn,
    private readonly inclusiveSums: KernelFn,
    private readonly exclusiveSums: KernelFn,
  ) {}

  /** An instance, or undefined where WebAssembly is missing or refused (work in JS). */
  static create(): ShadowWeightsKernel | undefined {
    const m = kernelModule();
    const made = m === undefined ? undefined : instantiateWasm(m);
    if (made === undefined) return undefined;
    const x = made.exports;
    return new ShadowWeightsKernel(x.memory as WasmMemory, x.group as KernelFn, x.inclusive as KernelFn, x.exclusive as KernelFn);
  }

  /**
   * shadowWeights.ts inclusiveWeights: each row's members' inclusive ratios and counts added to
   * its weights. False, with nothing changed, when the node is too big for the kernel or the
   * kernel stopped: work in JS.
   */
  inclusive(t: ShadowColumns, members: MemberColumns): boolean {
    const rows = t.count;
    const m = members.count;
    let own = 0;
    for (let r = 0; r < rows; r++) if (t.hasWeights[r] === 1) own += t.weightCount[r]!;
    const at = new Layout(m, rows, own, undefined);
    if (!this.fits(at)) return false;
    const buffer = this.memory.buffer;
    this.copyMembers(buffer, at, t, members);
    const starts = new Uint32Array(buffer, at.starts, rows + 1);
    const wstarts = new Uint32Array(buffer, at.wstarts, rows + 1);
    const words = new Uint32Array(buffer, at.weights, 4 * (own + m));
    try {
      this.groupMembers(at, m, rows);
      // the weights so far of the rows with members, where the kernel sums into them
      wstarts[0] = 0;
      for (let r = 0; r < rows; r++) {
        const n = starts[r + 1]! > starts[r]! && t.hasWeights[r] === 1 ? t.weightCount[r]! : 0;
        wstarts[r + 1] = wstarts[r]! + n;
        if (n > 0) words.set(t.arenaBits.subarray(t.weightStart[r]!, t.weightStart[r]! + 4 * n), 4 * (wstarts[r]! + starts[r]!));
      }
      this.inclusiveSums(rows, at.re, at.rl, at.starts, at.ge, at.gl, at.gc, at.weights, at.wstarts, at.count);
    } catch {
      return false;
    }
    const count = new Uint32Array(buffer, at.count, rows);
    const ratios = new Float32Array(buffer, at.weights, 4 * (own + m));
    for (let r = 0; r < rows; r++) {
      if (starts[r + 1] === starts[r]) continue;
      if (t.hasWeights[r] === 0) {
        t.hasWeights[r] = 1;
        t.weightCount[r] = 0;
        t.weightRoom[r] = 0;
      }
      const had = wstarts[r + 1]! - wstarts[r]!;
      const base = 4 * (wstarts[r]! + starts[r]!);
      const ws = t.weightStart[r]!;
      const bits = t.arenaBits;
      for (let j = 0; j < had; j++) {
        bits[ws + 4 * j + W_INCL] = words[base + 4 * j + W_INCL]!;
        bits[ws + 4 * j + W_COUNT] = words[base + 4 * j + W_COUNT]!;
      }
      for (let j = had; j < count[r]!; j++) {
        const w = base + 4 * j;
        t.appendWeight(r, words[w + W_CATEGORY]! | 0, ratios[w + W_INCL]!, 0, words[w + W_COUNT]!);
      }
    }
    return true;
  }

  /**
   * shadowWeights.ts exclusiveWeights: the exclusive ratios of the rows that collect children and
   * have members of their own, their merged child shadows' bounds in `covers`. False, with nothing
   * changed, as for inclusive() (and where a member's category has no weight: the JS says so).
   */
  exclusive(t: ShadowColumns, members: MemberColumns, covers: MemberColumns | undefined): boolean {
    const rows = t.count;
    const m = members.count;
    const n = covers?.count ?? 0;
    let weights = 0;
    for (let r = 0; r < rows; r++) if (t.hasExclusiveWeights(r)) weights += t.weightCount[r]!;
    const at = new Layout(m, rows, weights, n);
    if (!this.fits(at)) return false;
    const buffer = this.memory.buffer;
    this.copyMembers(buffer, at, t, members);
    const flags = new Uint8Array(buffer, at.flags, rows);
    const wstarts = new Uint32Array(buffer, at.wstarts, rows + 1);
    const cats = new Uint32Array(buffer, at.weights, weights);
    wstarts[0] = 0;
    for (let r = 0; r < rows; r++) {
      const on = t.hasExclusiveWeights(r);
      flags[r] = on ? 1 : 0;
      const k = on ? t.weightCount[r]! : 0;
      wstarts[r + 1] = wstarts[r]! + k;
      const ws = t.weightStart[r]!;
      for (let j = 0; j < k; j++) cats[wstarts[r]! + j] = t.arenaBits[ws + 4 * j + W_CATEGORY]!;
    }
    if (covers !== undefined) {
      new Int32Array(buffer, at.cs, n).set(covers.shadow.subarray(0, n));
      new Float64Array(buffer, at.ce, n).set(covers.earliest.subarray(0, n));
      new Float64Array(buffer, at.cl, n).set(covers.latest.subarray(0, n));
      new Int32Array(buffer, at.cc, n).set(covers.category.subarray(0, n));
    }
    try {
      this.groupMembers(at, m, rows);
      this.group(n, rows, at.cs, at.ce, at.cl, at.cc, at.fill, at.cstarts, at.gce, at.gcl, at.gcc);
      this.exclusiveSums(
        rows,
        at.re,
        at.rl,
        at.flags,
        at.starts,
        at.ge,
        at.gl,
        at.gc,
        at.cstarts,
        at.gce,
        at.gcl,
        at.order,
        at.tmp,
        at.stack,
        at.excl,
        at.weights,
        at.wstarts,
        at.sums,
        at.touched,
      );
    } catch {
      return false;
    }
    const sums = new Float32Array(buffer, at.sums, weights);
    const touched = new Uint8Array(buffer, at.touched, weights);
    const a = t.arena;
    for (let r = 0; r < rows; r++) {
      const from = wstarts[r]!;
      const ws = t.weightStart[r]! + W_EXCL;
      for (let j = 0; j < wstarts[r + 1]! - from; j++) {
        if (touched[from + j] === 0) continue;
        a[ws + 4 * j] = Math.fround(a[ws + 4 * j]! + sums[from + j]!);
      }
    }
    return true;
  }

  private fits(at: Layout): boolean {
    return at.end <= MAX_KERNEL_BYTES && holdBytes(this.memory, at.end);
  }

  /** The members' columns and the shadows' bounds into the kernel's memory. */
  private copyMembers(buffer: ArrayBuffer, at: Layout, t: ShadowColumns, members: MemberColumns): void {
    const m = members.count;
    const rows = t.count;
    new Int32Array(buffer, at.s, m).set(members.shadow.subarray(0, m));
    new Float64Array(buffer, at.e, m).set(members.earliest.subarray(0, m));
    new Float64Array(buffer, at.l, m).set(members.latest.subarray(0, m));
    new Int32Array(buffer, at.c, m).set(members.category.subarray(0, m));
    new Float64Array(buffer, at.re, rows).set(t.earliest.subarray(0, rows));
    new Float64Array(buffer, at.rl, rows).set(t.latest.subarray(0, rows));
  }

  private groupMembers(at: Layout, m: number, rows: number): void {
    this.group(m, rows, at.s, at.e, at.l, at.c, at.fill, at.starts, at.ge, at.gl, at.gc);
  }
}
