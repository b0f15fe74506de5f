/**
 * A tree node's two lists in drawing order and encoded (SLOG2.md §7.2, §8) by a WebAssembly kernel
 * (nodeListKernel.wat), for NodeBlocks: in JS (drawingOrderOf, then encodeEntry per entry) this
 * was a quarter of the writer thread in a 16-rank conversion. The node's columns are copied into
 * the kernel's memory once for both lists; the bytes come back into the block's writer. The JS
 * path stays for nodes too big to copy (a wide trace's trunk), and wherever WebAssembly is
 * missing or refused or the kernel stops: the same bytes either way (a unit test compares them).
 */
import { compiledOnce, holdBytes, instantiateWasm, MemoryLayout, type WasmMemory } from '../../../bytes/wasmModule';
import { keepShapeAlive } from '../../../bytes/keepShape';
import { NESTABLE_LIST, NESTLESS_LIST, type SourceLocationTableBuilder } from '../../srcloc/table';
import type { ByteWriter } from './byteWriter';
import type { DrawableBatch } from './drawableBatch';
import { NODE_LIST_KERNEL_WASM } from './nodeListKernelWasm';

/**
 * Nodes whose columns and bytes take more than this stay with the JS path: the kernel's memory
 * never shrinks. A leaf of the 16-rank bench trace needs ~320 KB; at 16 384 ranks, where the
 * writer's buffers set a peak with little room under 256 MB (README), a 4 MB cap had the memory
 * grow to 4 MB and two of nine conversions peak at 258 MB (the build before: at most 253 MB in
 * eight). Trunk nodes that big are few; their lists were written in JS before.
 */
const MAX_KERNEL_BYTES = 1 << 20;

type KernelFn = (...args: number[]) => number;

/** Where located entries are noted (the source-location table's per-node part). */
export type SiteSink = Pick<SourceLocationTableBuilder, 'addSites'>;

const kernelModule = compiledOnce(NODE_LIST_KERNEL_WASM);

/**
 * Where each column goes in the kernel's memory for n entries, p primitives, v vertices, `info`
 * info bytes and `bytes` of output.
 */
class Layout extends MemoryLayout {
  readonly e: number;
  readonly l: number;
  readonly te: number;
  readonly vt: number;
  readonly c: number;
  readonly sl: number;
  readonly fl: number;
  readonly ss: number;
  readonly se: number;
  readonly ps: number;
  readonly eis: number;
  readonly eie: number;
  readonly pc: number;
  readonly pis: number;
  readonly pie: number;
  readonly vs: number;
  readonly vl: number;
  readonly o: number;
  readonly starts: number;
  readonly bof: number;
  readonly tmp: number;
  readonly sites: number;
  readonly nest: number;
  readonly kind: number;
  readonly info: number;
  readonly out: number;

  constructor(n: number, p: number, v: number, info: number, bytes: number) {
    super();
    this.e = this.next(8 * n);
    this.l = this.next(8 * n);
    this.te = this.next(8 * n);
    this.vt = this.next(8 * v);
    this.c = this.next(4 * n);
    this.sl = this.next(4 * n);
    this.fl = this.next(4 * n);
    this.ss = this.next(4 * n);
    this.se = this.next(4 * n);
    this.ps = this.next(4 * (n + 1));
    this.eis = this.next(4 * n);
    this.eie = this.next(4 * n);
    this.pc = this.next(4 * p);
    this.pis = this.next(4 * p);
    this.pie = this.next(4 * p);
    this.vs = this.next(4 * (p + 1));
    this.vl = this.next(4 * v);
    this.o = this.next(4 * n);
    this.starts = this.next(4 * (n + 1));
    this.bof = this.next(4 * n);
    this.tmp = this.next(4 * n);
    this.sites = this.next(12 * n);
    this.nest = this.next(n);
    this.kind = this.next(n);
    this.info = this.next(info);
    this.out = this.next(bytes);
  }
}

// a layout is made per kernel call and dropped at once: keep one, and the calls' optimised code (keepShape.ts)
keepShapeAlive(new Layout(0, 0, 0, 0, 0));

export class NodeListKernel {
  private constructor(
    private readonly memory: WasmMemory,
    private readonly order: KernelFn,
    private readonly encode: KernelFn,
    private readonly located: KernelFn,
  ) {}

  /** An instance, or undefined where WebAssembly is missing or refused (write the lists in JS). */
  static create(): NodeListKernel | undefined {
    const m = kernelModule();
    const made = m === undefined ? undefined : instantiateWasm(m);
    if (made === undefined) return undefined;
    return new NodeListKernel(
      made.exports.memory as WasmMemory,
      made.exports.order as KernelFn,
      made.exports.encode as KernelFn,
      made.exports.located as KernelFn,
    );
  }

