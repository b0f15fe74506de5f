/**
 * A tree node's entries as byte extents, without building drawable objects (the index builder's
 * fast path): where each drawable and shadow starts and ends, its line IDs' key interval, and
 * whether the reader would drop it (a NaN/∞ time), walking the layout of SLOG2.md §7 exactly as
 * treeNode.ts parses it. Every count and length is bounded by the bytes left: a damaged node
 * throws FormatError naming the offset. Entries go to typed columns the scanner reuses from node
 * to node (an object per entry cost a tenth of a build in garbage collection).
 */
import { FormatError } from '../bytes/formatError';
import type { Slog2Version } from '../formats/slog2/header';
import { NODE_HEADER_BYTES } from '../formats/slog2/treeNode';

/** One list of entries (drawables, or shadows): row i's extent, key interval and whether it is kept. */
export class EntryColumns {
  count = 0;
  start = new Int32Array(256);
  end = new Int32Array(256);
  /** Key interval; unknown line IDs give [0, nkeys-1]. */
  lo = new Int32Array(256);
  hi = new Int32Array(256);
  /** 0 when the reader drops it (NaN/∞ time): no place among the reader's drawables, though the source-location record still numbers it. */
  kept = new Uint8Array(256);

  /** Room for `capacity` entries in all, keeping those already there. */
  ensure(capacity: number): void {
    if (capacity <= this.start.length) return;
    const n = Math.max(capacity, this.start.length * 2);
    const grow = <T extends Int32Array | Uint8Array>(old: T, next: T): T => (next.set(old), next);
    this.start = grow(this.start, new Int32Array(n));
    this.end = grow(this.end, new Int32Array(n));
    this.lo = grow(this.lo, new Int32Array(n));
    this.hi = grow(this.hi, new Int32Array(n));
    this.kept = grow(this.kept, new Uint8Array(n));
  }
}

const VERTEX_BYTES = 12;
/** Smallest drawable (kind, category, info length, vertex count, one vertex) and shadow encodings. */
const MIN_DRAWABLE_BYTES = 9;
const MIN_SHADOW_BYTES = 36;

export class NodeScanner {
  /** Nestless then nestable, in file order. */
  readonly drawables = new EntryColumns();
  /** Raw nestless list length (what the source-location records index against). */
  nestless = 0;
  /** Every buffer's nestless then nestable shadows, buffers in order. */
  readonly shadows = new EntryColumns();

  private bytes: Uint8Array = new Uint8Array(0);
  private view: DataView = new DataView(new ArrayBuffer(0));
  private base = 0;
  private file = '';
  private pos = 0;
  private lo = 0;
  private hi = 0;
  private finite = true;

  constructor(
    private readonly keyOf: (lineID: number) => number,
    private readonly allKeys: number,
  ) {}

  scan(bytes: Uint8Array, base: number, file: string, version: Slog2Version): void {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.base = base;
    this.file = file;
    this.pos = 0;
    this.skip(NODE_HEADER_BYTES, 'node header');
    const d = this.drawables;
    d.count = 0;
    for (let list = 0; list < 2; list++) {
      const n = this.count('drawable count', MIN_DRAWABLE_BYTES, 'drawable');
      if (list === 0) this.nestless = n;
      d.ensure(d.count + n);
      for (let i = 0; i < n; i++) {
        const start = this.pos;
        this.begin();
        const kind = this.u8('drawable kind');
        if (kind === 0) {
          this.skip(4, 'category index');
          this.info();
          this.vertices();
        } else if (kind === 1) {
          this.skip(4, 'composite category index');
          this.info();
          const m = this.i16('composite member count');
          if (m <= 0) throw this.error(`composite member count ${m} (expected >= 1)`, this.pos - 2);
          for (let k = 0; k < m; k++) {
            this.skip(4, 'category index');
            this.info();
            this.vertices();
          }
        } else throw this.error(`unknown drawable kind byte ${kind} (expected 0 = primitive or 1 = composite)`, start);
        this.push(d, start, this.finite);
      }
    }
    const s = this.shadows;
    s.count = 0;
    const nbufs = this.count('child shadow buffer count', NODE_HEADER_BYTES + 8, 'child shadow buffer');
    const weightBytes = version === 'SLOG 2.0.6' ? 20 : 12;
    for (let b = 0; b < nbufs; b++) {
      this.skip(NODE_HEADER_BYTES, 'child node header');
      for (let list = 0; list < 2; list++) {
        const n = this.count('shadow count', MIN_SHADOW_BYTES, 'shadow');
        s.ensure(s.count + n);
        for (let i = 0; i < n; i++) {
          const start = this.pos;
          this.begin();
          this.skip(4, 'category index');
          this.info();
          this.vertices();
          this.need(24, 'shadow earliest, latest and num_real_objs');
          const e = this.view.getFloat64(this.pos);
          const l = this.view.getFloat64(this.pos + 8);
          this.pos += 16;
          this.pos += 8; // num_real_objs
          const nw = this.count('shadow weight count', weightBytes, 'category weight');
          this.skip(nw * weightBytes, 'category weights');
          this.push(s, start, this.finite && Number.isFinite(e) && Number.isFinite(l));
        }
      }
    }
  }

