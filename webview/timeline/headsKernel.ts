/**
 * The event heads' composition in WebAssembly (headsKernel.wat), for headLayer.ts: the layer's
 * pixels and cells live in the kernel's memory, the frame's marks are copied in as columns, and the
 * kernel places, clips and composes each head as HeadLayer's JS loop does otherwise, to the same
 * pixels (headsKernel.test.ts). The
 * JS loop stays where WebAssembly is missing or refused (a CSP without 'wasm-unsafe-eval').
 */
import { HEADS_KERNEL_WASM } from './headsKernelWasm';
import { STEPS, headMask } from './headMask';
import type { EventMarks } from './eventMarks';

const PAGE_BYTES = 65536;
/** The kernel's memo: 4096 slots of 16 bytes (its hash keeps the top 12 bits). */
const MEMO_SLOTS = 4096;
/** Sub-pixel offsets per axis, so masks per head size (the kernel indexes them by fx · 9 + fy). */
const MASK_KEYS = (STEPS + 1) * (STEPS + 1);
/** The frame block's size and fields (byte offsets; the kernel's `compose` reads them). */
const BLOCK_BYTES = 96;
const F = {
  count: 0,
  runs: 4,
  run: 8,
  clip0: 12,
  clip1: 16,
  cols: 20,
  rows: 24,
  y0: 28,
  y1: 32,
  px: 36,
  cells: 40,
  memo: 44,
  used: 48,
  masks: 52,
  table: 56,
  xe: 60,
  top: 64,
  rgba: 68,
  markRun: 72,
  tri: 80,
  k: 88,
} as const;

type ComposeFn = (block: number) => void;

/** What is used of WebAssembly (declared here: the node tests compile this module without the DOM's lib). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmInstance {
  readonly exports: Record<string, unknown>;
}
interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object) => WasmInstance;
}

let compiled: object | null | undefined;
/** Bytes of every kernel's memory (not in the JS heap's figures: the bench adds them to the page's). */
let memoryBytes = 0;

/** The WebAssembly memory the heads kernels hold. */
export function webAssemblyBytes(): number {
  return memoryBytes;
}

function kernelModule(): object | undefined {
  if (compiled === undefined) {
    try {
      const text = atob(HEADS_KERNEL_WASM);
      const bytes = new Uint8Array(text.length);
      for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
      // under 4 KB: compiled synchronously on the main thread
      const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
      compiled = wasm ? new wasm.Module(bytes) : null;
    } catch {
      // no WebAssembly here, or the page's CSP refuses it: the JS loop composes the heads
      compiled = null;
    }
  }
  return compiled ?? undefined;
}

const align = (n: number, to: number): number => Math.ceil(n / to) * to;

/** The y range of device rows a composition touched (min, max exclusive), updated in place. */
export interface RowSpan {
  y0: number;
  y1: number;
}

export class HeadsKernel {
  private readonly memory: WasmMemory;
  private readonly composeIn: ComposeFn;
  /** The layer's pixels, cols × rows from byte 0, and its rows' used flags (new views whenever the memory grows). */
  px: Uint32Array<ArrayBuffer> = new Uint32Array(0);
  used: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  private i32: Int32Array<ArrayBuffer> = new Int32Array(0);
  private u32: Uint32Array<ArrayBuffer> = new Uint32Array(0);
  private f64: Float64Array<ArrayBuffer> = new Float64Array(0);
  private cols = 0;
  private rows = 0;
  /** Byte offsets: cells, memo, used rows, mask offsets, colour table, frame block, masks, marks. */
  private cellsAt = 0;
  private memoAt = 0;
  private usedAt = 0;
  private maskTableAt = 0;
  private tableAt = 0;
  private blockAt = 0;
  private masksAt = 0;
  private marksAt = 0;
  private maskHalf = -1;

  private constructor(instance: WasmInstance) {
    this.memory = instance.exports.memory as WasmMemory;
    memoryBytes += this.memory.buffer.byteLength;
    this.composeIn = instance.exports.compose as ComposeFn;
  }

  /** A kernel, or undefined where WebAssembly is not available. */
  static create(): HeadsKernel | undefined {
    const module = kernelModule();
    if (module === undefined) return undefined;
    try {
      const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly!;
      return new HeadsKernel(new wasm.Instance(module));
    } catch {
      return undefined;
    }
  }

  /** Lays out a layer of `cols` × `rows` device pixels, all 0, no cell in a run, no row used; returns its pixels. */
  layout(cols: number, rows: number): Uint32Array<ArrayBuffer> {
    const n = cols * rows;
    this.cols = cols;
    this.rows = rows;
    this.cellsAt = align(4 * n, 16);
    this.memoAt = this.cellsAt + 16 * n;
    this.usedAt = this.memoAt + 16 * MEMO_SLOTS;
    this.maskTableAt = align(this.usedAt + rows, 16);
    this.tableAt = this.maskTableAt + 4 * MASK_KEYS;
    this.blockAt = align(this.tableAt + 4 * 65, 16);
    this.masksAt = this.blockAt + BLOCK_BYTES;
    this.marksAt = this.masksAt;
    this.maskHalf = -1;
    this.ensure(this.masksAt);
    this.u32.fill(0, 0, this.maskTableAt >> 2);
    for (let s = 0; s < MEMO_SLOTS; s++) this.i32[(this.memoAt >> 2) + 4 * s + 1] = -1;
    return this.px;
  }

