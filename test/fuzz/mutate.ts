/**
 * Seeded mutators. Generic ones (bit flips, byte sets, boundary ints, truncations, splices,
 * duplications, deletions, 64 KiB block swaps, cross-overs) work on any input; structure-aware
 * ones put absurd values into the fields the readers trust (see structure.ts) or rewrite CLOG2
 * preamble tokens (block size, byte order, comm table offset, counts). Every choice comes from the
 * case's Prng, so (seed, index) reproduces the exact bytes.
 */
import type { Prng } from '../../src/core/synth/prng';
import type { Seed } from './corpus';
import type { Field } from './structure';

export interface Mutated {
  readonly bytes: Uint8Array;
  /** Human-readable steps, for the failure report. */
  readonly steps: readonly string[];
  /** Set when the only mutation was a truncation of a CLOG2 seed at `cut` (partial-read check). */
  readonly truncatedAt: number | undefined;
}

/** Outputs are capped (a duplication of a big range must not blow the memory cap by itself). */
const MAX_OUTPUT = 16 << 20;

const I16 = [0, -1, 1, 0x7fff, -0x8000, 0xff, 0x100, 2, 3];
const I32 = [0, -1, 1, 0x7fffffff, -0x80000000, 0xffff, 0x10000, 0x3fffffff, 1 << 24, 24, 1023, 1024, 65536, 65535];
const I64 = [0n, -1n, 1n, 2n ** 32n, 2n ** 32n + 108n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 31n, 108n];
const F64 = [NaN, Infinity, -Infinity, -0, 0, 1e308, -1e308, 5e-324, 1e15, -1e15, 2 ** 53];

