/**
 * Search over the whole file through the SLOG-2 tree, not only what the timeline has loaded.
 *
 * The time axis is cut into one slice per leaf: slice i holds the drawables whose start time lies
 * in [leaf_i.earliest, leaf_{i+1}.earliest) (the first slice open to the left, the last to the
 * right). A drawable is stored in one node whose bounds contain it, so the nodes overlapping a
 * slice (the leaf and its ancestors) hold all of that slice's drawables. Walking slices forward
 * or backward from the current position, sorting each slice in drawing order, gives matches in
 * drawing order while reading only the nodes up to the first match.
 */
import type { Category, Drawable, Vertex } from '../model/types';
import { drawingOrderCompare } from '../formats/slog2/drawingOrder';
import { drawableRows, type DrawableMatcher, type MatchPlace } from './matcher';
import { ColumnCounter, type ColumnCountTree, type NodeBlock } from './columnCount';

/** Tree-node bounds as in the TreeDir. */
export interface SearchNodeInfo {
  readonly depth: number;
  readonly xpos: number;
  readonly earliest: number;
  readonly latest: number;
}

/** The part of the SLOG-2 reader (Slog2File) the search uses. */
export interface SearchableTree<N extends SearchNodeInfo = SearchNodeInfo> {
  readonly categories: ReadonlyMap<number, Category>;
  readonly maxDepth: number;
  readonly timeRange: readonly [number, number];
  level(depth: number): readonly N[];
  nodesOverlapping(depth: number, t0: number, t1: number): readonly N[];
  readNode(info: N): Promise<{ readonly drawables: readonly Drawable[] }>;
  /** A node read once in a pass over every node: not kept in the reader's cache (readNode otherwise). */
  readNodeOnce?(info: N): Promise<{ readonly drawables: readonly Drawable[] }>;
  /** Raw node blocks and category registration: a count decodes columns, not objects (columnCount.ts). */
  readBlockView?: ColumnCountTree['readBlockView'];
  seeCategory?: ColumnCountTree['seeCategory'];
  readonly source?: ColumnCountTree['source'];
}

export interface SearchMatch {
  readonly drawable: Drawable;
  readonly category: Category | undefined;
  readonly earliest: number;
  readonly latest: number;
  /** Start and end rows (line IDs); one entry for events. */
  readonly rows: readonly number[];
  readonly place: MatchPlace;
}

/** Where next/previous starts: a time, or the drawable found last (so equal times are stepped over in order). */
export type SearchFrom = { readonly time: number } | { readonly drawable: Drawable };

export interface FindOptions {
  readonly signal?: AbortSignal;
  /** Continue from the other end of the file when nothing is found (default false). */
  readonly wrap?: boolean;
}

export interface FindResult {
  readonly match: SearchMatch | undefined;
  /** True when the match was found after wrapping around the end of the file. */
  readonly wrapped: boolean;
  /** Time slices (leaves) examined, a measure of the work done. */
  readonly slicesRead: number;
}

/**
 * The next match after `from` (direction 1) or the last one before it (−1), in drawing order.
 * From a time t: forward finds matches starting at ≥ t, backward those starting before t.
 */
export async function findNext<N extends SearchNodeInfo>(
  tree: SearchableTree<N>,
  matcher: DrawableMatcher,
  from: SearchFrom,
  direction: 1 | -1,
  options: FindOptions = {},
): Promise<FindResult> {
  const slices = sliceBounds(tree);
  let slicesRead = 0;
  const origin = sliceOf(slices, 'time' in from ? from.time : from.drawable.earliest);
  // Pass 0: from the origin slice to the end in the search direction. Pass 1 (wrap): from the
  // other end of the file back to the origin slice, whole slices.
  const passes = options.wrap ? 2 : 1;
  for (let pass = 0; pass < passes; pass++) {
    const first = pass === 0 ? origin : direction === 1 ? 0 : slices.length - 1;
    const last = pass === 0 ? (direction === 1 ? slices.length - 1 : 0) : origin;
    for (let i = first; direction === 1 ? i <= last : i >= last; i += direction) {
      throwIfAborted(options.signal);
      const batch = await sliceDrawables(tree, slices[i]!, options.signal);
      slicesRead++;
      const candidates = pass === 0 && i === origin ? remainder(batch, from, direction) : batch;
      const ordered = direction === 1 ? candidates : [...candidates].reverse();
      for (const d of ordered) {
        const place = matcher.test(d);
        if (place !== undefined) return { match: toMatch(tree, d, place), wrapped: pass === 1, slicesRead };
      }
    }
  }
  return { match: undefined, wrapped: false, slicesRead };
}

