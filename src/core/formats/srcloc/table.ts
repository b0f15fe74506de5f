/**
 * Source locations in our SLOG-2 files, so that click-through to source survives conversion
 * (SLOG-2 has no field for them, SLOG2.md §18; the reference converter drops them).
 *
 * WHERE THEY LIVE: in bytes no FBinfo points at. The reference reader finds every block through
 * the header's FBinfo pointers only and reads exactly `size` bytes at `fptr` (SLOG2.md §2, §3,
 * §13), so unreferenced bytes between blocks are never read by slog2printserial, slog2printrecur
 * or Jumpshot-4. The `annotations` FBinfo is NOT used: §15 MUST 1 requires writers to leave it NULL,
 * and the spec does not show that the reference tolerates a non-NULL one. The §2 block order is
 * kept (nodes in post-order, then CategoryMap, LineIDMapList, TreeDir at the end of the file).
 *
 *  1. NODE RECORD, written right after a tree-node block that holds located drawables (streamed
 *     with the node, so the writer keeps nothing per drawable in memory):
 *       u8[8] magic "MPESRCLN"
 *       i32   record byte size, magic included
 *       i32   nentries, then nentries × { u8 list (0 nestless, 1 nestable), i32 index in that list,
 *                                         i32 start site, i32 end site }      (site −1 = none)
 *     It belongs to the node whose block ends where it starts: node.fptr + node.size.
 *  2. TABLE, right after the root node block (and the root's node record, if any), filling the
 *     gap up to header.categories.fptr exactly:
 *       u8[8] magic "MPESRCLC"
 *       i32   version (1)
 *       i32   table byte size, magic included (= the rest of the gap)
 *       i64   records: source-location records in the input (CLOG2 SRCLOC / CLOG srcloc records)
 *       i64   input sites: distinct (file, line) among those records (what `info` reports)
 *       i64   located drawables (entries in all node records)
 *       i32   nfiles, then nfiles × str (i16 n + n UTF-8 bytes)
 *       i32   nsites, then nsites × { i32 file index, i32 line }   — what entries' sites index
 *  A reference-written file has no gap after the root (root end == CategoryMap start): no table.
 *
 * KEYING: a drawable is (its node, list, index within that list as written). Node lists are
 * written sorted in drawing order (§8) and readers do not re-sort them, so this position is exact
 * and unique even for drawables equal in all drawing-order keys, costs 13 bytes per located
 * drawable, and needs no search when a node is read. "start" is the state start / arrow send /
 * event location, "end" the state end / arrow receive (model DrawableSource).
 */
import { BinaryReader } from '../../bytes/binaryReader';
import type { DrawableSource, SourceLocation } from '../../model/types';

export const SRCLOC_MAGIC = 'MPESRCLC';
export const SRCLOC_NODE_MAGIC = 'MPESRCLN';
export const SRCLOC_VERSION = 1;
export const NESTLESS_LIST = 0;
export const NESTABLE_LIST = 1;
export const ENTRY_BYTES = 13;
export const NODE_RECORD_PREFIX_BYTES = 16;

/** Located drawables of one node, by position in the node's lists. */
export interface NodeSourceLocations {
  /** index in the node's nestless list → source */
  readonly nestless: ReadonlyMap<number, DrawableSource>;
  /** index in the node's nestable list → source */
  readonly nestable: ReadonlyMap<number, DrawableSource>;
}

export interface SourceLocationTable {
  readonly version: number;
  /** Source-location records of the input trace (what `info --json` reports as records). */
  readonly records: number;
  /** Distinct (file, line) among the input's records, as the input's `info` reports them. */
  readonly inputSites: number;
  /** Drawables with at least one location. */
  readonly locatedDrawables: number;
  /** The call sites node records refer to. */
  readonly sites: readonly SourceLocation[];
}

const ENCODER = new TextEncoder();

/** Append-only big-endian byte buffer. */
class GrowableBytes {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  length = 0;

