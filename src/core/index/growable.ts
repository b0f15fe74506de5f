/** A big-endian byte buffer that grows by doubling (the index builder's per-run and directory buffers). */
export class Growable {
  raw: Uint8Array;
  private dv: DataView;
  length = 0;
  private lastSource: Uint8Array | undefined;
  private sourceView: DataView | undefined;

  constructor(capacity: number) {
    this.raw = new Uint8Array(Math.max(16, capacity));
    this.dv = new DataView(this.raw.buffer);
  }

  private ensure(n: number): void {
    if (this.length + n <= this.raw.length) return;
    let cap = this.raw.length * 2;
    while (cap < this.length + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.raw.subarray(0, this.length));
    this.raw = next;
    this.dv = new DataView(next.buffer);
  }

  u8(v: number): void {
    this.ensure(1);
    this.raw[this.length++] = v;
  }
  u16(v: number): void {
    this.ensure(2);
    this.dv.setUint16(this.length, v);
    this.length += 2;
  }
  i16(v: number): void {
    this.ensure(2);
    this.dv.setInt16(this.length, v);
    this.length += 2;
  }
  u32(v: number): void {
    this.ensure(4);
    this.dv.setUint32(this.length, v);
    this.length += 4;
  }
  i32(v: number): void {
    this.ensure(4);
    this.dv.setInt32(this.length, v);
    this.length += 4;
  }
  f64(v: number): void {
    this.ensure(8);
    this.dv.setFloat64(this.length, v);
    this.length += 8;
  }
  bytes(src: Uint8Array, from: number, to: number): void {
    const n = to - from;
    this.ensure(n);
    if (n > 256) this.raw.set(src.subarray(from, to), this.length);
    else {
      // Four bytes at a time through DataViews (little-endian both ways: a copy either way, and
      // V8's big-endian reads are 2.5× slower): 2.5× a byte loop, and set(subarray(…)) costs an
      // object per call, for the short items the index copies (13 M per GB).
      if (src !== this.lastSource) {
        this.lastSource = src;
        this.sourceView = new DataView(src.buffer, src.byteOffset, src.byteLength);
      }
      const sv = this.sourceView!;
      const dv = this.dv;
      const raw = this.raw;
      let at = this.length;
      let i = from;
      for (; i + 4 <= to; i += 4, at += 4) dv.setUint32(at, sv.getUint32(i, true), true);
      for (; i < to; i++) raw[at++] = src[i]!;
    }
    this.length += n;
  }
  /** The bytes written (a view; valid until the next write). */
  view(): Uint8Array {
    return this.raw.subarray(0, this.length);
  }
}
