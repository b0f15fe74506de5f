/**
 * Window query → columnar payload (wire.ts). Streams the node slices of a window query (real
 * drawables of every node of depth ≥ L overlapping the span, plus the shadows of the depth-L
 * nodes), keeps what lies on the requested rows, computes the nesting depth of states per row
 * (real states and state shadows together, as Jumpshot does) and packs everything into exact-size
 * typed arrays with float32 times relative to the span start.
 */
import type { Category, Drawable, Primitive, Shadow } from '../model/types';
import type { ShadowTable } from '../formats/slog2/shadowTable';
import { PREVIEW_ARROW, PREVIEW_EVENT, PREVIEW_STATE } from '../model/types';
import {
  ARROW_SPEC,
  EVENT_SPEC,
  FLAG_HAS_SOURCE,
  FLAG_SHADOW,
  SHADOW_SPEC,
  STATE_SPEC,
  allocateTable,
  clampOffset,
  type WindowColumns,
  type WindowHeader,
} from './windowColumns';
import { nestingDepths } from './nesting';
import { orderByDepth, ranksOf } from './stateOrder';
import { Growing, joined } from './growingTable';
import { Slog2File } from '../formats/slog2/slog2File';
import { nodeColumnsOf } from '../formats/slog2/columnStream';
import type { NodeColumns } from '../formats/slog2/nodeColumns';
import type { SiteMarker } from '../model/siteFlags';
import { ColumnSiteMarks } from './columnMarks';
import { shadowWeightTable, type WeightsFrom } from './shadowWeights';

export interface SliceLike {
  readonly drawables: readonly Drawable[];
  readonly shadows: readonly Shadow[];
  /** More shadows, as their buffers' columns (unfiltered): a reader that has them gives them so when asked. */
  readonly shadowTables?: readonly ShadowTable[];
  /** The tree node the slice comes from (a drawable's identity: node + category + row + start). */
  readonly depth?: number;
  readonly xpos?: number;
}

/**
 * Where each real drawable of a payload table came from: its tree node and its exact (float64)
 * start, aligned with the table's rows. The host keeps this beside the payload it sent, so a click
 * on row k of a table is resolved to the one drawable, without a search by time (details.ts).
 */
export interface TableIdentities {
  readonly nodeDepth: Int32Array;
  readonly nodeXpos: Int32Array;
  readonly earliest: Float64Array;
}

export interface WindowIdentities {
  readonly states: TableIdentities;
  readonly arrows: TableIdentities;
  readonly events: TableIdentities;
}

/** What the builder needs from a reader (Slog2File satisfies it). */
export interface WindowSource {
  readonly categories: ReadonlyMap<number, Category>;
  readonly nodesRead: number;
  query(t0: number, t1: number, options: { lowestDepth?: number; signal?: AbortSignal; shadowTables?: boolean }): AsyncIterable<SliceLike>;
}

/** What to build: the span, rows and depth of the payload's header, and the Y map's line → row. */
export type WindowSpec = Pick<WindowHeader, 't0' | 't1' | 'rowStart' | 'rowEnd' | 'mapIndex' | 'lowestDepth'> & {
  readonly rowOfLine: ReadonlyMap<number, number>;
  /** Extra flag bits of a located drawable (FLAG_SITE_MATCH, code colouring), from its source sites. */
  readonly marks?: SiteMarker;
};

/** Upper bound on drawables per payload (a safety net; the level of detail normally keeps it far lower). */
export const MAX_PAYLOAD_ITEMS = 1_500_000;
/** Offsets are clamped to this many window spans around the window (off-screen beyond). */
const OFFSET_LIMIT_SPANS = 64;

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/** Entry i of a table goes out at rank[i] (none: in place). */
function identitiesOf(g: Growing, rank?: Uint32Array): TableIdentities {
  const n = g.length;
  const nodeDepth = new Int32Array(n);
  const nodeXpos = new Int32Array(n);
  const earliest = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const k = rank ? rank[i]! : i;
    nodeDepth[k] = g.nodeDepth[i]!;
    nodeXpos[k] = g.nodeXpos[i]!;
    earliest[k] = g.earliest[i]!;
  }
  return { nodeDepth, nodeXpos, earliest };
}

/**
 * Builds the payload of a window. With `identities`, also says where each real drawable came
 * from (`identities.set` is called once, with arrays aligned to the payload's tables).
 */
