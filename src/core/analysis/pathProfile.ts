/**
 * The critical path's composition (analysis pass 2): time on the path per innermost state name
 * and call site. It is computed per time window: the first window can run in the decoder thread
 * while this thread does the second (each decodes its half of the file), and without a thread both
 * run here in turn, so the sums are the same either way.
 *
 * Only the states overlapping a path segment of their process are swept: at any moment of a
 * segment, every state open then overlaps it, so the innermost one is the same (gaps from the
 * process's first state on are "(no state)"). A window's stream holds every drawable overlapping
 * it, so the states open at its start are there too; its segments are clipped to it.
 */
import type { DrawableFilter, PrimitiveBatch } from '../formats/slog2/columnStream';
import type { RawSegment } from './criticalPath';
import { SegmentClipper, segmentColumns } from './segmentClipper';
import type { Category } from '../model/types';
import { categoryFacts, SiteNames, type CategoryFacts } from './facts';
import { NestingSweep, NO_SITE, StateNames, type SpanSink } from './nestingSweep';
import type { SpanLog } from './spanLog';

/** One window of the path, in plain arrays (it crosses to the decoder thread as is). */
export interface PathWindow {
  /** Drawables overlapping [from, to] are read; only path time in the segments below counts. */
  readonly from: number;
  readonly to: number;
  /** The path's segments clipped to the window: process (location), start, end. */
  readonly segmentLoc: Int32Array;
  readonly segmentFrom: Float64Array;
  readonly segmentTo: Float64Array;
  /** Each process's first state entry and last state exit (index = location; NaN: no state). */
  readonly stateFirst: Float64Array;
  readonly stateLast: Float64Array;
  /** Line IDs and their locations (the other lines hold no path). */
  readonly lineIDs: Int32Array;
  readonly locations: Int32Array;
}

/** Time on the path per state name and per call site, in first-seen order. */
export interface PathProfile {
  readonly byCategory: readonly (readonly [string, number])[];
  readonly bySite: readonly (readonly [string, number])[];
}

/** The columnar stream of drawables overlapping [t0, t1] (a filter may leave some out). */
export type WindowStream = (t0: number, t1: number, keep: DrawableFilter) => AsyncIterable<PrimitiveBatch>;

export interface PathNames {
  /** Made with `states`. */
  readonly facts: (category: number) => CategoryFacts;
  readonly states: StateNames;
  readonly sites: SiteNames;
}

/** Fresh names for a pass over a file with these categories. */
export function pathNames(categories: ReadonlyMap<number, Category>): PathNames {
  const states = new StateNames();
  return { facts: categoryFacts(categories, states), states, sites: new SiteNames() };
}

/** The path's segments clipped to each window [from, to) (the last window's end is kept). */
export function pathWindows(
  segments: readonly RawSegment[],
  bounds: readonly number[],
  spans: { readonly first: readonly (number | undefined)[]; readonly last: readonly (number | undefined)[] },
  lines: { readonly lineIDs: Int32Array; readonly locations: Int32Array },
): PathWindow[] {
  const processes = Math.max(spans.first.length, spans.last.length);
  const stateFirst = Float64Array.from({ length: processes }, (_, i) => spans.first[i] ?? NaN);
  const stateLast = Float64Array.from({ length: processes }, (_, i) => spans.last[i] ?? NaN);
  const out: PathWindow[] = [];
  for (let w = 0; w + 1 < bounds.length; w++) {
    const from = bounds[w]!;
    const to = bounds[w + 1]!;
    let n = 0;
    for (const s of segments) if (Math.min(s.to, to) > Math.max(s.from, from)) n++;
    const segmentLoc = new Int32Array(n);
    const segmentFrom = new Float64Array(n);
    const segmentTo = new Float64Array(n);
    let k = 0;
    for (const s of segments) {
      const a = Math.max(s.from, from);
      const b = Math.min(s.to, to);
      if (!(b > a)) continue;
      segmentLoc[k] = s.loc;
      segmentFrom[k] = a;
      segmentTo[k++] = b;
    }
    out.push({ from, to, segmentLoc, segmentFrom, segmentTo, stateFirst, stateLast, ...lines });
  }
  return out;
}

/** Sums of `b` added into `into` (first-seen order kept). */
export function mergeProfiles(into: PathProfile, b: PathProfile): PathProfile {
  const add = (x: readonly (readonly [string, number])[], y: readonly (readonly [string, number])[]) => {
    const m = new Map(x);
    for (const [k, v] of y) m.set(k, (m.get(k) ?? 0) + v);
    return [...m];
  };
  return { byCategory: add(into.byCategory, b.byCategory), bySite: add(into.bySite, b.bySite) };
}

