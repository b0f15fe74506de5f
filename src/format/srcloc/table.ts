/**
 * The source-location table our SLOG-2 writer stores next to the tree, so that click-through to
 * source survives conversion (SLOG-2 itself has no field for it, SLOG2.md §18).
 *
 * WHERE IT LIVES. In the unreferenced gap between the end of the root tree-node block (the last
 * node written, §2) and the CategoryMap block:
 *   header.treeroot.fptr + header.treeroot.size  ==  table start,   table end  ==  header.categories.fptr
 * Why there: the reference reader locates every block through the header's FBinfo pointers only
 * and reads exactly `size` bytes at `fptr` (§2, §3, §13), so bytes no pointer covers are never
 * read by slog2printserial/slog2printrecur/Jumpshot-4. The `annotations` FBinfo was NOT used:
 * §15 MUST 1 requires writers to leave it NULL and the spec does not verify that the reference
 * tolerates a non-NULL one. The file still ends with the TreeDir and keeps the §2 block order; a
 * reference-written file has no gap (root end == CategoryMap start), so "no table" is detectable.
 *
 * LAYOUT (big-endian like the rest of SLOG-2; version 1):
 *   u8[8]  magic "MPESRCLC"
 *   i32    version (1)
 *   i32    table byte size, magic included (must equal the gap size)
 *   i64    records: source-location records in the input trace (CLOG2 SRCLOC / CLOG srcloc)
 *   i64    input sites: distinct (file, line) among those records (what `info` reports as sites)
 *   i32    nfiles, then nfiles × str (i16 n + n UTF-8 bytes)
 *   i32    nsites, then nsites × { i32 file index, i32 line }         — the distinct call sites
 *   i32    nnodes, then per tree node that holds located drawables:
 *            i16 depth, i32 xpos, i32 nentries,
 *            nentries × { u8 list (0 nestless, 1 nestable), i32 index in that list,
 *                         i32 start site, i32 end site }            (−1 = none)
 * KEYING. A drawable is identified by (node id, list, index within the node's list as written).
 * Node lists are written sorted in drawing order (§8) and never re-sorted by readers, so this
 * position is stable, exact and unique even for drawables equal in all drawing-order keys,
 * costs 13 bytes per located drawable only, and needs no search when a node is read.
 * "start" is the state start / arrow send / event location, "end" the state end / arrow receive
 * (model DrawableSource).
 */
import { BinaryReader } from '../bytes/binaryReader';
import type { DrawableSource, SourceLocation } from '../model/types';

export const SRCLOC_MAGIC = 'MPESRCLC';
export const SRCLOC_VERSION = 1;
export const NESTLESS_LIST = 0;
export const NESTABLE_LIST = 1;

export interface NodeSourceLocations {
  readonly depth: number;
  readonly xpos: number;
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
  /** The call sites the entries refer to. */
  readonly sites: readonly SourceLocation[];
  /** Number of drawables with at least one location. */
  readonly locatedDrawables: number;
  forNode(depth: number, xpos: number): NodeSourceLocations | undefined;
}

export function nodeKey(depth: number, xpos: number): string {
  return `${depth}:${xpos}`;
}

const ENCODER = new TextEncoder();

/** Append-only big-endian byte buffer (the table grows with the located drawables). */
class GrowableBytes {
  private buf = new Uint8Array(1024);
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
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

/** Collects located drawables while the writer emits nodes, then encodes the table. */
export class SourceLocationTableBuilder {
  private readonly files: string[] = [];
  private readonly fileIndex = new Map<string, number>();
  private readonly sites: SourceLocation[] = [];
  private readonly siteIndex = new Map<string, number>();
  /** Converters intern locations (one object per site): identity lookups skip the string key. */
  private readonly siteByObject = new Map<SourceLocation, number>();
  private readonly entries = new GrowableBytes();
  private nodes = 0;
  private openCountAt = -1;
  private openCount = 0;
  private located = 0;
  /** Input record count; defaults to the number of locations attached. */
  records: number | undefined;
  /** Distinct sites among the input records; defaults to the number of sites in the table. */
  inputSites: number | undefined;
  private attached = 0;

  get locatedDrawables(): number {
    return this.located;
  }

  /** Registers a call site (also sites the input saw but no drawable kept). */
  site(loc: SourceLocation): number {
    const known = this.siteByObject.get(loc);
    if (known !== undefined) return known;
    const key = `${loc.line}\u0000${loc.file}`;
    let i = this.siteIndex.get(key);
    if (i === undefined) {
      let f = this.fileIndex.get(loc.file);
      if (f === undefined) {
        f = this.files.length;
        this.files.push(loc.file);
        this.fileIndex.set(loc.file, f);
      }
      i = this.sites.length;
      this.sites.push({ file: loc.file, line: loc.line });
      this.siteIndex.set(key, i);
    }
    if (this.siteByObject.size < 1 << 16) this.siteByObject.set(loc, i);
    return i;
  }

