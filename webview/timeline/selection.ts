/**
 * The selected drawable, kept in absolute times and rows (not payload indices) so it survives new
 * payloads, and what the popup of a click needs: the reference the host uses to find the drawable
 * again, or — for a shadow — its per-category ratios straight from the payload. Pure.
 */
import type { DrawableRef } from '../../src/protocol/webview';
import { FLAG_SHADOW, type WindowColumns } from '../../src/protocol/wire';
import type { Hit } from './hitTest';

/** A keyboard move of the selection (keys.ts): along its row, to the row above or below, to an arrow's other end. */
export type SelectionMove = 'next' | 'previous' | 'up' | 'down' | 'otherEnd';

export interface Selection {
  readonly kind: Hit['kind'];
  readonly start: number;
  readonly end: number;
  readonly row: number;
  readonly toRow: number;
  readonly depth: number;
  readonly mapIndex: number;
  readonly category: number;
  /** True for shadows (a summary of many drawables; nothing to find on the host). */
  readonly summary: boolean;
}

export interface ShadowShare {
  readonly category: number;
  readonly inclusive: number;
  readonly exclusive: number;
  readonly count: number;
}

export interface ShadowSummary {
  readonly count: number;
  readonly shares: readonly ShadowShare[];
}

/** Float32 offsets: a relative error of 2^-23 of the offset, plus a little. */
function f32Error(offset: number): number {
  return Math.abs(offset) * 1.2e-7 + 1e-12;
}

/** A state or state shadow (a box on one row) as a selection. */
function boxSelection(
  kind: 'state' | 'shadow',
  t: { readonly start: Float32Array; readonly end: Float32Array; readonly row: Uint32Array; readonly depth: Uint8Array },
  i: number,
  base: number,
  mapIndex: number,
  category: number,
  summary: boolean,
): Selection {
  return { kind, start: base + t.start[i]!, end: base + t.end[i]!, row: t.row[i]!, toRow: t.row[i]!, depth: t.depth[i]!, mapIndex, category, summary };
}

export function selectionOf(hit: Hit, c: WindowColumns, mapIndex: number): Selection {
  const base = c.header.baseTime;
  const i = hit.index;
  switch (hit.kind) {
    case 'state':
      return boxSelection('state', c.states, i, base, mapIndex, c.states.category[i]!, false);
    case 'shadow':
      return boxSelection('shadow', c.shadows, i, base, mapIndex, -3, true);
    case 'arrow': {
      const a = c.arrows;
      const summary = (a.flags[i]! & FLAG_SHADOW) !== 0;
      return {
        kind: 'arrow',
        start: base + a.start[i]!,
        end: base + a.end[i]!,
        row: a.fromRow[i]!,
        toRow: a.toRow[i]!,
        depth: 0,
        mapIndex,
        category: a.category[i]!,
        summary,
      };
    }
    case 'event': {
      const e = c.events;
      const summary = (e.flags[i]! & FLAG_SHADOW) !== 0;
      const t = base + (summary ? e.start[i]! : e.time[i]!);
      const t1 = base + (summary ? e.end[i]! : e.time[i]!);
      return { kind: 'event', start: t, end: t1, row: e.row[i]!, toRow: e.row[i]!, depth: 0, mapIndex, category: e.category[i]!, summary };
    }
  }
}

/** The host-side reference of a real drawable (undefined for summaries). */
/** The reference a details request sends; `from` names the payload (its request and whether final) when known. */
export function refOf(hit: Hit, c: WindowColumns, mapIndex: number, from?: { readonly requestId: number; readonly final: boolean }): DrawableRef | undefined {
  const s = selectionOf(hit, c, mapIndex);
  if (s.summary || s.kind === 'shadow') return undefined;
  const base = c.header.baseTime;
  const tolerance = Math.min(1, f32Error(s.start - base) + f32Error(s.end - base));
  return {
    drawable: s.kind,
    mapIndex,
    category: s.category,
    row: s.row,
    toRow: s.toRow,
    start: s.start,
    end: s.end,
    lowestDepth: c.header.lowestDepth,
    tolerance,
    ...(from !== undefined ? { at: { requestId: from.requestId, final: from.final, index: hit.index } } : {}),
  };
}

/** Per-category shares of a state shadow, largest exclusive share first (as the payload sorts them). */
export function shadowSummaryOf(index: number, c: WindowColumns): ShadowSummary {
  const sh = c.shadows;
  const w = c.shadowWeights;
  const from = sh.weightStart[index]!;
  const shares: ShadowShare[] = [];
  for (let k = from; k < from + sh.weightCount[index]!; k++) {
    shares.push({ category: w.category[k]!, inclusive: w.incl[k]!, exclusive: w.excl[k]!, count: w.count[k]! });
  }
  return { count: sh.count[index]!, shares };
}

/** A drawable of the payload: its hit (to select it) and its times. */
interface Candidate {
  readonly hit: Hit;
  readonly start: number;
  readonly depth: number;
}

function realOnRow(c: WindowColumns, row: number): Candidate[] {
  const base = c.header.baseTime;
  const out: Candidate[] = [];
  const st = c.states;
  for (let i = 0; i < st.start.length; i++)
    if (st.row[i] === row) out.push({ hit: { kind: 'state', index: i }, start: base + st.start[i]!, depth: st.depth[i]! });
  const ev = c.events;
  for (let i = 0; i < ev.time.length; i++) {
    if (ev.row[i] === row && (ev.flags[i]! & FLAG_SHADOW) === 0) out.push({ hit: { kind: 'event', index: i }, start: base + ev.time[i]!, depth: 0 });
  }
  return out;
}

/**
 * The next (+1) or previous (−1) real state or event on the selection's row, by start time (ties:
 * outer before inner), among what is loaded; undefined at the ends.
 */
export function nextOnRow(c: WindowColumns, sel: Selection, direction: 1 | -1): Hit | undefined {
  type Place = Pick<Candidate, 'start' | 'depth'>;
  const order = (a: Place, b: Place): number => a.start - b.start || a.depth - b.depth;
  const all = realOnRow(c, sel.row).sort(order);
  const here: Place = { start: sel.start, depth: sel.depth };
  if (direction === 1) return all.find((x) => order(x, here) > 0)?.hit;
  for (let i = all.length - 1; i >= 0; i--) if (order(all[i]!, here) < 0) return all[i]!.hit;
  return undefined;
}

/**
 * The drawable at the selection's time on row `row` (the innermost state covering it, or else the
 * state or event starting nearest to it); undefined when the row has nothing loaded.
 */
export function atTimeOnRow(c: WindowColumns, sel: Selection, row: number): Hit | undefined {
  const base = c.header.baseTime;
  const t = sel.kind === 'state' ? (sel.start + sel.end) / 2 : sel.start;
  const st = c.states;
  let best: Hit | undefined;
  let bestDepth = -1;
  for (let i = 0; i < st.start.length; i++) {
    if (st.row[i] !== row || base + st.start[i]! > t || base + st.end[i]! < t) continue;
    if (st.depth[i]! > bestDepth) {
      bestDepth = st.depth[i]!;
      best = { kind: 'state', index: i };
    }
  }
  if (best) return best;
  let nearest = Infinity;
  for (const x of realOnRow(c, row)) {
    const d = Math.abs(x.start - t);
    if (d < nearest) {
      nearest = d;
      best = x.hit;
    }
  }
  return best;
}