/**
 * The position of a match among all matches in drawing order (0-based), for "3 of 24".
 * Reads the slices from the start of the file up to the drawable's slice.
 */
export async function matchOrdinal<N extends SearchNodeInfo>(
  tree: SearchableTree<N>,
  matcher: DrawableMatcher,
  drawable: Drawable,
  options: { readonly signal?: AbortSignal } = {},
): Promise<number> {
  const slices = sliceBounds(tree);
  const origin = sliceOf(slices, drawable.earliest);
  let before = 0;
  for (let i = 0; i <= origin; i++) {
    throwIfAborted(options.signal);
    const batch = await sliceDrawables(tree, slices[i]!, options.signal);
    for (const d of i === origin ? remainder(batch, { drawable }, -1) : batch) if (matcher.test(d) !== undefined) before++;
  }
  return before;
}

/** The n-th match (0-based) in drawing order, or undefined when there are fewer. */
export async function findNth<N extends SearchNodeInfo>(
  tree: SearchableTree<N>,
  matcher: DrawableMatcher,
  n: number,
  options: { readonly signal?: AbortSignal } = {},
): Promise<SearchMatch | undefined> {
  if (!Number.isSafeInteger(n) || n < 0) return undefined;
  let seen = 0;
  for (const slice of sliceBounds(tree)) {
    throwIfAborted(options.signal);
    for (const d of await sliceDrawables(tree, slice, options.signal)) {
      const place = matcher.test(d);
      if (place !== undefined && seen++ === n) return toMatch(tree, d, place);
    }
  }
  return undefined;
}

export interface CountOptions {
  readonly signal?: AbortSignal;
  /** Histogram bins over the time range (default 256). */
  readonly bins?: number;
  /** Histogram range; the file's time range by default. */
  readonly range?: readonly [number, number];
  /** Called after each tree node with the running totals. */
  readonly onProgress?: (p: CountProgress) => void;
  /** Test every drawable as an object even where the tree can be counted from columns (tests compare the two). */
  readonly objectsOnly?: boolean;
}

export interface CountProgress {
  readonly nodesDone: number;
  readonly nodesTotal: number;
  readonly matches: number;
}

export interface CountResult {
  readonly matches: number;
  /** Matches per bin by start time (for the overview strip). */
  readonly histogram: Uint32Array;
  readonly range: readonly [number, number];
}

/**
 * Counts every match in the file, node by node (each drawable is stored in exactly one node),
 * and bins their start times. Yields to the event loop now and then so an abort can arrive.
 */
export async function countMatches<N extends SearchNodeInfo>(
  tree: SearchableTree<N>,
  matcher: DrawableMatcher,
  options: CountOptions = {},
): Promise<CountResult> {
  const bins = Math.max(1, Math.min(1 << 16, Math.floor(options.bins ?? 256)));
  const range = options.range ?? tree.timeRange;
  const [r0, r1] = range;
  const span = r1 > r0 ? r1 - r0 : 1;
  const histogram = new Uint32Array(bins);
  const nodes: N[] = [];
  for (let depth = 0; depth <= tree.maxDepth; depth++) for (const n of tree.level(depth)) nodes.push(n); // no spread: data-sized
  // every node once: none kept in the reader's cache (see readNodeOnce)
  const read = tree.readNodeOnce !== undefined ? (info: N) => tree.readNodeOnce!(info) : (info: N) => tree.readNode(info);
  let matches = 0;
  const matched = (earliest: number): void => {
    matches++;
    const bin = Math.floor(((earliest - r0) / span) * bins);
    histogram[Math.max(0, Math.min(bins - 1, bin))]!++;
  };
  const counter = matcher.plan !== undefined && options.objectsOnly !== true ? columnCounter(tree, matcher.plan) : undefined;
  let lastYield = Date.now();
  for (let n = 0; n < nodes.length; n++) {
    throwIfAborted(options.signal);
    const info = nodes[n]!;
    const counted = counter !== undefined && isBlock(info) ? await counter.countNode(info, matched) : undefined;
    if (counted === undefined) {
      const node = await read(info);
      for (const d of node.drawables) if (matcher.test(d) !== undefined) matched(d.earliest);
    }
    options.onProgress?.({ nodesDone: n + 1, nodesTotal: nodes.length, matches });
    if (Date.now() - lastYield > 20) {
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      lastYield = Date.now();
    }
  }
  throwIfAborted(options.signal);
  return { matches, histogram, range };
}