function view(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

/** Sets a field to a boundary value, or to its own value scaled / negated / offset (absurd but near). */
function setField(b: Uint8Array, f: Field, rng: Prng, le: boolean): string {
  const dv = view(b);
  const width = f.kind === 'i16' ? 2 : f.kind === 'i32' ? 4 : 8;
  if (f.offset < 0 || f.offset + width > b.length) return `skip ${f.what} (cut)`;
  switch (f.kind) {
    case 'i16': {
      const v = rng.next() < 0.7 ? rng.pick(I16) : dv.getInt16(f.offset, le) + rng.int(-3, 3);
      dv.setInt16(f.offset, v, le);
      return `${f.what} = ${v}`;
    }
    case 'i32': {
      const old = dv.getInt32(f.offset, le);
      const v = rng.next() < 0.6 ? rng.pick(I32) : rng.pick([old + rng.int(-40, 40), old * 2, -old, old + 0x10000, old ^ 0x80000000]) | 0;
      dv.setInt32(f.offset, v, le);
      return `${f.what} = ${v}`;
    }
    case 'i64': {
      const old = dv.getBigInt64(f.offset, le);
      const v = rng.next() < 0.6 ? rng.pick(I64) : BigInt.asIntN(64, old + BigInt(rng.int(-200, 200)) * (rng.next() < 0.5 ? 1n : 2n ** 32n));
      dv.setBigInt64(f.offset, v, le);
      return `${f.what} = ${v}`;
    }
    case 'f64': {
      const old = dv.getFloat64(f.offset, le);
      const v = rng.next() < 0.6 ? rng.pick(F64) : rng.pick([-old, old * 1e9, old - 1, old + 1e-9]);
      dv.setFloat64(f.offset, v, le);
      return `${f.what} = ${v}`;
    }
  }
}

function pos(rng: Prng, b: Uint8Array): number {
  return rng.int(0, Math.max(0, b.length - 1));
}

/** A range length biased toward small ranges, sometimes whole 64 KiB blocks. */
function rangeLength(rng: Prng, max: number): number {
  const r = rng.next();
  const n = r < 0.5 ? rng.int(1, 16) : r < 0.8 ? rng.int(1, 1024) : r < 0.95 ? rng.int(1, 65536) : 65536;
  return Math.max(0, Math.min(n, max));
}

type Mutator = (b: Uint8Array, rng: Prng, seed: Seed, others: readonly Seed[]) => [Uint8Array, string];

const GENERIC: readonly [number, Mutator][] = [
  [
    6,
    (b, rng) => {
      const n = rng.int(1, 8);
      for (let i = 0; i < n && b.length > 0; i++) b[pos(rng, b)]! ^= 1 << rng.int(0, 7);
      return [b, `${n} bit flips`];
    },
  ],
  [
    3,
    (b, rng) => {
      const at = pos(rng, b);
      const n = rng.int(1, 8);
      const v = rng.pick([0x00, 0xff, 0x7f, 0x80]);
      b.fill(v, at, at + n);
      return [b, `${n} bytes at ${at} = 0x${v.toString(16)}`];
    },
  ],
  [
    4,
    (b, rng) => {
      // A boundary int at a random 4-aligned offset (most fields are aligned in both formats).
      if (b.length < 8) return [b, 'noop'];
      const at = rng.int(0, (b.length >> 2) - 2) * 4;
      const v = rng.pick(I32);
      view(b).setInt32(at, v, rng.next() < 0.2);
      return [b, `i32 at ${at} = ${v}`];
    },
  ],
  [
    4,
    (b, rng) => {
      const cut = rng.next() < 0.5 ? pos(rng, b) : Math.max(0, b.length - rng.int(1, 4096));
      return [b.slice(0, cut), `truncate at ${cut}`];
    },
  ],
  [
    2,
    (b, rng) => {
      // Splice: overwrite a range with a copy of another range of the same input.
      const n = rangeLength(rng, b.length);
      const from = rng.int(0, b.length - n);
      const to = rng.int(0, b.length - n);
      b.copyWithin(to, from, from + n);
      return [b, `copy ${n} bytes ${from} → ${to}`];
    },
  ],
  [
    2,
    (b, rng) => {
      // Duplicate a range in place (everything after it shifts).
      const n = rangeLength(rng, Math.min(b.length, MAX_OUTPUT - b.length));
      const at = rng.int(0, b.length - n);
      const out = new Uint8Array(b.length + n);
      out.set(b.subarray(0, at + n));
      out.set(b.subarray(at), at + n);
      return [out, `duplicate ${n} bytes at ${at}`];
    },
  ],
  [
    2,
    (b, rng) => {
      const n = rangeLength(rng, b.length);
      const at = rng.int(0, b.length - n);
      const out = new Uint8Array(b.length - n);
      out.set(b.subarray(0, at));
      out.set(b.subarray(at + n), at);
      return [out, `delete ${n} bytes at ${at}`];
    },
  ],
  [
    1,
    (b, rng) => {
      const n = rng.int(1, 64);
      const at = rng.int(0, b.length);
      const out = new Uint8Array(b.length + n);
      out.set(b.subarray(0, at));
      for (let i = 0; i < n; i++) out[at + i] = rng.int(0, 255);
      out.set(b.subarray(at), at + n);
      return [out, `insert ${n} random bytes at ${at}`];
    },
  ],
  [
    1,
    (b, rng, _seed, others) => {
      // Cross-over: the head of this input, the tail of another seed of the same format.
      const other = rng.pick(others);
      const at = pos(rng, b);
      const from = rng.int(0, Math.max(0, other.bytes.length - 1));
      const tail = other.bytes.subarray(from, from + Math.min(other.bytes.length - from, MAX_OUTPUT - at));
      const out = new Uint8Array(at + tail.length);
      out.set(b.subarray(0, at));
      out.set(tail, at);
      return [out, `cross-over: ${at} bytes + ${other.name}[${from}…]`];
    },
  ],
];

const STRUCTURED: readonly [number, Mutator][] = [
  [
    8,
    (b, rng, seed) => {
      const fields = seed.structure.fields;
      if (fields.length === 0) return [b, 'noop (no fields)'];
      // Header-ish fields (the first few) are picked more often than record fields.
      const f = rng.next() < 0.4 ? fields[rng.int(0, Math.min(fields.length, 40) - 1)]! : rng.pick(fields);
      return [b, setField(b, f, rng, isLittleEndian(seed))];
    },
  ],
  [
    2,
    (b, rng, seed) => {
      // Swap two blocks (CLOG2 / CLOG block structure; for SLOG-2 two 64 KiB ranges).
      const size = seed.structure.blockSize || 65536;
      const starts = seed.structure.blockStarts.length >= 2 ? seed.structure.blockStarts : [...Array(Math.floor(b.length / size)).keys()].map((i) => i * size);
      if (starts.length < 2) return [b, 'noop (one block)'];
      const x = rng.pick(starts);
      const y = rng.pick(starts);
      const n = Math.min(size, b.length - Math.max(x, y));
      if (x === y || n <= 0) return [b, 'noop (same block)'];
      const tmp = b.slice(x, x + n);
      b.copyWithin(x, y, y + n);
      b.set(tmp, y);
      return [b, `swap blocks at ${x} and ${y} (${n} bytes)`];
    },
  ],
  [
    2,
    (b, rng, seed) => {
      // Truncate at a block boundary or just inside one.
      const starts = seed.structure.blockStarts;
      if (starts.length === 0) return [b, 'noop (no blocks)'];
      const cut = Math.min(b.length, rng.pick(starts) + rng.pick([0, 0, 24, 1, 100, seed.structure.blockSize - 1]));
      return [b.slice(0, cut), `truncate at block boundary + ${cut - (starts.filter((s) => s <= cut).pop() ?? 0)} (${cut})`];
    },
  ],
];

const PREAMBLE_VALUES: Readonly<Record<number, readonly string[]>> = {
  2: ['FALSE', 'TRUE', 'yes', 'x'], // is_big_endian: wrong byte order
  4: ['FALSE', 'TRUE'], // is_finalzed
  6: ['0', '-1', '23', '24', '25', '1024', '1073741824', '2147483647', '99999999999', '65537', '8'], // block_size
  8: ['0', '-5', '2147483647'],
  10: ['0', '1', '1048576', '1048577', '-1', '2147483647'], // max_comm_world_size
  12: ['0', '1', '4096', '4097', '-1'], // max_thread_count
  14: ['-2147483648', '2147483647', '0'],
  16: ['-2147483648', '2147483647', '0'],
  22: ['0', '16384', '16385', '1048576', '-1'], // known_stateID_count (cap 2^14)
  24: ['0', '16384', '1048576', '-1'],
  26: ['16384', '1048576', '-1'],
  28: ['16384', '1048576', '-1'],
  30: ['0', '1', '4', '5', '2147483647', '-1'], // commtable_fptr G
  31: ['0', '1073741824', '1', '2147483647'], // U
  32: ['0', '1023', '1024', '2147483647', '-1'], // R
};

/** Rewrites one preamble token (CLOG2 only), keeping the tokens NUL-separated inside 1024 bytes. */
function preambleToken(b: Uint8Array, rng: Prng, seed: Seed): [Uint8Array, string] {
  const tokens = seed.structure.tokens;
  if (tokens.length < 33 || b.length < 1024) return [b, 'noop (no preamble)'];
  const keys = Object.keys(PREAMBLE_VALUES).map(Number);
  const k = rng.pick(keys);
  const value = rng.pick(PREAMBLE_VALUES[k]!);
  const texts = tokens.map(([s, e]) => String.fromCharCode(...b.subarray(s, e)));
  texts[k] = value;
  const out = b;
  out.fill(0, 0, 1024);
  let at = 0;
  for (const t of texts) {
    if (at + t.length + 1 > 1024) break;
    for (let i = 0; i < t.length; i++) out[at++] = t.charCodeAt(i);
    out[at++] = 0;
  }
  return [out, `preamble token ${k} = ${value}`];
}

function isLittleEndian(seed: Seed): boolean {
  if (seed.format !== 'clog2') return false;
  const t = seed.structure.tokens[2];
  return t !== undefined && !/^(true|yes)/i.test(String.fromCharCode(...seed.bytes.subarray(t[0], t[1])).trim());
}

function weighted(rng: Prng, list: readonly [number, Mutator][]): Mutator {
  const total = list.reduce((n, [w]) => n + w, 0);
  let r = rng.next() * total;
  for (const [w, m] of list) {
    r -= w;
    if (r < 0) return m;
  }
  return list[list.length - 1]![1];
}

/**
 * Applies 1–4 mutations. One case in eight is a single truncation of a CLOG2 seed: the
 * partial-read invariant is checked on those.
 */
export function mutate(seed: Seed, rng: Prng, others: readonly Seed[]): Mutated {
  let b: Uint8Array = seed.bytes.slice();
  if (seed.format === 'clog2' && rng.next() < 0.125) {
    const starts = seed.structure.blockStarts;
    const cut = starts.length > 1 && rng.next() < 0.5 ? Math.min(b.length, rng.pick(starts) + rng.pick([0, 24, 1000, 4093])) : rng.int(1024, b.length);
    return { bytes: b.slice(0, cut), steps: [`truncate at ${cut} (partial read)`], truncatedAt: cut };
  }
  const steps: string[] = [];
  const n = rng.int(1, 4);
  for (let i = 0; i < n; i++) {
    const r = rng.next();
    let m: Mutator;
    if (seed.format === 'clog2' && r < 0.15) m = preambleToken;
    else if (r < 0.55) m = weighted(rng, STRUCTURED);
    else m = weighted(rng, GENERIC);
    const [out, step] = m(b, rng, seed, others.length > 0 ? others : [seed]);
    b = out.length > MAX_OUTPUT ? out.slice(0, MAX_OUTPUT) : out;
    steps.push(step);
  }
  return { bytes: b, steps, truncatedAt: undefined };
}
