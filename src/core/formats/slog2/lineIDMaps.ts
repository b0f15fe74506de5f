/** LineIDMapList block (SLOG2.md §5): the Y-axis views, lineID → path of labels. */
import type { BinaryReader } from '../../bytes/binaryReader';
import type { LineIDMap, LineIDMapRow } from '../../model/types';

/** Smallest map: empty title, ncols, one empty label, nrows, nmethods. */
const MIN_MAP_BYTES = 2 + 4 + 2 + 4 + 2;

export function parseLineIDMapList(r: BinaryReader): LineIDMap[] {
  const nmaps = r.checkCount(r.i32('line-ID map count'), MIN_MAP_BYTES, 'line-ID map');
  const maps: LineIDMap[] = [];
  for (let i = 0; i < nmaps; i++) {
    const title = r.javaString('line-ID map title');
    const ncols = r.checkCount(r.i32('line-ID map column count'), 2, 'line-ID map column');
    if (ncols === 0) throw r.error('line-ID map has no columns (expected >= 1)', r.pos - 4);
    const columns: string[] = [];
    for (let c = 0; c < ncols; c++) columns.push(r.javaString('column label'));
    const nrows = r.checkCount(r.i32('line-ID map row count'), 4 + 4 * ncols, 'line-ID map row');
    const rows: LineIDMapRow[] = [];
    for (let k = 0; k < nrows; k++) {
      const lineID = r.i32('lineID');
      rows.push({ lineID, path: readPath(r, ncols) });
    }
    const nmethods = r.checkCount(r.i16('line-ID map method count'), 4, 'method');
    const methods: number[] = [];
    for (let m = 0; m < nmethods; m++) methods.push(r.i32('method id'));
    maps.push({ title, columns, rows, methods });
  }
  return maps;
}

/**
 * A row's path in an array of exactly its length: grown by push, each took 16 slots, and a
 * 100 000-rank trace's three maps held 64 MB of them at open (most of its heap and collector work).
 */
function readPath(r: BinaryReader, ncols: number): number[] {
  const what = 'line-ID map path value';
  if (ncols === 1) return [r.i32(what)];
  if (ncols === 2) {
    const first = r.i32(what);
    return [first, r.i32(what)];
  }
  const path = new Array<number>(ncols);
  for (let c = 0; c < ncols; c++) path[c] = r.i32(what);
  return path;
}
