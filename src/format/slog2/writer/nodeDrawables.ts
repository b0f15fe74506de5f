/**
 * The real drawables of one open tree node, held ENCODED: each drawable is serialised when it
 * arrives (while its object is hot in cache) into the node's byte buffer, with its drawing-order
 * keys and source sites in typed arrays. The writer keeps no drawable object after add(), so the
 * converter's objects die young (cheap GC), and writing a node is sorting indices by typed keys
 * and copying byte ranges.
 */
import type { Drawable, Primitive } from '../../model/types';
import { finalVertex, startVertex } from './drawingOrder';

export class NodeDrawables {
  private bytes = new Uint8Array(16384);
  private view = new DataView(this.bytes.buffer);
  private used = 0;
  count = 0;
  /** Per entry: byte offset in `bytes` (entry i spans start[i] .. start[i + 1]). */
  start = new Uint32Array(257);
  earliest = new Float64Array(256);
  latest = new Float64Array(256);
  category = new Int32Array(256);
  startLine = new Int32Array(256);
  finalLine = new Int32Array(256);
  /** 1 = nestable list (states, composites), 0 = nestless (arrows, events). */
  nestable = new Uint8Array(256);
  /** Source-location site indices (−1 = none) of the start and end of each entry. */
  siteStart = new Int32Array(256);
  siteEnd = new Int32Array(256);

  /** Appends a drawable whose encoded entry is 1 + `size` bytes (kind byte + body). */
  add(d: Drawable, size: number, nestable: boolean, siteStart: number, siteEnd: number): void {
    const i = this.count;
    if (i === this.earliest.length) this.growEntries();
    const need = this.used + 1 + size;
    if (need > this.bytes.length) this.growBytes(need);
    this.earliest[i] = d.earliest;
    this.latest[i] = d.latest;
    this.category[i] = d.category;
    this.startLine[i] = startVertex(d).lineID;
    this.finalLine[i] = finalVertex(d).lineID;
    this.nestable[i] = nestable ? 1 : 0;
    this.siteStart[i] = siteStart;
    this.siteEnd[i] = siteEnd;
    let p = this.used;
    if (d.kind === 'primitive') {
      this.bytes[p++] = 0;
      p = this.primitiveBody(p, d);
    } else {
      this.bytes[p++] = 1;
      p = this.head(p, d.category, d.info);
      this.view.setInt16(p, d.primitives.length);
      p += 2;
      for (const m of d.primitives) p = this.primitiveBody(p, m);
    }
    this.used = p;
    this.count = i + 1;
    this.start[i + 1] = p;
  }

  /** Copies entry i's bytes to `out` at `at`; returns the end offset. */
  copyEntry(i: number, out: Uint8Array, at: number): number {
    const from = this.start[i]!;
    const to = this.start[i + 1]!;
    const src = this.bytes;
    if (to - from <= 64) {
      for (let k = from; k < to; k++) out[at++] = src[k]!;
      return at;
    }
    out.set(src.subarray(from, to), at);
    return at + (to - from);
  }

  clear(): void {
    this.used = 0;
    this.count = 0;
    this.start[0] = 0;
  }

  private head(p: number, category: number, info: Uint8Array | undefined): number {
    const v = this.view;
    v.setInt32(p, category);
    p += 4;
    const n = info ? info.length : 0;
    v.setInt16(p, n);
    p += 2;
    if (n > 0) {
      const b = this.bytes;
      for (let k = 0; k < n; k++) b[p++] = info![k]!;
    }
    return p;
  }

  private primitiveBody(p: number, d: Primitive): number {
    p = this.head(p, d.category, d.info);
    const v = this.view;
    const vs = d.vertices;
    v.setInt16(p, vs.length);
    p += 2;
    for (let k = 0; k < vs.length; k++) {
      const x = vs[k]!;
      v.setFloat64(p, x.time);
      v.setInt32(p + 8, x.lineID);
      p += 12;
    }
    return p;
  }

  private growBytes(need: number): void {
    let cap = this.bytes.length * 2;
    while (cap < need) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.bytes.subarray(0, this.used));
    this.bytes = next;
    this.view = new DataView(next.buffer);
  }

  private growEntries(): void {
    const cap = this.earliest.length * 2;
    const grow = <T extends Float64Array | Int32Array | Uint8Array | Uint32Array>(a: T, n: number): T => {
      const next = new (a.constructor as new (n: number) => T)(n);
      next.set(a as never);
      return next;
    };
    this.start = grow(this.start, cap + 1);
    this.earliest = grow(this.earliest, cap);
    this.latest = grow(this.latest, cap);
    this.category = grow(this.category, cap);
    this.startLine = grow(this.startLine, cap);
    this.finalLine = grow(this.finalLine, cap);
    this.nestable = grow(this.nestable, cap);
    this.siteStart = grow(this.siteStart, cap);
    this.siteEnd = grow(this.siteEnd, cap);
  }
}