  beginNode(depth: number, xpos: number): void {
    this.endNode();
    this.entries.i16(depth);
    this.entries.i32(xpos);
    this.openCountAt = this.entries.length;
    this.entries.i32(0);
    this.openCount = 0;
    this.nodes++;
  }

  add(list: number, index: number, source: DrawableSource): void {
    const start = source.start ? this.site(source.start) : -1;
    const end = source.end ? this.site(source.end) : -1;
    if (start < 0 && end < 0) return;
    this.entries.u8(list);
    this.entries.i32(index);
    this.entries.i32(start);
    this.entries.i32(end);
    this.openCount++;
    this.located++;
    this.attached += (start >= 0 ? 1 : 0) + (end >= 0 ? 1 : 0);
  }

  /** Closes the current node; a node without located drawables is dropped from the table. */
  endNode(): void {
    if (this.openCountAt < 0) return;
    if (this.openCount === 0) {
      // Nothing located: take the node header back out.
      this.entries.length = this.openCountAt - 6;
      this.nodes--;
    } else this.entries.setI32(this.openCountAt, this.openCount);
    this.openCountAt = -1;
  }

  /** True when the table would say nothing (no sites, no records): the writer then omits it. */
  get isEmpty(): boolean {
    return this.sites.length === 0 && this.located === 0 && !this.records && !this.inputSites;
  }

  encode(): Uint8Array {
    this.endNode();
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
    out.i32(this.nodes);
    out.raw(this.entries.bytes());
    out.setI32(12, out.length);
    return out.bytes().slice();
  }
}

class DecodedTable implements SourceLocationTable {
  constructor(
    readonly version: number,
    readonly records: number,
    readonly inputSites: number,
    readonly sites: readonly SourceLocation[],
    readonly locatedDrawables: number,
    private readonly nodes: ReadonlyMap<string, NodeSourceLocations>,
  ) {}
  forNode(depth: number, xpos: number): NodeSourceLocations | undefined {
    return this.nodes.get(nodeKey(depth, xpos));
  }
}

/** True if the bytes start with the table magic. */
export function hasSourceLocationMagic(bytes: Uint8Array): boolean {
  if (bytes.length < SRCLOC_MAGIC.length) return false;
  for (let i = 0; i < SRCLOC_MAGIC.length; i++) if (bytes[i] !== SRCLOC_MAGIC.charCodeAt(i)) return false;
  return true;
}

/**
 * Decodes a table occupying exactly `bytes` (file offset `base`). Every count is checked against
 * the remaining bytes; a bad table throws a FormatError naming the offset.
 */
export function decodeSourceLocationTable(bytes: Uint8Array, base: number, file: string): SourceLocationTable {
  const r = new BinaryReader(bytes, base, file);
  if (!hasSourceLocationMagic(bytes)) throw r.error('expected the source-location table magic "MPESRCLC"');
  r.skip(8, 'magic');
  const version = r.i32('source-location table version');
  if (version !== SRCLOC_VERSION) throw r.error(`unsupported source-location table version ${version}`, r.pos - 4);
  const size = r.i32('source-location table size');
  if (size !== bytes.length) throw r.error(`source-location table size ${size} does not match its ${bytes.length}-byte slot`, r.pos - 4);
  const records = r.i64('source-location record count');
  if (records < 0) throw r.error(`negative source-location record count ${records}`, r.pos - 8);
  const inputSites = r.i64('input site count');
  if (inputSites < 0) throw r.error(`negative input site count ${inputSites}`, r.pos - 8);
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
  const nnodes = r.checkCount(r.i32('node count'), 10, 'node');
  const nodes = new Map<string, NodeSourceLocations>();
  let located = 0;
  for (let n = 0; n < nnodes; n++) {
    const depth = r.i16('node depth');
    const xpos = r.i32('node xpos');
    const count = r.checkCount(r.i32('entry count'), 13, 'entry');
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
        if (s >= 0) source[end ? 'end' : 'start'] = sites[s]!;
      }
      (list === NESTLESS_LIST ? nestless : nestable).set(index, source);
      located++;
    }
    nodes.set(nodeKey(depth, xpos), { depth, xpos, nestless, nestable });
  }
  if (r.remaining !== 0) throw r.error(`${r.remaining} unexpected bytes after the source-location table`);
  return new DecodedTable(version, records, inputSites, sites, located, nodes);
}