export async function buildWindow(
  source: WindowSource,
  spec: WindowSpec,
  signal?: AbortSignal,
  identities?: { set(ids: WindowIdentities): void },
): Promise<WindowColumns> {
  const started = now();
  const nodesBefore = source.nodesRead;
  const { t0, t1, rowStart, rowEnd, rowOfLine } = spec;
  const states = new Growing();
  const stateShadows = new Growing();
  /** Each state shadow's weights: its object's, or its row's of a table. */
  const weightSources: WeightsFrom[] = [];
  const arrows = new Growing();
  const events = new Growing();
  let total = 0;
  let truncated = false;
  /** The node of the slice being read, and the start of the primitive being added. */
  let nodeDepth = -1;
  let nodeXpos = -1;
  let earliest = Number.NaN;

  const rowIn = (r: number | undefined): r is number => r !== undefined && r >= rowStart && r < rowEnd;
  const columnMarks = spec.marks !== undefined ? new ColumnSiteMarks(spec.marks) : undefined;
  const topologyOf = (p: Primitive): Category['topology'] => {
    const c = source.categories.get(p.category);
    if (c !== undefined) return c.topology;
    if (p.vertices.length === 1) return 'event';
    return p.vertices[0]!.lineID === p.vertices[p.vertices.length - 1]!.lineID ? 'state' : 'arrow';
  };

  /**
   * A primitive of `topology` from its fields (the object reader's or a node's columns): its
   * bounds, first and last vertex; states and events are placed by the first vertex's line.
   */
  const addFields = (
    topology: Category['topology'],
    category: number,
    flags: number,
    e: number,
    l: number,
    line0: number,
    lineLast: number,
    time0: number,
    timeLast: number,
  ): void => {
    earliest = e;
    switch (topology) {
      case 'state': {
        const row = rowOfLine.get(line0);
        if (rowIn(row)) push(states, e, l, row, 0, category, flags, 1, e);
        return;
      }
      case 'arrow': {
        const from = rowOfLine.get(line0);
        const to = rowOfLine.get(lineLast);
        if (from === undefined || to === undefined || Math.max(from, to) < rowStart || Math.min(from, to) >= rowEnd) return;
        push(arrows, time0, timeLast, from, to, category, flags, 1, time0);
        return;
      }
      case 'event': {
        const row = rowOfLine.get(line0);
        if (rowIn(row)) push(events, time0, time0, row, 0, category, flags, 1, time0);
        return;
      }
    }
  };

  const addPrimitive = (p: Primitive): void => {
    if (!(p.earliest <= t1 && t0 <= p.latest) || p.vertices.length === 0) return;
    const flags = p.source !== undefined ? FLAG_HAS_SOURCE | (spec.marks?.(p.source.start, p.source.end) ?? 0) : 0;
    const first = p.vertices[0]!;
    const last = p.vertices[p.vertices.length - 1]!;
    addFields(topologyOf(p), p.category, flags, p.earliest, p.latest, first.lineID, last.lineID, first.time, last.time);
  };

  /**
   * Row r of a node's columns (node at `offset`), as addPrimitive adds a primitive: a category
   * not in the map gets its placeholder as the object reader gives it (a state).
   */
  const addRow = (file: Slog2File, c: NodeColumns, r: number, offset: number): void => {
    const e = c.earliest[r]!;
    const l = c.latest[r]!;
    if (!(e <= t1 && t0 <= l)) return;
    const category = c.category[r]!;
    let cat = file.categories.get(category);
    if (cat === undefined) {
      file.seeCategory(category, offset);
      cat = file.categories.get(category);
    }
    const flags = c.sourced[r] === 1 ? FLAG_HAS_SOURCE | (columnMarks?.of(c, r) ?? 0) : 0;
    addFields(cat?.topology ?? 'state', category, flags, e, l, c.line0[r]!, c.lineLast[r]!, c.time0[r]!, c.timeLast[r]!);
  };

  const addShadow = (s: Shadow): void => {
    if (!(s.earliest <= t1 && t0 <= s.latest) || s.vertices.length === 0) return;
    earliest = Number.NaN;
    const first = s.vertices[0]!;
    const last = s.vertices[s.vertices.length - 1]!;
    const row = rowOfLine.get(first.lineID);
    if (s.category === PREVIEW_STATE) {
      if (!rowIn(row)) return;
      push(stateShadows, s.earliest, s.latest, row, 0, s.category, FLAG_SHADOW, s.numRealObjs, first.time);
      weightSources.push(s.weights);
    } else if (s.category === PREVIEW_ARROW) {
      const to = rowOfLine.get(last.lineID);
      if (row === undefined || to === undefined || Math.max(row, to) < rowStart || Math.min(row, to) >= rowEnd) return;
      push(arrows, s.earliest, s.latest, row, to, s.category, FLAG_SHADOW, s.numRealObjs, first.time);
    } else if (s.category === PREVIEW_EVENT) {
      if (!rowIn(row)) return;
      push(events, s.earliest, s.latest, row, 0, s.category, FLAG_SHADOW, s.numRealObjs, first.time);
    }
  };

  /** Shadow k of a table, as addShadow adds a shadow object. */
  const addShadowRow = (t: ShadowTable, k: number): void => {
    const e = t.earliest[k]!;
    const l = t.latest[k]!;
    const v0 = t.vertexStart[k]!;
    const vLast = t.vertexStart[k + 1]! - 1;
    if (!(e <= t1 && t0 <= l) || vLast < v0) return;
    earliest = Number.NaN;
    const category = t.category[k]!;
    const row = rowOfLine.get(t.vertexLine[v0]!);
    if (category === PREVIEW_STATE) {
      if (!rowIn(row)) return;
      push(stateShadows, e, l, row, 0, category, FLAG_SHADOW, t.numRealObjs[k]!, t.vertexTime[v0]!);
      weightSources.push({ table: t, row: k });
    } else if (category === PREVIEW_ARROW) {
      const to = rowOfLine.get(t.vertexLine[vLast]!);
      if (row === undefined || to === undefined || Math.max(row, to) < rowStart || Math.min(row, to) >= rowEnd) return;
      push(arrows, e, l, row, to, category, FLAG_SHADOW, t.numRealObjs[k]!, t.vertexTime[v0]!);
    } else if (category === PREVIEW_EVENT) {
      if (!rowIn(row)) return;
      push(events, e, l, row, 0, category, FLAG_SHADOW, t.numRealObjs[k]!, t.vertexTime[v0]!);
    }
  };

  const push = (g: Growing, a: number, b: number, row: number, row2: number, category: number, flags: number, count: number, time: number): void => {
    if (total >= MAX_PAYLOAD_ITEMS) {
      truncated = true;
      return;
    }
    total++;
    const withIds = identities !== undefined;
    const i = g.add(withIds);
    g.t0[i] = a;
    g.t1[i] = b;
    g.row[i] = row;
    g.row2[i] = row2;
    g.category[i] = category;
    g.flags[i] = flags;
    g.count[i] = count;
    g.time[i] = time;
    if (withIds) {
      g.nodeDepth[i] = nodeDepth;
      g.nodeXpos[i] = nodeXpos;
      g.earliest[i] = earliest;
    }
  };

  let columnNodes = 0;
  if (readsColumns(source, spec)) {
    // Full detail from a SLOG-2 file: each node's drawables decoded to columns, no object per
    // drawable (the nodes Slog2File.query reads, in its order: root first, each level in time order)
    for (let depth = source.maxDepth; depth >= 0 && signal?.aborted !== true; depth--) {
      for (const info of source.nodesOverlapping(depth, t0, t1)) {
        const c = await nodeColumnsOf(source, info);
        if (signal?.aborted) break;
        columnNodes++;
        nodeDepth = depth;
        nodeXpos = info.xpos;
        for (let d = 0; d < c.drawables; d++) {
          if (!(c.drawableEarliest[d]! <= t1 && t0 <= c.drawableLatest[d]!)) continue;
          const r0 = c.firstRow[d]!;
          const r1 = r0 + c.rowCount[d]!;
          for (let r = r0; r < r1; r++) addRow(source, c, r, info.fptr);
        }
      }
    }
  } else
    for await (const slice of source.query(t0, t1, { lowestDepth: spec.lowestDepth, shadowTables: true, ...(signal ? { signal } : {}) })) {
      nodeDepth = slice.depth ?? -1;
      nodeXpos = slice.xpos ?? -1;
      for (const d of slice.drawables) {
        if (d.kind === 'composite') for (const p of d.primitives) addPrimitive(p);
        else addPrimitive(d);
      }
      for (const s of slice.shadows) addShadow(s);
      for (const t of slice.shadowTables ?? []) for (let k = 0; k < t.count; k++) addShadowRow(t, k);
    }
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');

  // Nesting over real states and state shadows together (they share rows and drawing order).
  const nState = states.length;
  const nShadow = stateShadows.length;
  const nest = nestingDepths(
    joined(states.t0, nState, stateShadows.t0, nShadow),
    joined(states.t1, nState, stateShadows.t1, nShadow),
    joined(states.row, nState, stateShadows.row, nShadow),
  );

  const base = t0;
  const limit = Math.max(t1 - t0, 1e-12) * OFFSET_LIMIT_SPANS;
  const off = (t: number): number => clampOffset(t, base, limit);

  // States go out outermost first (by nesting depth), so drawing in array order paints enclosing
  // states behind the states they contain; within a depth by row, in drawing order per row (rows
  // do not overlap on screen, so the pixels are the same), so a frame visits only shown rows and
  // finds a row's states over a time range by binary search (stateOrder.ts orderByDepth).
  const st = allocateTable(STATE_SPEC, nState);
  const rank = ranksOf(orderByDepth(nest.order, nest.depth, nState));
  for (let i = 0; i < nState; i++) {
    const k = rank[i]!;
    st.start[k] = off(states.t0[i]!);
    st.end[k] = off(states.t1[i]!);
    st.row[k] = states.row[i]!;
    st.category[k] = states.category[i]!;
    st.depth[k] = Math.min(255, nest.depth[i]!);
    st.flags[k] = states.flags[i]!;
  }

  const sh = allocateTable(SHADOW_SPEC, nShadow);
  for (let i = 0; i < nShadow; i++) {
    sh.start[i] = off(stateShadows.t0[i]!);
    sh.end[i] = off(stateShadows.t1[i]!);
    sh.row[i] = stateShadows.row[i]!;
    sh.depth[i] = Math.min(255, nest.depth[nState + i]!);
    sh.count[i] = stateShadows.count[i]!;
  }
  const sw = shadowWeightTable(weightSources, sh);

  const ar = allocateTable(ARROW_SPEC, arrows.length);
  for (let i = 0; i < arrows.length; i++) {
    ar.start[i] = off(arrows.t0[i]!);
    ar.end[i] = off(arrows.t1[i]!);
    ar.fromRow[i] = arrows.row[i]!;
    ar.toRow[i] = arrows.row2[i]!;
    ar.category[i] = arrows.category[i]!;
    ar.count[i] = arrows.count[i]!;
    ar.flags[i] = arrows.flags[i]!;
  }

  const ev = allocateTable(EVENT_SPEC, events.length);
  for (let i = 0; i < events.length; i++) {
    ev.time[i] = off(events.time[i]!);
    ev.start[i] = off(events.t0[i]!);
    ev.end[i] = off(events.t1[i]!);
    ev.row[i] = events.row[i]!;
    ev.category[i] = events.category[i]!;
    ev.count[i] = events.count[i]!;
    ev.flags[i] = events.flags[i]!;
  }

  identities?.set({ states: identitiesOf(states, rank), arrows: identitiesOf(arrows), events: identitiesOf(events) });
  return {
    header: {
      baseTime: base,
      t0,
      t1,
      rowStart,
      rowEnd,
      mapIndex: spec.mapIndex,
      lowestDepth: spec.lowestDepth,
      maxNesting: Math.min(255, nest.maxDepth),
      truncated,
      nodesRead: source.nodesRead - nodesBefore + columnNodes,
      buildMs: now() - started,
    },
    states: st,
    shadows: sh,
    shadowWeights: sw,
    arrows: ar,
    events: ev,
  };
}

/**
 * Whether the window is read as columns: a SLOG-2 file at full detail (no shadows to read; site
 * marks from the rows' start and end sites, columnMarks.ts). The object reader's drawables were
 * ~60 % of a full-detail build (decoding, and the collector copying them), ~2.7 M of them for a
 * whole-trace window of the viewport bench's trace.
 */
function readsColumns(source: WindowSource, spec: Pick<WindowSpec, 'lowestDepth'>): source is Slog2File {
  return source instanceof Slog2File && Math.floor(spec.lowestDepth ?? 0) <= 0;
}
