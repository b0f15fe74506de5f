/**
 * A window payload as plain data for equality checks between window sources (plain query, row
 * index, scanned bytes, worker): every column as numbers, the header without its timing fields.
 */
import type { WindowColumns } from '../../src/protocol/wire';

export function comparable(w: WindowColumns): unknown {
  const { nodesRead: _n, buildMs: _b, ...header } = w.header;
  const cols = (t: object): Record<string, number[]> => Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Array.from(v as ArrayLike<number>)]));
  return { header, states: cols(w.states), shadows: cols(w.shadows), shadowWeights: cols(w.shadowWeights), arrows: cols(w.arrows), events: cols(w.events) };
}