  /**
   * Writes the node's nestless then nestable list (each an i32 count and its entries in drawing
   * order, `bytes` of entries in all) into `w`, noting located entries in `sites` as
   * NodeBlocks.writeList does. False, with nothing written, when the node is too big for the
   * kernel or the kernel stopped: write the lists in JS.
   */
  writeLists(w: ByteWriter, d: DrawableBatch, bytes: number, sites: SiteSink): boolean {
    const n = d.count;
    const at = new Layout(n, d.primitives, d.vertices, d.infoUsed, bytes);
    if (at.end > MAX_KERNEL_BYTES || !holdBytes(this.memory, at.end)) return false;
    const buffer = this.memory.buffer;
    this.copyIn(buffer, at, d);
    const lists = this.run(n, at);
    if (lists === undefined) return false;
    const { nestless, nestable, end, located } = lists;
    if (nestless + nestable !== n || end - at.out !== bytes) {
      throw new Error(`internal error: node lists of ${n} entries, ${bytes} bytes encoded as ${nestless + nestable} entries, ${end - at.out} bytes`);
    }
    const memory = new Uint8Array(buffer);
    const split = lists.nestlessEnd;
    w.i32(nestless);
    w.bytes.set(memory.subarray(at.out, split), w.pos);
    w.pos += split - at.out;
    w.i32(nestable);
    w.bytes.set(memory.subarray(split, end), w.pos);
    w.pos += end - split;
    if (located[0] + located[1] > 0) {
      const triples = new Int32Array(buffer, at.sites, 3 * (located[0] + located[1]));
      noteSites(triples, 0, located[0], NESTLESS_LIST, sites);
      noteSites(triples, located[0], located[0] + located[1], NESTABLE_LIST, sites);
    }
    return true;
  }

  /**
   * Orders and encodes both lists (nestless first, its order at `at.o` and bytes at `at.out`, the
   * nestable one's after them) and lists their located entries; undefined if the kernel stopped.
   */
  private run(n: number, at: Layout): { nestless: number; nestable: number; nestlessEnd: number; end: number; located: [number, number] } | undefined {
    try {
      const nestless = this.orderList(n, NESTLESS_LIST, at, at.o);
      const nestlessEnd = this.encodeList(nestless, at.o, at, at.out);
      const second = at.o + 4 * nestless;
      const nestable = this.orderList(n, NESTABLE_LIST, at, second);
      const end = this.encodeList(nestable, second, at, nestlessEnd);
      const first = this.located(nestless, at.o, at.ss, at.se, at.sites);
      const then = this.located(nestable, second, at.ss, at.se, at.sites + 12 * first);
      return { nestless, nestable, nestlessEnd, end, located: [first, then] };
    } catch {
      return undefined;
    }
  }

  private copyIn(buffer: ArrayBuffer, at: Layout, d: DrawableBatch): void {
    const n = d.count;
    const p = d.primitives;
    const v = d.vertices;
    new Float64Array(buffer, at.e, n).set(d.earliest.subarray(0, n));
    new Float64Array(buffer, at.l, n).set(d.latest.subarray(0, n));
    new Float64Array(buffer, at.vt, v).set(d.vertexTime.subarray(0, v));
    new Int32Array(buffer, at.c, n).set(d.category.subarray(0, n));
    new Int32Array(buffer, at.sl, n).set(d.startLine.subarray(0, n));
    new Int32Array(buffer, at.fl, n).set(d.finalLine.subarray(0, n));
    new Int32Array(buffer, at.ss, n).set(d.siteStart.subarray(0, n));
    new Int32Array(buffer, at.se, n).set(d.siteEnd.subarray(0, n));
    new Uint32Array(buffer, at.ps, n + 1).set(d.primitiveStart.subarray(0, n + 1));
    new Uint32Array(buffer, at.eis, n).set(d.entryInfoStart.subarray(0, n));
    new Uint32Array(buffer, at.eie, n).set(d.entryInfoEnd.subarray(0, n));
    new Int32Array(buffer, at.pc, p).set(d.primCategory.subarray(0, p));
    new Uint32Array(buffer, at.pis, p).set(d.primInfoStart.subarray(0, p));
    new Uint32Array(buffer, at.pie, p).set(d.primInfoEnd.subarray(0, p));
    new Uint32Array(buffer, at.vs, p + 1).set(d.vertexStart.subarray(0, p + 1));
    new Int32Array(buffer, at.vl, v).set(d.vertexLine.subarray(0, v));
    new Uint8Array(buffer, at.nest, n).set(d.nestable.subarray(0, n));
    new Uint8Array(buffer, at.kind, n).set(d.kind.subarray(0, n));
    new Uint8Array(buffer, at.info, d.infoUsed).set(d.info.subarray(0, d.infoUsed));
  }

  private orderList(n: number, which: number, at: Layout, o: number): number {
    const wanted = which === NESTABLE_LIST ? 1 : 0;
    return this.order(n, wanted, at.e, at.l, at.c, at.sl, at.fl, at.nest, o, at.starts, at.bof, at.tmp, at.te);
  }

  private encodeList(m: number, o: number, at: Layout, out: number): number {
    return this.encode(m, o, at.c, at.kind, at.ps, at.eis, at.eie, at.pc, at.pis, at.pie, at.vs, at.vt, at.vl, at.info, out);
  }
}

/** The kernel's located entries from..to of one list: (position in the list, start site, end site) triples. */
function noteSites(triples: Int32Array, from: number, to: number, which: number, sites: SiteSink): void {
  for (let t = 3 * from; t < 3 * to; t += 3) sites.addSites(which, triples[t]!, triples[t + 1]!, triples[t + 2]!);
}
