/** Tree-node blocks (SLOG2.md §7): real drawables plus one ShadowBuffer per child. */
import { BinaryReader } from '../../bytes/binaryReader';
import type { CategoryWeight, Composite, Drawable, Primitive, Shadow, Vertex } from '../../model/types';
import type { Slog2Version } from './header';
import { decodeShadowTable, shadowObjects, walkShadows, type ShadowTable } from './shadowTable';

export const NODE_HEADER_BYTES = 34;
/** Minimum bytes per list item, checked before allocating from a count (SLOG2.md §13). */
const MIN_DRAWABLE_BYTES = 9;
const MIN_PRIMITIVE_BODY_BYTES = 8;
const MIN_SHADOW_BYTES = 36;
const MIN_SHADOW_BUFFER_BYTES = NODE_HEADER_BYTES + 8;
const VERTEX_BYTES = 12;

export interface NodeHeader {
  readonly earliest: number;
  readonly latest: number;
  readonly depth: number;
  readonly xpos: number;
  readonly fptr: number;
  readonly size: number;
}

/** A child stub with the shadows summarising that child's subtree. */
export interface ShadowBuffer {
  readonly child: NodeHeader;
  readonly shadows: readonly Shadow[];
  /** The same shadows as columns (shadowTable.ts), where the reader has them so. */
  readonly table?: ShadowTable;
}

/**
 * A ShadowBuffer whose shadows are decoded on first use. A window draws the shadows of its lowest
 * depth only (of the children it overlaps), yet every node above is read too: at 4096 ranks a
 * node holds ~25 000 shadows per level, most of the cost of a zoomed-out window. The structure is
 * walked (and bounds-checked) when the node is parsed; the section's bytes are kept (a copy) and
 * its contents (columns, NaN checks, category lookups) decoded once, when asked; the objects are
 * made from the columns when they are asked for.
 */
class LazyShadowBuffer implements ShadowBuffer {
  private decoded: ShadowTable | undefined;
  private parsed: readonly Shadow[] | undefined;
  private bytes: Uint8Array | undefined;

  constructor(
    readonly child: NodeHeader,
    bytes: Uint8Array,
    private readonly base: number,
    private readonly file: string,
    private readonly counts: readonly [number, number],
    private readonly ctx: NodeParseContext,
  ) {
    this.bytes = bytes;
  }

  get table(): ShadowTable {
    if (this.decoded === undefined) {
      this.decoded = decodeShadowTable(this.bytes!, this.base, this.file, this.counts, this.ctx);
      this.ctx.shadowsParsed?.(this.counts[0] + this.counts[1]);
      this.bytes = undefined;
    }
    return this.decoded;
  }

  get shadows(): readonly Shadow[] {
    return (this.parsed ??= shadowObjects(this.table));
  }
}

export interface TreeNode {
  readonly header: NodeHeader;
  /** Nestless (arrows, events) then nestable (states, composites), each in file (drawing) order. */
  readonly drawables: readonly Drawable[];
  /**
   * Where each drawable stands in the node's two lists as written (nestless first), when one
   * was dropped (a NaN/∞ time): the source-location record numbers them so. Absent: the same
   * as its index.
   */
  readonly positions?: Int32Array;
  readonly shadowBuffers: readonly ShadowBuffer[];
}

export interface NodeParseContext {
  readonly version: Slog2Version;
  /** Called for each category index met, so unknown indices can be reported and given a placeholder. */
  readonly seeCategory: (index: number, offset: number) => void;
  readonly warn: (message: string) => void;
  /** Hears how many shadows a node's lazily decoded buffer held (the reader's decoding count). */
  readonly shadowsParsed?: (count: number) => void;
}

export function parseNodeHeader(r: BinaryReader): NodeHeader {
  const earliest = r.f64('node earliest');
  const latest = r.f64('node latest');
  const depth = r.i16('node depth');
  const xpos = r.i32('node xpos');
  const fptr = r.i64('node fptr');
  const size = r.i32('node size');
  return { earliest, latest, depth, xpos, fptr, size };
}