  private push(c: EntryColumns, start: number, kept: boolean): void {
    const i = c.count++;
    c.start[i] = start;
    c.end[i] = this.pos;
    c.lo[i] = this.lo;
    c.hi[i] = this.hi;
    c.kept[i] = kept ? 1 : 0;
  }

  private begin(): void {
    this.lo = Infinity;
    this.hi = -Infinity;
    this.finite = true;
  }

  private vertices(): void {
    const n = this.i16('vertex count');
    if (n <= 0) throw this.error(`vertex count ${n} (expected >= 1)`, this.pos - 2);
    this.need(n * VERTEX_BYTES, 'vertices');
    const bytes = this.bytes;
    for (let v = 0; v < n; v++) {
      const at = this.pos + v * VERTEX_BYTES;
      // A big-endian double is NaN/∞ when its 11 exponent bits (after the sign) are all ones: two
      // byte tests instead of a big-endian DataView read (slow in V8).
      if ((bytes[at]! & 0x7f) === 0x7f && (bytes[at + 1]! & 0xf0) === 0xf0) this.finite = false;
      const k = this.keyOf((bytes[at + 8]! << 24) | (bytes[at + 9]! << 16) | (bytes[at + 10]! << 8) | bytes[at + 11]! | 0);
      if (k < 0) {
        this.lo = 0;
        this.hi = Math.max(this.hi, this.allKeys - 1);
        continue;
      }
      if (k < this.lo) this.lo = k;
      if (k > this.hi) this.hi = k;
    }
    this.pos += n * VERTEX_BYTES;
  }

  private info(): void {
    const n = this.i16('info length');
    if (n < 0) throw this.error(`negative info length ${n}`, this.pos - 2);
    this.skip(n, 'info bytes');
  }

  private error(detail: string, at = this.pos): FormatError {
    return new FormatError(this.file, this.base + at, detail);
  }

  private need(n: number, what: string): void {
    if (this.pos + n > this.bytes.length) throw this.error(`expected ${n} bytes for ${what}, ${this.bytes.length - this.pos} left in the block`);
  }

  private skip(n: number, what: string): void {
    this.need(n, what);
    this.pos += n;
  }

  private u8(what: string): number {
    this.need(1, what);
    return this.bytes[this.pos++]!;
  }

  private i16(what: string): number {
    this.need(2, what);
    const b = this.bytes;
    const v = ((b[this.pos]! << 24) >> 16) | b[this.pos + 1]!;
    this.pos += 2;
    return v;
  }

  /** An i32 count, checked: `count` items of at least `minItemBytes` must fit in the bytes left. */
  private count(what: string, minItemBytes: number, item: string): number {
    this.need(4, what);
    const b = this.bytes;
    const p = this.pos;
    const n = (b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!;
    this.pos += 4;
    if (n < 0) throw this.error(`negative or invalid ${item} count ${n}`, p);
    if (n * minItemBytes > this.bytes.length - this.pos) {
      throw this.error(`${item} count ${n} needs at least ${n * minItemBytes} bytes, only ${this.bytes.length - this.pos} left`, p);
    }
    return n;
  }
}
