/**
 * Message (arrow) statistics: count and bytes per (sender, receiver) line-ID pair, per tag, per
 * communicator, and a log2 size distribution. Tag and size come from the arrow's info bytes,
 * located through its category's info keys ("msg_tag=%d, msg_size=%d" from CLOG2, SLOG2.md §18).
 */
import type { Category } from '../model/types';
import { decodeInfo } from '../model/infoFormat';
import type { MessagesPart } from './statsPart';
import type { MessageKeyStat, MessagePairStat, MessageStats, SizeBucket } from './types';

interface Totals {
  count: number;
  bytes: number;
}

/** Where tag and size sit among a category's info values (undefined: not present). */
interface InfoSlots {
  readonly tag?: number;
  readonly size?: number;
  /** The common "dd" layout: read two big-endian i32 directly. */
  readonly fast: boolean;
}

function slotsOf(category: Category | undefined): InfoSlots {
  if (category === undefined) return { fast: false };
  const types = category.infoTypes;
  let tag: number | undefined;
  let size: number | undefined;
  // Value i follows key i (SLOG2.md §4.2), so the key naming a value has the same index.
  category.infoKeys.forEach((k, i) => {
    if (i >= types.length) return;
    if (tag === undefined && /tag/i.test(k)) tag = i;
    else if (size === undefined && /size|bytes|len/i.test(k)) size = i;
  });
  if (tag === undefined && size === undefined && category.infoKeys.length === 0 && types.startsWith('dd')) {
    tag = 0;
    size = 1;
  }
  const fast = tag === 0 && size === 1 && types.startsWith('dd');
  return { ...(tag !== undefined ? { tag } : {}), ...(size !== undefined ? { size } : {}), fast };
}

function bump<K>(map: Map<K, Totals>, key: K, count: number, bytes: number): void {
  const t = map.get(key);
  if (t === undefined) map.set(key, { count, bytes });
  else {
    t.count += count;
    t.bytes += bytes;
  }
}

export class MessageAccumulator {
  private count = 0;
  private bytes = 0;
  private withoutSize = 0;
  private readonly pairs = new Map<number, Map<number, Totals>>();
  private readonly tags = new Map<number, Totals>();
  private readonly comms = new Map<number, Totals>();
  /** Index 0: size 0; index k ≥ 1: [2^(k-1), 2^k). */
  private readonly sizeBuckets: number[] = [];
  private readonly slots = new Map<number, InfoSlots>();

  constructor(
    private readonly categories: ReadonlyMap<number, Category>,
    private readonly commOf: (lineID: number) => number | undefined,
  ) {}

  /** A real arrow; `weight` is 1 for exact results, a time fraction for shadow-based ones. Returns its size in bytes (0 when unknown). */
  add(category: number, from: number, to: number, info: Uint8Array | undefined, weight = 1): number {
    const decoded = info === undefined ? undefined : this.decode(category, info);
    return this.record(from, to, decoded?.tag, decoded?.size, weight);
  }

  /**
   * `add` of the info bytes `source[start, start + length)` (none when `source` is undefined), with
   * weight 1. The common layout is read in place: no view or object per message.
   */
  addRaw(category: number, from: number, to: number, source: Uint8Array | undefined, start: number, length: number): number {
    if (source !== undefined && length >= 8 && this.slotsOf(category).fast) {
      return this.record(from, to, int32At(source, start), int32At(source, start + 4), 1);
    }
    return this.add(category, from, to, source === undefined ? undefined : source.subarray(start, start + length));
  }

  private record(from: number, to: number, tag: number | undefined, size: number | undefined, weight: number): number {
    this.count += weight;
    const bytes = size ?? 0;
    if (size === undefined) this.withoutSize += weight;
    else {
      this.bytes += bytes * weight;
      const b = bytes <= 0 ? 0 : Math.min(64, Math.floor(Math.log2(bytes)) + 1);
      this.sizeBuckets[b] = (this.sizeBuckets[b] ?? 0) + weight;
    }
    let row = this.pairs.get(from);
    if (row === undefined) this.pairs.set(from, (row = new Map()));
    bump(row, to, weight, bytes * weight);
    if (tag !== undefined) bump(this.tags, tag, weight, bytes * weight);
    const comm = this.commOf(from);
    if (comm !== undefined) bump(this.comms, comm, weight, bytes * weight);
    return bytes;
  }

  /** Shadow arrows carry no info bytes: counts only. */
  addCountOnly(from: number, to: number, weight: number): void {
    this.count += weight;
    this.withoutSize += weight;
    let row = this.pairs.get(from);
    if (row === undefined) this.pairs.set(from, (row = new Map()));
    bump(row, to, weight, 0);
    const comm = this.commOf(from);
    if (comm !== undefined) bump(this.comms, comm, weight, 0);
  }