  private ensure(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.length + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  u8(v: number): void {
    this.ensure(1);
    this.buf[this.length++] = v;
  }
  i16(v: number): void {
    this.ensure(2);
    this.view.setInt16(this.length, v);
    this.length += 2;
  }
  i32(v: number): void {
    this.ensure(4);
    this.view.setInt32(this.length, v);
    this.length += 4;
  }
  setI32(at: number, v: number): void {
    this.view.setInt32(at, v);
  }
  i64(v: number): void {
    const hi = Math.floor(v / 4294967296);
    this.i32(hi);
    this.ensure(4);
    this.view.setUint32(this.length, v - hi * 4294967296);
    this.length += 4;
  }
  raw(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  /** A copy of the bytes, and the buffer reset for reuse. */
  take(): Uint8Array {
    const out = this.buf.slice(0, this.length);
    this.length = 0;
    return out;
  }
}

/** Collects located drawables node by node while the writer emits nodes, then encodes the table. */
export class SourceLocationTableBuilder {
  private readonly files: string[] = [];
  private readonly fileIndex = new Map<string, number>();
  private readonly sites: SourceLocation[] = [];
  private readonly node = new GrowableBytes();
  private nodeEntries = 0;
  private located = 0;
  private attached = 0;
  /** Input record count; defaults to the number of locations attached. */
  records: number | undefined;
  /** Distinct sites among the input records; defaults to the number of sites in the table. */
  inputSites: number | undefined;

  get locatedDrawables(): number {
    return this.located;
  }

  /**
   * Appends the sites numbered `first`, `first + 1`, … (interned by the drawable encoder, which
   * hands each new site over once, in order).
   */
  /** Sites in the table so far. */
  get siteCount(): number {
    return this.sites.length;
  }

  appendSites(first: number, sites: readonly SourceLocation[]): void {
    if (first !== this.sites.length) throw new Error(`internal error: source-location sites numbered from ${first}, expected ${this.sites.length}`);
    for (const loc of sites) {
      if (!this.fileIndex.has(loc.file)) {
        this.fileIndex.set(loc.file, this.files.length);
        this.files.push(loc.file);
      }
      this.sites.push({ file: loc.file, line: loc.line });
    }
  }

  /** Adds a located drawable of the node being written, by its position and site indices (−1 = none). */
  addSites(list: number, index: number, start: number, end: number): void {
    if (start < 0 && end < 0) return;
    if (this.nodeEntries === 0) {
      this.node.raw(ENCODER.encode(SRCLOC_NODE_MAGIC));
      this.node.i32(0);
      this.node.i32(0);
    }
    this.node.u8(list);
    this.node.i32(index);
    this.node.i32(start);
    this.node.i32(end);
    this.nodeEntries++;
    this.located++;
    this.attached += (start >= 0 ? 1 : 0) + (end >= 0 ? 1 : 0);
  }

  /** The node record of the node just written (to be placed right after its block), or undefined. */
  takeNodeRecord(): Uint8Array | undefined {
    if (this.nodeEntries === 0) return undefined;
    this.node.setI32(8, this.node.length);
    this.node.setI32(12, this.nodeEntries);
    this.nodeEntries = 0;
    return this.node.take();
  }

  /** True when the table would say nothing: the writer then omits it. */
  get isEmpty(): boolean {
    return this.sites.length === 0 && this.located === 0 && !this.records && !this.inputSites;
  }

  encode(): Uint8Array {
    const fileBytes = this.files.map((f) => {
      const b = ENCODER.encode(f);
      return b.length > 32767 ? b.subarray(0, 32767) : b;
    });
    const out = new GrowableBytes();
    out.raw(ENCODER.encode(SRCLOC_MAGIC));
    out.i32(SRCLOC_VERSION);
    out.i32(0); // size, patched below
    out.i64(this.records ?? this.attached);
    out.i64(this.inputSites ?? this.sites.length);
    out.i64(this.located);
    out.i32(fileBytes.length);
    for (const b of fileBytes) {
      out.i16(b.length);
      out.raw(b);
    }
    out.i32(this.sites.length);
    for (const s of this.sites) {
      out.i32(this.fileIndex.get(s.file)!);
      out.i32(s.line);
    }
    out.setI32(12, out.length);
    return out.take();
  }
}

function hasMagic(bytes: Uint8Array, magic: string): boolean {
  if (bytes.length < magic.length) return false;
  for (let i = 0; i < magic.length; i++) if (bytes[i] !== magic.charCodeAt(i)) return false;
  return true;
}

export function hasSourceLocationMagic(bytes: Uint8Array): boolean {
  return hasMagic(bytes, SRCLOC_MAGIC);
}

export function hasNodeRecordMagic(bytes: Uint8Array): boolean {
  return hasMagic(bytes, SRCLOC_NODE_MAGIC);
}

/** Size of a node record from its first 16 bytes (magic checked by the caller), validated. */
export function nodeRecordSize(prefix: Uint8Array, base: number, file: string): number {
  const r = new BinaryReader(prefix, base, file);
  r.skip(8, 'magic');
  const size = r.i32('source-location node record size');
  const count = r.i32('source-location entry count');
  if (count < 1 || size !== NODE_RECORD_PREFIX_BYTES + ENTRY_BYTES * count) {
    throw r.error(`source-location node record size ${size} does not fit ${count} entries of ${ENTRY_BYTES} bytes`, 8);
  }
  return size;
}

/** Decodes a table occupying exactly `bytes` (file offset `base`); counts checked before use. */
export function decodeSourceLocationTable(bytes: Uint8Array, base: number, file: string): SourceLocationTable {
  const r = new BinaryReader(bytes, base, file);
  if (!hasSourceLocationMagic(bytes)) throw r.error('expected the source-location table magic "MPESRCLC"');
  r.skip(8, 'magic');
  const version = r.i32('source-location table version');
  if (version !== SRCLOC_VERSION) throw r.error(`unsupported source-location table version ${version}`, r.pos - 4);
  const size = r.i32('source-location table size');
  if (size !== bytes.length) throw r.error(`source-location table size ${size} does not match its ${bytes.length}-byte slot`, r.pos - 4);
  const records = nonNegative(r, r.i64('source-location record count'), 'source-location record count');
  const inputSites = nonNegative(r, r.i64('input site count'), 'input site count');
  const locatedDrawables = nonNegative(r, r.i64('located drawable count'), 'located drawable count');
  const nfiles = r.checkCount(r.i32('file count'), 2, 'file');
  const files: string[] = [];
  for (let i = 0; i < nfiles; i++) files.push(r.javaString('source file name'));
  const nsites = r.checkCount(r.i32('site count'), 8, 'site');
  const sites: SourceLocation[] = [];
  for (let i = 0; i < nsites; i++) {
    const f = r.i32('site file index');
    if (f < 0 || f >= nfiles) throw r.error(`site file index ${f} is outside [0, ${nfiles})`, r.pos - 4);
    sites.push({ file: files[f]!, line: r.i32('site line') });
  }
  if (r.remaining !== 0) throw r.error(`${r.remaining} unexpected bytes after the source-location table`);
  return { version, records, inputSites, locatedDrawables, sites };
}

function nonNegative(r: BinaryReader, v: number, what: string): number {
  if (v < 0) throw r.error(`negative ${what} ${v}`, r.pos - 8);
  return v;
}

/** Decodes a node record occupying exactly `bytes`; site indices checked against the table. */
export function decodeNodeRecord(bytes: Uint8Array, base: number, file: string, table: SourceLocationTable): NodeSourceLocations {
  const r = new BinaryReader(bytes, base, file);
  if (!hasNodeRecordMagic(bytes)) throw r.error('expected the source-location node record magic "MPESRCLN"');
  r.skip(8, 'magic');
  r.skip(4, 'record size');
  const count = r.checkCount(r.i32('entry count'), ENTRY_BYTES, 'entry');
  const nsites = table.sites.length;
  const nestless = new Map<number, DrawableSource>();
  const nestable = new Map<number, DrawableSource>();
  for (let e = 0; e < count; e++) {
    const list = r.u8('list');
    if (list !== NESTLESS_LIST && list !== NESTABLE_LIST) throw r.error(`unknown list ${list} (expected 0 nestless or 1 nestable)`, r.pos - 1);
    const index = r.i32('drawable index');
    if (index < 0) throw r.error(`negative drawable index ${index}`, r.pos - 4);
    const source: { start?: SourceLocation; end?: SourceLocation } = {};
    for (const end of [false, true]) {
      const s = r.i32('site index');
      if (s < -1 || s >= nsites) throw r.error(`site index ${s} is outside [-1, ${nsites})`, r.pos - 4);
      if (s >= 0) source[end ? 'end' : 'start'] = table.sites[s]!;
    }
    (list === NESTLESS_LIST ? nestless : nestable).set(index, source);
  }
  if (r.remaining !== 0) throw r.error(`${r.remaining} unexpected bytes after the source-location node record`);
  return { nestless, nestable };
}
