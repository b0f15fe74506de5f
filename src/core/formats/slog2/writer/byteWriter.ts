/**
 * A big-endian cursor over a preallocated block (SLOG-2 is Java DataOutput: big-endian, no
 * padding). The writer knows every block's exact size before encoding it (§7 sizes), so blocks
 * are written into one exactly-sized Uint8Array through a DataView — no growth, no copies.
 */
import { keepShapeAlive } from '../../../bytes/keepShape';

const ENCODER = new TextEncoder();

export class ByteWriter {
  readonly bytes: Uint8Array;
  private readonly view: DataView;
  pos = 0;

  /** A new block of `size` bytes, or a view into a larger output buffer. */
  constructor(target: number | Uint8Array) {
    this.bytes = typeof target === 'number' ? new Uint8Array(target) : target;
    this.view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
  }

  /** The view the writer uses (same indices as `bytes`), for encoders that write in bulk. */
  get dataView(): DataView {
    return this.view;
  }

  u8(v: number): void {
    this.bytes[this.pos++] = v;
  }
  i16(v: number): void {
    this.view.setInt16(this.pos, v);
    this.pos += 2;
  }
  i32(v: number): void {
    this.view.setInt32(this.pos, v);
    this.pos += 4;
  }
  /** i64 from a number (exact for |v| ≤ 2^53: offsets and counts). */
  i64(v: number): void {
    const hi = Math.floor(v / 4294967296);
    this.view.setInt32(this.pos, hi);
    this.view.setUint32(this.pos + 4, v - hi * 4294967296);
    this.pos += 8;
  }
  /**
   * A NaN is written as Java's DataOutputStream writes it (floatToIntBits: 0x7fc00000, the
   * reference's bytes): V8 keeps a NaN's sign as it came (x86's 0/0 sets it) or clears it when an
   * array of doubles holds it, so its bits would depend on where it was kept.
   */
  f32(v: number): void {
    if (v !== v) this.view.setInt32(this.pos, 0x7fc00000);
    else this.view.setFloat32(this.pos, v);
    this.pos += 4;
  }
  /** A NaN as Java's doubleToLongBits gives it (0x7ff8000000000000). */
  f64(v: number): void {
    if (v !== v) {
      this.view.setInt32(this.pos, 0x7ff80000);
      this.view.setInt32(this.pos + 4, 0);
    } else this.view.setFloat64(this.pos, v);
    this.pos += 8;
  }
  raw(b: Uint8Array): void {
    const n = b.length;
    if (n <= 32) {
      // A loop beats TypedArray.set for the short info buffers that dominate.
      const out = this.bytes;
      let p = this.pos;
      for (let i = 0; i < n; i++) out[p++] = b[i]!;
    } else this.bytes.set(b, this.pos);
    this.pos += n;
  }
  /** Java `str`: i16 byte count + bytes (callers size it with encodedString). */
  str(s: Uint8Array): void {
    this.i16(s.length);
    this.raw(s);
  }
}

// writers are made per block and dropped at once: keep one, and their optimised code (keepShape.ts)
keepShapeAlive(new ByteWriter(0));

/** UTF-8 bytes of a SLOG-2 string, refusing what an i16 count cannot hold. */
export function encodedString(s: string, what: string): Uint8Array {
  const b = ENCODER.encode(s);
  if (b.length > 32767) throw new RangeError(`${what} is ${b.length} bytes long; SLOG-2 strings hold at most 32767`);
  return b;
}
