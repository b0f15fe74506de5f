/**
 * One window built with its cost measured: through the row index when one is given and it serves
 * the map, else through the plain query. The figures are what `mpe-trace query --profile` prints.
 */
import type { Slog2File } from '../formats/slog2/slog2File';
import { buildWindow, type WindowSpec } from './buildWindow';
import type { RowLayout } from './rows';
import type { WindowColumns } from './windowColumns';
import { IndexedWindowSource, type RowKeyMapper } from './indexedSource';
import type { RowIndex } from '../index/rowIndex';

export interface QueryProfile {
  /** Tree nodes read (plain: parsed; index: nodes whose segments were read). */
  nodesRead: number;
  /** Bytes read from the SLOG-2 (plain) or from the index (index). */
  bytesRead: number;
  /** Drawables and shadows decoded. */
  decoded: number;
  /** Drawables and shadows in the window. */
  returned: number;
  ms: number;
}

export function returnedCount(w: WindowColumns): number {
  return w.states.start.length + w.shadows.start.length + w.arrows.start.length + w.events.time.length;
}

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

export async function profiledWindow(
  file: Slog2File,
  layout: RowLayout,
  spec: WindowSpec,
  index?: { readonly index: RowIndex; readonly mapper: RowKeyMapper },
  signal?: AbortSignal,
): Promise<{ columns: WindowColumns; profile: QueryProfile; via: 'index' | 'plain' }> {
  const started = now();
  const ranges = index?.mapper.keyRanges(layout, spec.mapIndex, spec.rowStart, spec.rowEnd);
  if (index !== undefined && ranges !== undefined) {
    const source = new IndexedWindowSource(index.index, ranges);
    const columns = await buildWindow(source, spec, signal);
    const s = source.stats;
    return {
      columns,
      via: 'index',
      profile: { nodesRead: s.nodesRead, bytesRead: s.bytesRead, decoded: s.decoded, returned: returnedCount(columns), ms: now() - started },
    };
  }
  const n0 = file.nodesRead;
  const b0 = file.nodeBytesRead;
  const d0 = file.itemsDecoded;
  const columns = await buildWindow(file, spec, signal);
  return {
    columns,
    via: 'plain',
    profile: {
      nodesRead: file.nodesRead - n0,
      bytesRead: file.nodeBytesRead - b0,
      decoded: file.itemsDecoded - d0,
      returned: returnedCount(columns),
      ms: now() - started,
    },
  };
}
