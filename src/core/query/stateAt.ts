/**
 * "State of every rank at time t" (R-SHT's full query at t) restricted to rows: per row, the
 * stack of states containing t, outermost first. Through the row index the cost follows the rows
 * asked (their blocks in the one node per depth that contains t); without it, the plain query.
 */
import type { Category, Drawable, Primitive } from '../model/types';
import type { WindowSource } from './buildWindow';
import type { RowLayout } from './rows';

export interface StateAtT {
  readonly category: number;
  readonly start: number;
  readonly end: number;
}

export interface RowStack {
  readonly row: number;
  /** Outermost first. */
  readonly states: readonly StateAtT[];
}

function isState(p: Primitive, categories: ReadonlyMap<number, Category>): boolean {
  const c = categories.get(p.category);
  if (c !== undefined) return c.topology === 'state';
  return p.vertices.length > 1 && p.vertices[0]!.lineID === p.vertices[p.vertices.length - 1]!.lineID;
}

/** Stacks of the rows in `rows` (half-open ranges of `layout`'s rows), rows without a state at t left out. */
export async function stateAt(
  source: WindowSource,
  layout: RowLayout,
  t: number,
  rows: readonly (readonly [number, number])[],
  signal?: AbortSignal,
): Promise<RowStack[]> {
  const inRows = (r: number): boolean => rows.some(([a, b]) => r >= a && r < b);
  const byRow = new Map<number, StateAtT[]>();
  const add = (p: Primitive): void => {
    if (!(p.earliest <= t && t <= p.latest) || !isState(p, source.categories)) return;
    const row = layout.rowOfLine.get(p.vertices[0]!.lineID);
    if (row === undefined || !inRows(row)) return;
    let list = byRow.get(row);
    if (list === undefined) byRow.set(row, (list = []));
    list.push({ category: p.category, start: p.earliest, end: p.latest });
  };
  for await (const slice of source.query(t, t, { lowestDepth: 0, ...(signal ? { signal } : {}) })) {
    for (const d of slice.drawables as readonly Drawable[]) {
      if (d.kind === 'composite') d.primitives.forEach(add);
      else add(d);
    }
  }
  return [...byRow.entries()].sort((x, y) => x[0] - y[0]).map(([row, states]) => ({ row, states: states.sort((a, b) => a.start - b.start || b.end - a.end) }));
}
