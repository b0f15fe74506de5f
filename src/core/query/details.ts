/**
 * The details of one drawable the user clicked (the popup): the webview only has the float32
 * columns of a payload, so it names the drawable by (kind, category, row, times) and the host
 * finds the real primitive again — reading only the nodes that hold the drawable's midpoint, from
 * the payload's lowest depth up — with its info bytes and its source locations.
 */
import type { Category, Drawable, DrawableSource, LineIDMap, Primitive } from '../model/types';
import { infoText } from '../model/infoFormat';
import { javaDouble } from '../model/javaNumber';
import type { Slog2File } from '../formats/slog2/slog2File';
import type { WindowIdentities } from './buildWindow';
import type { RowLayout } from './rows';

export type DrawableKind = 'state' | 'arrow' | 'event';

/** A drawable as the webview sees it (absolute times, rows of map `mapIndex`). */
export interface DrawableRef {
  readonly drawable: DrawableKind;
  readonly mapIndex: number;
  readonly category: number;
  /** Row of the first vertex (the state's row, the arrow's sender, the event's row). */
  readonly row: number;
  /** Row of the last vertex (arrows; equal to `row` otherwise). */
  readonly toRow: number;
  readonly start: number;
  readonly end: number;
  /** Lowest tree depth of the payload it came from (the drawable sits in a node at this depth or above). */
  readonly lowestDepth: number;
  /** Accepted time error (the payload's float32 offsets). */
  readonly tolerance: number;
  /**
   * Which payload row it is: the answer to `requestId` (coarse or final) and the row `index` of
   * its table for this kind. The host, which kept where each row came from, resolves it exactly.
   */
  readonly at?: { readonly requestId: number; readonly final: boolean; readonly index: number };
}

/** What the popup shows; every string is ready to print. */
export interface DrawableDescription {
  readonly categoryIndex: number;
  readonly categoryName: string;
  readonly topology: DrawableKind;
  readonly rgba: readonly [number, number, number, number];
  readonly start: number;
  readonly end: number;
  /** One line per vertex: `[0]: time = 0.0320102, world_rank = 2` (labels of every Y map). */
  readonly vertices: readonly string[];
  /** The info text exactly as the reference prints it after `]:`. */
  readonly info: string;
  readonly source: DrawableSource | undefined;
}

function primitivesOf(drawables: readonly Drawable[]): Primitive[] {
  const out: Primitive[] = [];
  for (const d of drawables) {
    if (d.kind === 'primitive') out.push(d);
    else for (const p of d.primitives) out.push(p); // no spread: data-sized
  }
  return out;
}

function kindOf(p: Primitive, c: Category | undefined): DrawableKind {
  if (c !== undefined) return c.topology;
  if (p.vertices.length === 1) return 'event';
  return p.vertices[0]!.lineID === p.vertices[p.vertices.length - 1]!.lineID ? 'state' : 'arrow';
}

/** Start/end as the payload stores them for this kind (arrows: first and last vertex times). */
function timesOf(p: Primitive, kind: DrawableKind): readonly [number, number] {
  if (kind === 'state') return [p.earliest, p.latest];
  return [p.vertices[0]!.time, p.vertices[p.vertices.length - 1]!.time];
}

/**
 * Finds the real primitive `ref` names (closest in time among those of its category on its rows),
 * with its source locations when the file has a table (the reader attaches them). Undefined when nothing matches.
 */
export async function findDrawable(file: Slog2File, layout: RowLayout, ref: DrawableRef, signal?: AbortSignal): Promise<Primitive | undefined> {
  const mid = ref.drawable === 'state' ? (ref.start + ref.end) / 2 : ref.start;
  const lowest = Math.max(0, Math.min(file.maxDepth, Math.floor(ref.lowestDepth)));
  let best: Primitive | undefined;
  let bestError = Infinity;
  for (let depth = file.maxDepth; depth >= lowest; depth--) {
    for (const info of file.nodesOverlapping(depth, mid, mid)) {
      signal?.throwIfAborted();
      const { drawables } = await file.readNode(info);
      for (const p of primitivesOf(drawables)) {
        if (p.category !== ref.category || p.vertices.length === 0) continue;
        const kind = kindOf(p, file.categories.get(p.category));
        if (kind !== ref.drawable) continue;
        const from = layout.rowOfLine.get(p.vertices[0]!.lineID);
        const to = layout.rowOfLine.get(p.vertices[p.vertices.length - 1]!.lineID);
        if (from !== ref.row || to !== ref.toRow) continue;
        const [a, b] = timesOf(p, kind);
        const error = Math.abs(a - ref.start) + Math.abs(b - ref.end);
        if (error < bestError) {
          bestError = error;
          best = p;
        }
      }
    }
  }
  return bestError <= ref.tolerance ? best : undefined;
}

/**
 * The primitive a payload row came from, by the identity the host kept when it built the payload
 * (tree node, category, row, exact start): one node read, no search by time. Undefined when the
 * identity does not name a drawable of the file (then the caller falls back to findDrawable).
 */
export async function findByIdentity(file: Slog2File, layout: RowLayout, ids: WindowIdentities, ref: DrawableRef): Promise<Primitive | undefined> {
  const at = ref.at;
  if (at === undefined) return undefined;
  const table = ref.drawable === 'state' ? ids.states : ref.drawable === 'arrow' ? ids.arrows : ids.events;
  if (!(at.index >= 0 && at.index < table.earliest.length)) return undefined;
  const info = file.nodeAt(table.nodeDepth[at.index]!, table.nodeXpos[at.index]!);
  const earliest = table.earliest[at.index]!;
  if (info === undefined || Number.isNaN(earliest)) return undefined;
  for (const p of primitivesOf((await file.readNode(info)).drawables)) {
    if (p.category !== ref.category || p.earliest !== earliest || p.vertices.length === 0) continue;
    if (layout.rowOfLine.get(p.vertices[0]!.lineID) !== ref.row) continue;
    if (layout.rowOfLine.get(p.vertices[p.vertices.length - 1]!.lineID) !== ref.toRow) continue;
    return p;
  }
  return undefined;
}

function vertexLine(i: number, time: number, lineID: number, maps: readonly LineIDMap[]): string {
  let s = `[${i}]: time = ${javaDouble(time)}`;
  for (const m of maps) {
    const row = m.rows.find((r) => r.lineID === lineID);
    if (row === undefined) continue;
    m.columns.forEach((c, k) => {
      if (row.path[k] !== undefined) s += `, ${c} = ${row.path[k]}`;
    });
    break;
  }
  return s;
}

export function describeDrawable(file: Slog2File, p: Primitive): DrawableDescription {
  const c = file.categories.get(p.category);
  const kind = kindOf(p, c);
  const [start, end] = timesOf(p, kind);
  return {
    categoryIndex: p.category,
    categoryName: c?.name ?? `category ${p.category}`,
    topology: kind,
    rgba: c ? [c.rgba[0], c.rgba[1], c.rgba[2], c.rgba[3]] : [128, 128, 128, 255],
    start,
    end,
    vertices: p.vertices.map((v, i) => vertexLine(i, v.time, v.lineID, file.lineIDMaps)),
    info: c ? infoText(c.infoKeys, c.infoTypes, p.info) : '',
    source: p.source,
  };
}