/** What adds a span's time on the path to the profile (sums by id, in first-seen order). */
function pathSpans(clip: SegmentClipper, names: PathNames): { onSpan: SpanSink; profile: () => PathProfile } {
  const byName: number[] = [];
  const nameOrder: number[] = [];
  const bySite: number[] = [];
  const siteOrder: number[] = [];
  const onSpan: SpanSink = (loc, name, site, a, b) => {
    const on = clip.overlap(loc, a, b);
    if (!(on > 0)) return;
    if (byName[name] === undefined) {
      byName[name] = 0;
      nameOrder.push(name);
    }
    byName[name] += on;
    if (site === NO_SITE) return;
    if (bySite[site] === undefined) {
      bySite[site] = 0;
      siteOrder.push(site);
    }
    bySite[site] += on;
  };
  const profile = (): PathProfile => ({
    byCategory: nameOrder.map((id) => [names.states.names[id]!, byName[id]!] as const),
    bySite: siteOrder.map((id) => [names.sites.names[id]!, bySite[id]!] as const),
  });
  return { onSpan, profile };
}

/** A sweep whose spans add their time on the path to the profile. */
function pathSweep(clip: SegmentClipper, names: PathNames): { sweep: NestingSweep; profile: () => PathProfile } {
  const { onSpan, profile } = pathSpans(clip, names);
  return { sweep: new NestingSweep(onSpan), profile };
}

/**
 * The composition from the first pass's sweep of every state (spanLog.ts): the spans
 * profileEveryState would make, replayed; undefined when the log gave up.
 */
export async function profileFromLog(
  segments: readonly RawSegment[],
  log: SpanLog,
  names: PathNames,
  onChunk?: (done: number) => void,
): Promise<PathProfile | undefined> {
  const { onSpan, profile } = pathSpans(new SegmentClipper(segmentColumns(segments)), names);
  return (await log.replay(onSpan, onChunk)) ? profile() : undefined;
}

/** Location of each line ID of the window (−1: a line that holds no path). */
function locator(w: PathWindow): (lineID: number) => number {
  const byLine = new Map<number, number>();
  for (let i = 0; i < w.lineIDs.length; i++) byLine.set(w.lineIDs[i]!, w.locations[i]!);
  const dense: number[] = [];
  return (lineID) => {
    if (lineID >= 0 && lineID < 1 << 20) return (dense[lineID] ??= byLine.get(lineID) ?? -1);
    return byLine.get(lineID) ?? -1;
  };
}

/** The path's composition over one window: a single pass over its stream. */
export async function profilePathWindow(w: PathWindow, stream: WindowStream, names: PathNames, onBatch?: (firstStart: number) => void): Promise<PathProfile> {
  if (w.segmentLoc.length === 0) return { byCategory: [], bySite: [] };
  const clip = new SegmentClipper({ loc: w.segmentLoc, from: w.segmentFrom, to: w.segmentTo });
  const { sweep, profile } = pathSweep(clip, names);
  for (const loc of w.segmentLoc) {
    const first = w.stateFirst[loc];
    if (first !== undefined && !Number.isNaN(first)) sweep.startAt(loc, first);
  }
  const location = locator(w);
  const { facts, sites } = names;
  // Composites (rare) are kept whole; the loop below looks at each of their primitives.
  const keep: DrawableFilter = (category, line0, earliest, latest, primitives) => {
    if (primitives !== 1) return true;
    if (facts(category).topology !== 'state') return false;
    const loc = location(line0);
    return loc >= 0 && clip.touches(loc, earliest, latest);
  };
  for await (const b of stream(w.from, w.to, keep)) {
    if (b.rows > 0) onBatch?.(b.drawableEarliest[0]!);
    for (let i = 0; i < b.rows; i++) {
      const f = facts(b.category[i]!);
      if (b.vertexCount[i] !== 2 || f.topology !== 'state') continue;
      const loc = location(b.line0[i]!);
      if (loc < 0 || !clip.touches(loc, b.earliest[i]!, b.latest[i]!)) continue;
      sweep.addState(loc, f.nameId, sites.id(b.site[i], b.siteIndex[i]!), b.earliest[i]!, b.latest[i]!);
    }
  }
  sweep.finish((loc) => {
    const last = w.stateLast[loc];
    return last === undefined || Number.isNaN(last) ? -Infinity : last;
  });
  return profile();
}

/**
 * The composition when states do not nest properly (the sweep's truncation of a state then
 * depends on the others) or when asked to: every state of the stream is swept, in one window.
 */
export async function profileEveryState(
  segments: readonly RawSegment[],
  stream: (t0: number, t1: number) => AsyncIterable<PrimitiveBatch>,
  range: readonly [number, number],
  names: PathNames,
  location: (lineID: number) => number,
  onBatch?: (firstStart: number) => void,
): Promise<PathProfile> {
  const clip = new SegmentClipper(segmentColumns(segments));
  const { sweep, profile } = pathSweep(clip, names);
  const { facts, sites } = names;
  for await (const b of stream(range[0], range[1])) {
    if (b.rows > 0) onBatch?.(b.drawableEarliest[0]!);
    for (let i = 0; i < b.rows; i++) {
      const f = facts(b.category[i]!);
      if (b.vertexCount[i] !== 2 || f.topology !== 'state') continue;
      sweep.addState(location(b.line0[i]!), f.nameId, sites.id(b.site[i], b.siteIndex[i]!), b.earliest[i]!, b.latest[i]!);
    }
  }
  sweep.finish();
  return profile();
}
