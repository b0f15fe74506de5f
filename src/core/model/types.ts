/**
 * The trace model shared by every reader, the converter, the writer, the query layer and the CLI.
 * It mirrors SLOG-2's data model (SLOG2.md §4–§7): categories, primitives (states, arrows,
 * events), composites, shadows (preview drawables) and line-ID maps. Times are seconds (f64).
 */

export type Topology = 'event' | 'state' | 'arrow';

/** Red, green, blue, alpha; each 0–255. */
export type Rgba = readonly [number, number, number, number];

export interface CategorySummary {
  /** Σ durations of this category's primitives / file duration (can exceed 1). */
  readonly incl: number;
  readonly excl: number;
  /** Number of real primitives of this category in the file. */
  readonly count: number;
}

export interface Category {
  /** ≥ 0 for real categories; −1/−2/−3 for the preview (shadow) categories. */
  readonly index: number;
  name: string;
  topology: Topology;
  rgba: Rgba;
  modifiable: boolean;
  /** Line width in pixels (states/events 1, arrows 3, preview categories 5). */
  width: number;
  /** Literal text fragments of the popup (SLOG2.md §4.2). */
  infoKeys: string[];
  /** One type character per info value: s h d l x X e E. */
  infoTypes: string;
  methods: number[];
  /** Whole-file statistics stored in SLOG-2 2.0.6 category records. */
  summary?: CategorySummary;
}

export interface Vertex {
  readonly time: number;
  readonly lineID: number;
}

/** A file/line recorded in the trace (CLOG2 SRCLOC, old CLOG srcloc, or an info value). */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
}

/** Where a drawable came from in the code: start = state start / arrow send / event; end = state end / arrow receive. */
export interface DrawableSource {
  readonly start?: SourceLocation;
  readonly end?: SourceLocation;
}

export interface Primitive {
  readonly kind: 'primitive';
  readonly category: number;
  /** States and arrows have 2 vertices (start, final), events 1. Order as recorded, not by time. */
  readonly vertices: readonly Vertex[];
  /** Raw info bytes, decoded with the category's infoKeys/infoTypes (see infoFormat.ts). */
  readonly info?: Uint8Array;
  /** min / max of the vertex times. */
  readonly earliest: number;
  readonly latest: number;
  readonly source?: DrawableSource;
}

export interface Composite {
  readonly kind: 'composite';
  readonly category: number;
  readonly info?: Uint8Array;
  /** Member primitives in drawing order. */
  readonly primitives: readonly Primitive[];
  readonly earliest: number;
  readonly latest: number;
}

export type Drawable = Primitive | Composite;

export interface CategoryWeight {
  readonly category: number;
  readonly incl: number;
  readonly excl: number;
  /** Unknown (NaN) in SLOG-2 2.0.5 files. */
  readonly count: number;
}

/** A preview drawable summarising many real primitives of one topology on the same line IDs. */
export interface Shadow {
  /** −1 event, −2 arrow, −3 state. */
  readonly category: number;
  /** Mean vertex times of the members; line IDs shared by all members. */
  readonly vertices: readonly Vertex[];
  readonly earliest: number;
  readonly latest: number;
  readonly numRealObjs: number;
  readonly weights: readonly CategoryWeight[];
}

export interface LineIDMapRow {
  readonly lineID: number;
  readonly path: readonly number[];
}

/** A Y-axis view: line ID → path of labels (e.g. world rank, or commID + comm rank). */
export interface LineIDMap {
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: readonly LineIDMapRow[];
  readonly methods: readonly number[];
}

export const PREVIEW_EVENT = -1;
export const PREVIEW_ARROW = -2;
export const PREVIEW_STATE = -3;

export function makePrimitive(category: number, vertices: readonly Vertex[], info?: Uint8Array, source?: DrawableSource): Primitive {
  let earliest = vertices[0]!.time;
  let latest = earliest;
  for (let i = 1; i < vertices.length; i++) {
    const t = vertices[i]!.time;
    if (t < earliest) earliest = t;
    if (t > latest) latest = t;
  }
  const p: { -readonly [K in keyof Primitive]: Primitive[K] } = { kind: 'primitive', category, vertices, earliest, latest };
  if (info !== undefined && info.length > 0) p.info = info;
  if (source !== undefined) p.source = source;
  return p;
}

export function topologyCode(t: Topology): number {
  return t === 'event' ? 0 : t === 'state' ? 1 : 2;
}