/** A counter from columns where the tree can read raw blocks (Slog2File), else undefined. */
function columnCounter<N extends SearchNodeInfo>(tree: SearchableTree<N>, plan: NonNullable<DrawableMatcher['plan']>): ColumnCounter | undefined {
  const { readBlockView, seeCategory, source } = tree;
  if (readBlockView === undefined || seeCategory === undefined || source === undefined) return undefined;
  return new ColumnCounter(
    {
      categories: tree.categories,
      source,
      readBlockView: (fb, what) => readBlockView.call(tree, fb, what),
      seeCategory: (i, at) => seeCategory.call(tree, i, at),
    },
    plan,
  );
}

function isBlock(info: SearchNodeInfo): info is SearchNodeInfo & NodeBlock {
  const b = info as Partial<NodeBlock>;
  return typeof b.fptr === 'number' && typeof b.size === 'number';
}

interface Slice {
  /** Drawables with start time in [from, to). */
  readonly from: number;
  readonly to: number;
}

function sliceBounds<N extends SearchNodeInfo>(tree: SearchableTree<N>): Slice[] {
  const leaves = tree.level(0);
  if (leaves.length === 0) return [{ from: -Infinity, to: Infinity }];
  return leaves.map((leaf, i) => ({
    from: i === 0 ? -Infinity : leaf.earliest,
    to: i === leaves.length - 1 ? Infinity : leaves[i + 1]!.earliest,
  }));
}

/** Index of the slice holding start time t (binary search; slices are sorted). */
function sliceOf(slices: readonly Slice[], t: number): number {
  let lo = 0;
  let hi = slices.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (slices[mid]!.from <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

async function sliceDrawables<N extends SearchNodeInfo>(tree: SearchableTree<N>, slice: Slice, signal: AbortSignal | undefined): Promise<Drawable[]> {
  const batch: Drawable[] = [];
  for (let depth = tree.maxDepth; depth >= 0; depth--) {
    for (const info of tree.nodesOverlapping(depth, slice.from, slice.to)) {
      throwIfAborted(signal);
      const node = await tree.readNode(info);
      for (const d of node.drawables) if (d.earliest >= slice.from && d.earliest < slice.to) batch.push(d);
    }
  }
  return batch.sort(drawingOrderCompare); // stable: equal keys keep file order, the same on every read
}

/** The part of a sorted slice strictly after (1) or before (−1) the starting point. */
function remainder(batch: Drawable[], from: SearchFrom, direction: 1 | -1): Drawable[] {
  if ('time' in from) {
    return batch.filter((d) => (direction === 1 ? d.earliest >= from.time : d.earliest < from.time));
  }
  const at = batch.findIndex((d) => sameDrawable(d, from.drawable));
  if (at >= 0) return direction === 1 ? batch.slice(at + 1) : batch.slice(0, at);
  return batch.filter((d) => {
    const c = drawingOrderCompare(d, from.drawable);
    return direction === 1 ? c > 0 : c < 0;
  });
}

/** Same drawable even when its node was parsed again (new objects). */
export function sameDrawable(a: Drawable, b: Drawable): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind || a.category !== b.category || a.earliest !== b.earliest || a.latest !== b.latest) return false;
  const va = verticesOf(a);
  const vb = verticesOf(b);
  if (va.length !== vb.length || !va.every((v, i) => v.time === vb[i]!.time && v.lineID === vb[i]!.lineID)) return false;
  return sameBytes(a.info, b.info);
}

function verticesOf(d: Drawable): readonly Vertex[] {
  return d.kind === 'primitive' ? d.vertices : d.primitives.flatMap((p) => p.vertices);
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function toMatch<N extends SearchNodeInfo>(tree: SearchableTree<N>, d: Drawable, place: MatchPlace): SearchMatch {
  return { drawable: d, category: tree.categories.get(d.category), earliest: d.earliest, latest: d.latest, rows: drawableRows(d), place };
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
}
