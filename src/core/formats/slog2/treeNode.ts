/** Tree-node blocks (SLOG2.md §7): real drawables plus one ShadowBuffer per child. */
import type { BinaryReader } from '../../bytes/binaryReader';
import type { CategoryWeight, Composite, Drawable, Primitive, Shadow, Vertex } from '../../model/types';
import type { Slog2Version } from './header';

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
}

export interface TreeNode {
  readonly header: NodeHeader;
  /** Nestless (arrows, events) then nestable (states, composites), each in file (drawing) order. */
  readonly drawables: readonly Drawable[];
  readonly shadowBuffers: readonly ShadowBuffer[];
}

export interface NodeParseContext {
  readonly version: Slog2Version;
  /** Called for each category index met, so unknown indices can be reported and given a placeholder. */
  readonly seeCategory: (index: number, offset: number) => void;
  readonly warn: (message: string) => void;
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
  for (const list of ['nestless', 'nestable']) {
    const n = r.checkCount(r.i32(`${list} drawable count`), MIN_DRAWABLE_BYTES, `${list} drawable`);
    for (let i = 0; i < n; i++) {
      const d = parseDrawableEntry(r, ctx);
      if (d !== undefined) drawables.push(d);
    }
  }
  const nbufs = r.checkCount(r.i32('child shadow buffer count'), MIN_SHADOW_BUFFER_BYTES, 'child shadow buffer');
  const shadowBuffers: ShadowBuffer[] = [];
  for (let i = 0; i < nbufs; i++) {
    const child = parseNodeHeader(r);
    const shadows: Shadow[] = [];
    for (const list of ['nestless', 'nestable']) {
      const n = r.checkCount(r.i32(`${list} shadow count`), MIN_SHADOW_BYTES, `${list} shadow`);
      for (let k = 0; k < n; k++) {
        const s = parseShadow(r, ctx);
        if (s !== undefined) shadows.push(s);
      }
    }
    shadowBuffers.push({ child, shadows });
  }
  if (r.remaining > 0) ctx.warn(`${r.file}:${r.offset}: ${r.remaining} unused bytes at the end of tree node (${header.depth},${header.xpos})`);
  return { header, drawables, shadowBuffers };
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