  private slotsOf(category: number): InfoSlots {
    let s = this.slots.get(category);
    if (s === undefined) this.slots.set(category, (s = slotsOf(this.categories.get(category))));
    return s;
  }

  private decode(category: number, info: Uint8Array): { tag?: number; size?: number } | undefined {
    return decodeWithSlots(this.slotsOf(category), this.categories.get(category), info);
  }

  /** The sums so far, for another accumulator to absorb. */
  part(): MessagesPart {
    const pairs: number[] = [];
    for (const [from, row] of this.pairs) for (const [to, t] of row) pairs.push(from, to, t.count, t.bytes);
    const keyed = (m: Map<number, Totals>): Float64Array => Float64Array.from([...m].flatMap(([key, t]) => [key, t.count, t.bytes]));
    const sizes = new Float64Array(this.sizeBuckets.length);
    this.sizeBuckets.forEach((n, k) => (sizes[k] = n ?? 0));
    return {
      count: this.count,
      bytes: this.bytes,
      withoutSize: this.withoutSize,
      pairs: Float64Array.from(pairs),
      tags: keyed(this.tags),
      comms: keyed(this.comms),
      sizeBuckets: sizes,
    };
  }

  /** Adds another accumulator's sums into these. */
  absorb(p: MessagesPart): void {
    this.count += p.count;
    this.bytes += p.bytes;
    this.withoutSize += p.withoutSize;
    for (let i = 0; i + 3 < p.pairs.length; i += 4) {
      const from = p.pairs[i]!;
      let row = this.pairs.get(from);
      if (row === undefined) this.pairs.set(from, (row = new Map()));
      bump(row, p.pairs[i + 1]!, p.pairs[i + 2]!, p.pairs[i + 3]!);
    }
    for (let i = 0; i + 2 < p.tags.length; i += 3) bump(this.tags, p.tags[i]!, p.tags[i + 1]!, p.tags[i + 2]!);
    for (let i = 0; i + 2 < p.comms.length; i += 3) bump(this.comms, p.comms[i]!, p.comms[i + 1]!, p.comms[i + 2]!);
    p.sizeBuckets.forEach((n, k) => {
      if (n !== 0) this.sizeBuckets[k] = (this.sizeBuckets[k] ?? 0) + n;
    });
  }

  result(): MessageStats {
    const pairs: MessagePairStat[] = [];
    for (const [from, row] of this.pairs) for (const [to, t] of row) pairs.push({ from, to, count: t.count, bytes: t.bytes });
    pairs.sort((a, b) => a.from - b.from || a.to - b.to);
    const keyed = (m: Map<number, Totals>): MessageKeyStat[] =>
      [...m].map(([key, t]) => ({ key, count: t.count, bytes: t.bytes })).sort((a, b) => a.key - b.key);
    const sizes: SizeBucket[] = [];
    for (let k = 0; k < this.sizeBuckets.length; k++) {
      const count = this.sizeBuckets[k] ?? 0;
      if (count === 0) continue;
      sizes.push(k === 0 ? { lower: 0, upper: 1, count } : { lower: 2 ** (k - 1), upper: 2 ** k, count });
    }
    return {
      count: this.count,
      bytes: this.bytes,
      withoutSize: this.withoutSize,
      pairs,
      tags: keyed(this.tags),
      comms: keyed(this.comms),
      sizes,
    };
  }
}

/** The big-endian i32 at `at` (as DataView.getInt32 reads it). */
function int32At(b: Uint8Array, at: number): number {
  return (b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!;
}

function decodeWithSlots(s: InfoSlots, category: Category | undefined, info: Uint8Array): { tag?: number; size?: number } | undefined {
  if (s.fast) {
    if (info.length < 8) return undefined;
    const dv = new DataView(info.buffer, info.byteOffset, info.byteLength);
    return { tag: dv.getInt32(0), size: dv.getInt32(4) };
  }
  if (s.tag === undefined && s.size === undefined) return undefined;
  const types = category?.infoTypes ?? '';
  const { values } = decodeInfo(info, types);
  const num = (i: number | undefined): number | undefined => {
    if (i === undefined) return undefined;
    const v = values[i];
    return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined;
  };
  const tag = num(s.tag);
  const size = num(s.size);
  return { ...(tag !== undefined ? { tag } : {}), ...(size !== undefined ? { size } : {}) };
}

/** Tag and size of one message (arrow) from its info bytes, as the statistics read them. */
export function messageTagAndSize(category: Category | undefined, info: Uint8Array | undefined): { tag?: number; size?: number } {
  if (info === undefined) return {};
  return decodeWithSlots(slotsOf(category), category, info) ?? {};
}