export function parseTreeNode(r: BinaryReader, ctx: NodeParseContext): TreeNode {
  const header = parseNodeHeader(r);
  const drawables: Drawable[] = [];
  let written = 0;
  let positions: number[] | undefined;
  for (const list of ['nestless', 'nestable']) {
    const n = r.checkCount(r.i32(`${list} drawable count`), MIN_DRAWABLE_BYTES, `${list} drawable`);
    for (let i = 0; i < n; i++, written++) {
      const d = parseDrawableEntry(r, ctx);
      if (d === undefined) positions ??= drawables.map((_, k) => k);
      else {
        positions?.push(written);
        drawables.push(d);
      }
    }
  }
  const nbufs = r.checkCount(r.i32('child shadow buffer count'), MIN_SHADOW_BUFFER_BYTES, 'child shadow buffer');
  const shadowBuffers: ShadowBuffer[] = [];
  for (let i = 0; i < nbufs; i++) {
    const child = parseNodeHeader(r);
    const start = r.pos;
    const counts: [number, number] = [0, 0];
    for (let list = 0; list < 2; list++) {
      const what = list === 0 ? 'nestless' : 'nestable';
      const n = r.checkCount(r.i32(`${what} shadow count`), MIN_SHADOW_BYTES, `${what} shadow`);
      counts[list] = n;
      const after = r.littleEndian ? -1 : walkShadows(r.bytes, r.pos, n, ctx.version === 'SLOG 2.0.6');
      if (after >= 0) r.pos = after;
      else for (let k = 0; k < n; k++) skipShadow(r, ctx.version);
    }
    // A copy: the block may be a cache view that a later read recycles (ByteSource.read).
    shadowBuffers.push(new LazyShadowBuffer(child, r.bytes.slice(start, r.pos), r.base + start, r.file, counts, ctx));
  }
  if (r.remaining > 0) ctx.warn(`${r.file}:${r.offset}: ${r.remaining} unused bytes at the end of tree node (${header.depth},${header.xpos})`);
  return positions === undefined ? { header, drawables, shadowBuffers } : { header, drawables, positions: Int32Array.from(positions), shadowBuffers };
}

/** One drawable entry (kind byte first); undefined when dropped for a NaN/∞ time. The row index decodes its copies with it. */
export function parseDrawableEntry(r: BinaryReader, ctx: NodeParseContext): Drawable | undefined {
  const at = r.offset;
  const kind = r.u8('drawable kind');
  if (kind === 0) return parsePrimitiveBody(r, ctx);
  if (kind === 1) return parseComposite(r, ctx);
  throw r.error(`unknown drawable kind byte ${kind} (expected 0 = primitive or 1 = composite)`, at - r.base);
}

interface PrimitiveFields {
  readonly category: number;
  readonly info: Uint8Array | undefined;
  readonly vertices: Vertex[];
  readonly earliest: number;
  readonly latest: number;
}

/** category, info, vertices; `finite` is false when a vertex time is NaN/∞ (the drawable is then dropped). */
function parsePrimitiveFields(r: BinaryReader, ctx: NodeParseContext): PrimitiveFields & { finite: boolean } {
  const categoryAt = r.offset;
  const category = r.i32('category index');
  ctx.seeCategory(category, categoryAt);
  const info = parseInfo(r);
  const nverts = r.checkCount(r.i16('vertex count'), VERTEX_BYTES, 'vertex');
  if (nverts === 0) throw r.error('drawable without vertices (expected >= 1)', r.pos - 2);
  const vertices: Vertex[] = [];
  let earliest = Infinity;
  let latest = -Infinity;
  let finite = true;
  for (let v = 0; v < nverts; v++) {
    const time = r.f64('vertex time');
    const lineID = r.i32('vertex lineID');
    if (!Number.isFinite(time)) finite = false;
    if (time < earliest) earliest = time;
    if (time > latest) latest = time;
    vertices.push({ time, lineID });
  }
  return { category, info, vertices, earliest, latest, finite };
}

function parseInfo(r: BinaryReader): Uint8Array | undefined {
  const infolen = r.i16('info length');
  if (infolen < 0) throw r.error(`negative info length ${infolen}`, r.pos - 2);
  if (infolen === 0) return undefined;
  // Copy: the block buffer may be a recycled cache view.
  return r.bytesView(infolen, 'info bytes').slice();
}

function toPrimitive(f: PrimitiveFields): Primitive {
  const p: { -readonly [K in keyof Primitive]: Primitive[K] } = {
    kind: 'primitive',
    category: f.category,
    vertices: f.vertices,
    earliest: f.earliest,
    latest: f.latest,
  };
  if (f.info !== undefined) p.info = f.info;
  return p;
}