  /**
   * Composes `marks`' heads (half width `tri` CSS px, `k` device px per CSS px) into the pixels, as
   * HeadLayer's loop: `runs` starts a new run where a mark's run changes (else all go in `run`);
   * only device columns [clip0, clip1) are drawn. Marks the rows reached in `used` and widens
   * `span`; returns the last run number.
   */
  compose(marks: EventMarks, tri: number, k: number, runs: boolean, run: number, clip0: number, clip1: number, span: RowSpan): number {
    const half = tri * k;
    if (half !== this.maskHalf) this.buildMasks(half);
    const n = marks.count;
    // the marks' columns after the masks: f64 xe, f64 top, u32 rgba, i32 run
    const xeAt = this.marksAt;
    const topAt = xeAt + 8 * n;
    const rgbaAt = topAt + 8 * n;
    const runAt = rgbaAt + 4 * n;
    this.ensure(runAt + 4 * n);
    this.f64.set(marks.xe.subarray(0, n), xeAt >> 3);
    this.f64.set(marks.top.subarray(0, n), topAt >> 3);
    this.u32.set(marks.rgba.subarray(0, n), rgbaAt >> 2);
    this.i32.set(marks.run.subarray(0, n), runAt >> 2);
    const b = this.blockAt >> 2;
    const i32 = this.i32;
    i32[b + F.count / 4] = n;
    i32[b + F.runs / 4] = runs ? 1 : 0;
    i32[b + F.run / 4] = run;
    i32[b + F.clip0 / 4] = clip0;
    i32[b + F.clip1 / 4] = clip1;
    i32[b + F.cols / 4] = this.cols;
    i32[b + F.rows / 4] = this.rows;
    i32[b + F.y0 / 4] = span.y0;
    i32[b + F.y1 / 4] = span.y1;
    i32[b + F.px / 4] = 0;
    i32[b + F.cells / 4] = this.cellsAt;
    i32[b + F.memo / 4] = this.memoAt;
    i32[b + F.used / 4] = this.usedAt;
    i32[b + F.masks / 4] = this.maskTableAt;
    i32[b + F.table / 4] = this.tableAt;
    i32[b + F.xe / 4] = xeAt;
    i32[b + F.top / 4] = topAt;
    i32[b + F.rgba / 4] = rgbaAt;
    i32[b + F.markRun / 4] = runAt;
    this.f64[(this.blockAt + F.tri) >> 3] = tri;
    this.f64[(this.blockAt + F.k) >> 3] = k;
    this.composeIn(this.blockAt);
    span.y0 = i32[b + F.y0 / 4]!;
    span.y1 = i32[b + F.y1 / 4]!;
    return i32[b + F.run / 4]!;
  }

  /** The masks of every sub-pixel offset for heads of half width `half` (device px), and their offsets by key. */
  private buildMasks(half: number): void {
    this.maskHalf = half;
    let at = this.masksAt;
    const built = [];
    for (let fx = 0; fx <= STEPS; fx++) {
      for (let fy = 0; fy <= STEPS; fy++) {
        const m = headMask(half, fx, fy);
        const from = at + 24;
        const to = from + 4 * m.h;
        const bits = align(to + 4 * m.h, 8);
        built.push({ key: fx * (STEPS + 1) + fy, m, at, from, to, bits });
        at = align(bits + 8 * m.w * m.h, 16);
      }
    }
    this.ensure(at);
    this.marksAt = at;
    const i32 = this.i32;
    for (const { key, m, at: a, from, to, bits } of built) {
      i32[(this.maskTableAt >> 2) + key] = a;
      i32[a >> 2] = m.w;
      i32[(a >> 2) + 1] = m.h;
      i32[(a >> 2) + 2] = from;
      i32[(a >> 2) + 3] = to;
      i32[(a >> 2) + 4] = bits;
      for (let j = 0; j < m.h; j++) {
        i32[(from >> 2) + j] = m.from[j]!;
        i32[(to >> 2) + j] = m.to[j]!;
      }
      for (let p = 0; p < m.w * m.h; p++) {
        i32[(bits >> 2) + 2 * p] = m.bits[3 * p]!;
        i32[(bits >> 2) + 2 * p + 1] = m.bits[3 * p + 1]!;
      }
    }
  }

  /** At least `bytes` of memory, and views of it. */
  private ensure(bytes: number): void {
    const have = this.memory.buffer.byteLength;
    if (bytes > have) {
      this.memory.grow(Math.ceil((bytes - have) / PAGE_BYTES));
      memoryBytes += this.memory.buffer.byteLength - have;
    }
    // not shared (the memory is not declared so): a plain ArrayBuffer, which ImageData takes
    const buffer = this.memory.buffer as ArrayBuffer;
    if (this.i32.buffer !== buffer || this.px.length !== this.cols * this.rows) {
      this.i32 = new Int32Array(buffer);
      this.u32 = new Uint32Array(buffer);
      this.f64 = new Float64Array(buffer);
      this.px = new Uint32Array(buffer, 0, this.cols * this.rows);
      this.used = new Uint8Array(buffer, this.usedAt, this.rows);
    }
  }
}
