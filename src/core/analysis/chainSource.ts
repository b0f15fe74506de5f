/**
 * The ChainSource of a trace: the waits from its analysis, indexed by waiting state, by waiting
 * process and by the line and process of their cause; the states themselves are read back from
 * the file at the times the waits name (a one-instant query each). A rank's first state is found
 * in a window from the start of the trace that doubles until it holds one.
 */
import type { Category, Drawable, LineIDMap, Primitive } from '../model/types';
import { sameState, type ChainSource, type ChainState } from './dependence';
import { lineRoles } from './lines';
import type { WaitInstance } from './types';

/** What the chain needs of a trace file (Slog2File has it). */
export interface ChainTrace {
  readonly categories: ReadonlyMap<number, Category>;
  readonly lineIDMaps: readonly LineIDMap[];
  readonly timeRange: readonly [number, number];
  /** The real drawables overlapping [t0, t1], reading only the tree nodes that overlap it (Slog2File.query). */
  query(t0: number, t1: number, options?: { signal?: AbortSignal }): AsyncIterable<{ readonly drawables: readonly Drawable[] }>;
}

/** Waits looked at for the next call others waited for (their cause states are read from the file). */
const MAX_CAUSE_PROBES = 16;
/** First search window: this share of the trace's time range. */
const FIRST_WINDOW_SHARE = 1 / 4096;

function* primitivesOf(d: Drawable): Generator<Primitive> {
  if (d.kind === 'primitive') yield d;
  else yield* d.primitives;
}

/** Index of the first element of `list` (sorted by `key`) whose key is ≥ t. */
function lowerBound<T>(list: readonly T[], key: (x: T) => number, t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(list[mid]!) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function groupSorted(waits: readonly WaitInstance[], group: (w: WaitInstance) => number, key: (w: WaitInstance) => number): Map<number, WaitInstance[]> {
  const out = new Map<number, WaitInstance[]>();
  for (const w of waits) {
    const g = group(w);
    let list = out.get(g);
    if (list === undefined) out.set(g, (list = []));
    list.push(w);
  }
  for (const list of out.values()) list.sort((a, b) => key(a) - key(b));
  return out;
}

export function traceChainSource(trace: ChainTrace, waits: readonly WaitInstance[], signal?: AbortSignal): ChainSource {
  const roles = lineRoles(trace.lineIDMaps);
  const causeTime = (w: WaitInstance) => w.causer.time;
  // Each index is built on first use (a chain touches one or two of them), by sorting numbers only:
  // string keys for 200 000 waits held the extension host for most of a second.
  const lazy = <T>(make: () => T): (() => T) => {
    let value: T | undefined;
    return () => (value ??= make());
  };
  /** Waits by waiting line (by enter), by the line and the process of their cause (by the cause's time), by waiting process (by exit). */
  const byWaiterLine = lazy(() =>
    groupSorted(
      waits,
      (w) => w.lineID,
      (w) => w.enter,
    ),
  );
  const byCauseLine = lazy(() => groupSorted(waits, (w) => w.causer.lineID, causeTime));
  const byCauseProcess = lazy(() => groupSorted(waits, (w) => roles.location(w.causer.lineID), causeTime));
  const byWaiterProcess = lazy(() =>
    groupSorted(
      waits,
      (w) => roles.location(w.lineID),
      (w) => w.exit,
    ),
  );
  const [start, end] = trace.timeRange;
  const firstWindow = Math.max((end - start) * FIRST_WINDOW_SHARE, Number.MIN_VALUE);

  /** Every state on `lineID` overlapping [t0, t1]. */
  const statesIn = async (lineID: number, t0: number, t1: number): Promise<ChainState[]> => {
    const out: ChainState[] = [];
    // Not the time-ordered stream: it reads every node above the first and last leaf whole, which
    // for a one-instant query is most of the file (the bench caught chains taking minutes).
    for await (const slice of trace.query(t0, t1, signal ? { signal } : {})) {
      for (const d of slice.drawables) {
        for (const p of primitivesOf(d)) {
          const v = p.vertices;
          if (v.length !== 2 || v[0]!.lineID !== lineID) continue;
          const cat = trace.categories.get(p.category);
          if (cat === undefined || cat.topology !== 'state' || p.latest < t0 || p.earliest > t1) continue;
          out.push({
            lineID,
            rank: roles.labels[roles.location(lineID)] ?? String(lineID),
            category: p.category,
            name: cat.name,
            enter: p.earliest,
            exit: p.latest,
          });
        }
      }
    }
    return out;
  };

  const stateAt = async (lineID: number, name: string, time: number): Promise<ChainState | undefined> => {
    let best: ChainState | undefined;
    const exact = (x: ChainState) => (x.enter === time ? 1 : 0);
    for (const s of await statesIn(lineID, time, time)) {
      if (s.name !== name || s.enter > time || s.exit < time) continue;
      // Prefer the state that starts at `time`, then the innermost (latest start).
      if (best === undefined || exact(s) > exact(best) || (exact(s) === exact(best) && s.enter > best.enter)) best = s;
    }
    return best;
  };

  return {
    waitOf(s) {
      const list = byWaiterLine().get(s.lineID) ?? [];
      for (let i = lowerBound(list, (w) => w.enter, s.enter); i < list.length && list[i]!.enter === s.enter; i++) {
        const w = list[i]!;
        if (w.exit === s.exit && w.category === s.name) return w;
      }
      return undefined;
    },
    waitsCausedBy(lineID, name, t0, t1) {
      const list = byCauseLine().get(lineID) ?? [];
      const out: WaitInstance[] = [];
      for (let i = lowerBound(list, causeTime, t0); i < list.length && list[i]!.causer.time <= t1; i++)
        if (list[i]!.causer.category === name) out.push(list[i]!);
      return out;
    },
    stateAt,
    async lastWaitBefore(s) {
      const list = byWaiterProcess().get(roles.location(s.lineID)) ?? [];
      // The last wait that ended at or before s starts (not s itself).
      for (let i = lowerBound(list, (w) => w.exit, s.enter + Number.MIN_VALUE) - 1; i >= 0; i--) {
        const w = list[i]!;
        if (w.exit > s.enter || (w.lineID === s.lineID && w.enter === s.enter && w.exit === s.exit && w.category === s.name)) continue;
        return stateAt(w.lineID, w.category, w.enter);
      }
      return undefined;
    },
    async firstStateBefore(s) {
      // Widen a window from the start of the trace until it holds a state of the line.
      for (let w = firstWindow; ; w *= 2) {
        const t1 = Math.min(end, start + w, s.enter);
        let best: ChainState | undefined;
        for (const x of await statesIn(s.lineID, start, t1))
          if (x.enter < s.enter && !sameState(x, s) && (best === undefined || x.enter < best.enter || (x.enter === best.enter && x.exit > best.exit))) best = x;
        if (best !== undefined) return best;
        if (t1 >= Math.min(end, s.enter)) return undefined;
      }
    },
    async nextCauseAfter(s) {
      const list = byCauseProcess().get(roles.location(s.lineID)) ?? [];
      const from = lowerBound(list, causeTime, s.exit);
      for (let i = from; i < list.length && i < from + MAX_CAUSE_PROBES; i++) {
        const w = list[i]!;
        const cause = await stateAt(w.causer.lineID, w.causer.category, w.causer.time);
        if (cause !== undefined && !sameState(cause, s) && cause.enter >= s.exit) return cause;
      }
      return undefined;
    },
  };
}