function parsePrimitiveBody(r: BinaryReader, ctx: NodeParseContext): Primitive | undefined {
  const at = r.offset;
  const f = parsePrimitiveFields(r, ctx);
  if (!f.finite) {
    ctx.warn(`${r.file}:${at}: drawable with a NaN or infinite time dropped`);
    return undefined;
  }
  return toPrimitive(f);
}

function parseComposite(r: BinaryReader, ctx: NodeParseContext): Composite | undefined {
  const at = r.offset;
  const categoryAt = r.offset;
  const category = r.i32('composite category index');
  ctx.seeCategory(category, categoryAt);
  const info = parseInfo(r);
  const nprims = r.checkCount(r.i16('composite member count'), MIN_PRIMITIVE_BODY_BYTES + VERTEX_BYTES, 'composite member');
  if (nprims === 0) throw r.error('composite without members (expected >= 1)', r.pos - 2);
  const primitives: Primitive[] = [];
  let earliest = Infinity;
  let latest = -Infinity;
  let finite = true;
  for (let i = 0; i < nprims; i++) {
    const f = parsePrimitiveFields(r, ctx);
    if (!f.finite) finite = false;
    earliest = Math.min(earliest, f.earliest);
    latest = Math.max(latest, f.latest);
    primitives.push(toPrimitive(f));
  }
  if (!finite) {
    ctx.warn(`${r.file}:${at}: composite with a NaN or infinite time dropped`);
    return undefined;
  }
  const c: { -readonly [K in keyof Composite]: Composite[K] } = { kind: 'composite', category, primitives, earliest, latest };
  if (info !== undefined) c.info = info;
  return c;
}

/** Steps over one shadow with parseShadow's structural checks (same bounds, same errors), decoding nothing. */
export function skipShadow(r: BinaryReader, version: Slog2Version): void {
  r.skip(4, 'category index');
  const infolen = r.i16('info length');
  if (infolen < 0) throw r.error(`negative info length ${infolen}`, r.pos - 2);
  r.skip(infolen, 'info bytes');
  const nverts = r.checkCount(r.i16('vertex count'), VERTEX_BYTES, 'vertex');
  if (nverts === 0) throw r.error('drawable without vertices (expected >= 1)', r.pos - 2);
  r.skip(nverts * VERTEX_BYTES, 'vertices');
  r.skip(16, 'shadow times');
  r.i64('shadow num_real_objs'); // in range (±2^53), as parseShadow checks
  const v6 = version === 'SLOG 2.0.6';
  const nweights = r.checkCount(r.i32('shadow weight count'), v6 ? 20 : 12, 'category weight');
  if (!v6) r.skip(nweights * 12, 'category weights');
  else
    for (let w = 0; w < nweights; w++) {
      r.skip(12, 'category weight');
      r.i64('weight count');
    }
}

/** One shadow entry; undefined when dropped for a NaN/∞ time. */
export function parseShadow(r: BinaryReader, ctx: NodeParseContext): Shadow | undefined {
  const at = r.offset;
  const f = parsePrimitiveFields(r, ctx);
  const earliest = r.f64('shadow earliest');
  const latest = r.f64('shadow latest');
  const numRealObjs = r.i64('shadow num_real_objs');
  const weightBytes = ctx.version === 'SLOG 2.0.6' ? 20 : 12;
  const nweights = r.checkCount(r.i32('shadow weight count'), weightBytes, 'category weight');
  const weights: CategoryWeight[] = [];
  for (let i = 0; i < nweights; i++) {
    const categoryAt = r.offset;
    const category = r.i32('weight category index');
    ctx.seeCategory(category, categoryAt);
    const incl = r.f32('weight incl_ratio');
    const excl = r.f32('weight excl_ratio');
    // 2.0.5 weights carry no count: unknown.
    const count = ctx.version === 'SLOG 2.0.6' ? r.i64('weight count') : NaN;
    weights.push({ category, incl, excl, count });
  }
  if (!Number.isFinite(earliest) || !Number.isFinite(latest) || !f.finite) {
    ctx.warn(`${r.file}:${at}: shadow with a NaN or infinite time dropped`);
    return undefined;
  }
  return { category: f.category, vertices: f.vertices, earliest, latest, numRealObjs, weights };
}
