import { FormatError } from './formatError';

const UTF8 = new TextDecoder('utf-8', { fatal: false });
const LATIN1 = new TextDecoder('latin1');

/**
 * A bounds-checked cursor over one block of bytes. Every read checks that the bytes exist and
 * throws a FormatError naming the file and the absolute file offset (`base + position`) if not,
 * so a length or count taken from the file can never read outside the block.
 */
export class BinaryReader {
  private readonly view: DataView;
  pos = 0;

  constructor(
    readonly bytes: Uint8Array,
    /** Absolute file offset of bytes[0], for error messages. */
    readonly base: number,
    readonly file: string,
    readonly littleEndian = false,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get length(): number {
    return this.bytes.length;
  }
  get remaining(): number {
    return this.bytes.length - this.pos;
  }
  /** Absolute file offset of the cursor. */
  get offset(): number {
    return this.base + this.pos;
  }

  error(detail: string, at = this.pos): FormatError {
    return new FormatError(this.file, this.base + at, detail);
  }

  need(n: number, what: string): void {
    if (n < 0 || this.pos + n > this.bytes.length) {
      throw this.error(`expected ${n} bytes for ${what}, ${this.remaining} left in the block`);
    }
  }

  /**
   * Checks a count read from the file before anything is allocated from it: `count` items of at
   * least `minItemBytes` each must fit in the remaining bytes, and `count` must not exceed `cap`.
   */
  checkCount(count: number, minItemBytes: number, what: string, cap = Number.MAX_SAFE_INTEGER): number {
    if (!Number.isInteger(count) || count < 0) throw this.error(`negative or invalid ${what} count ${count}`, this.pos - 4);
    if (count > cap) throw this.error(`${what} count ${count} exceeds the limit ${cap}`, this.pos - 4);
    if (count * minItemBytes > this.remaining) {
      throw this.error(`${what} count ${count} needs at least ${count * minItemBytes} bytes, only ${this.remaining} left`, this.pos - 4);
    }
    return count;
  }

  skip(n: number, what = 'bytes'): void {
    this.need(n, what);
    this.pos += n;
  }

  u8(what = 'u8'): number {
    this.need(1, what);
    return this.bytes[this.pos++]!;
  }
  i8(what = 'i8'): number {
    this.need(1, what);
    return this.view.getInt8(this.pos++);
  }
  i16(what = 'i16'): number {
    this.need(2, what);
    const v = this.view.getInt16(this.pos, this.littleEndian);
    this.pos += 2;
    return v;
  }
  u16(what = 'u16'): number {
    this.need(2, what);
    const v = this.view.getUint16(this.pos, this.littleEndian);
    this.pos += 2;
    return v;
  }
  u32(what = 'u32'): number {
    this.need(4, what);
    const v = this.view.getUint32(this.pos, this.littleEndian);
    this.pos += 4;
    return v;
  }
  i32(what = 'i32'): number {
    this.need(4, what);
    const v = this.view.getInt32(this.pos, this.littleEndian);
    this.pos += 4;
    return v;
  }
  /** A signed 64-bit integer as a number; throws if it is not exactly representable (|v| > 2^53). */
  i64(what = 'i64'): number {
    this.need(8, what);
    // Two 32-bit halves when the high one keeps the value inside ±2^53 (no BigInt per read: shadow
    // counts and weights read millions of them).
    const hi = this.view.getInt32(this.littleEndian ? this.pos + 4 : this.pos, this.littleEndian);
    if (hi > -0x200000 && hi < 0x200000) {
      const lo = this.view.getUint32(this.littleEndian ? this.pos : this.pos + 4, this.littleEndian);
      this.pos += 8;
      return hi * 0x100000000 + lo;
    }
    const v = this.view.getBigInt64(this.pos, this.littleEndian);
    if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) {
      throw this.error(`${what} ${v} is outside the supported range (±2^53)`);
    }
    this.pos += 8;
    return Number(v);
  }
  f32(what = 'f32'): number {
    this.need(4, what);
    const v = this.view.getFloat32(this.pos, this.littleEndian);
    this.pos += 4;
    return v;
  }
  f64(what = 'f64'): number {
    this.need(8, what);
    const v = this.view.getFloat64(this.pos, this.littleEndian);
    this.pos += 8;
    return v;
  }
  /** A view (no copy) of the next n bytes. */
  bytesView(n: number, what = 'bytes'): Uint8Array {
    this.need(n, what);
    const v = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }
  /** SLOG-2 / Java `str`: i16 byte count then that many bytes; a count ≤ 0 is the empty string. */
  javaString(what = 'string'): string {
    const n = this.i16(`${what} length`);
    if (n <= 0) return '';
    return UTF8.decode(this.bytesView(n, what));
  }
  /**
   * A fixed-size NUL-terminated text field (CLOG/CLOG2 `char[N]`). Returns undefined when the
   * value is absent (no NUL, or NUL at index 0), else the text before the NUL trimmed of bytes
   * ≤ 0x20 at both ends — the reference reader's rule.
   */
  fixedText(n: number, what = 'text'): string | undefined {
    return decodeFixedText(this.bytesView(n, what));
  }
}

export function decodeFixedText(field: Uint8Array): string | undefined {
  const nul = field.indexOf(0);
  if (nul <= 0) return undefined;
  let a = 0;
  let b = nul;
  while (a < b && field[a]! <= 0x20) a++;
  while (b > a && field[b - 1]! <= 0x20) b--;
  // Fields are short (≤ 40 bytes): building the string directly beats a TextDecoder call, and
  // Latin-1 maps each byte to the code point of the same value.
  if (b - a <= 64) {
    let s = '';
    for (let i = a; i < b; i++) s += String.fromCharCode(field[i]!);
    return s;
  }
  return LATIN1.decode(field.subarray(a, b));
}

/**
 * decodeFixedText with a one-entry memory: a field equal (up to its NUL) to the previous one gives
 * the same string object back. SRCLOC records repeat a few file names millions of times; reusing
 * the string skips decoding and lets Map lookups reuse its cached hash.
 */
export class FixedTextMemo {
  /** The bytes before the previous field's NUL, whether it had one, and what they decoded to. */
  private lastBytes = new Uint8Array(0);
  private lastHadNul = false;
  private lastText: string | undefined;

  decode(field: Uint8Array): string | undefined {
    return this.decodeAt(field, 0, field.length);
  }

  /**
   * decode(buf.subarray(from, from + length)), the field compared where it lies: a repeat (nearly
   * every SRCLOC record) makes no view of it.
   */
  decodeAt(buf: Uint8Array, from: number, length: number): string | undefined {
    const last = this.lastBytes;
    const n = last.length;
    // the same bytes, then a NUL where the last had one (or the field's end where it had none)
    if (n <= length && sameBytes(buf, from, last, n) && (this.lastHadNul ? n < length && buf[from + n] === 0 : n === length)) return this.lastText;
    const field = buf.subarray(from, from + length);
    const nulAt = field.indexOf(0);
    this.lastHadNul = nulAt >= 0;
    this.lastBytes = field.slice(0, this.lastHadNul ? nulAt : length);
    this.lastText = decodeFixedText(field);
    return this.lastText;
  }
}

function sameBytes(a: Uint8Array, from: number, b: Uint8Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (a[from + i] !== b[i]) return false;
  return true;
}

export function decodeUtf8(bytes: Uint8Array): string {
  return UTF8.decode(bytes);
}
