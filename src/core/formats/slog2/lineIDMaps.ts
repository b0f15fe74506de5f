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
    // checkCount has made sure all rows are there: read straight, not a reader call per value
    // (most of the maps' parse in a fresh process)
    const rowBytes = 4 + 4 * ncols;
    const view = new DataView(r.bytes.buffer, r.bytes.byteOffset + r.pos, nrows * rowBytes);
    const rows: LineIDMapRow[] = [];
    for (let k = 0, p = 0; k < nrows; k++, p += rowBytes)
      rows.push({ lineID: view.getInt32(p, r.littleEndian), path: readPath(view, p + 4, ncols, r.littleEndian) });
    r.pos += nrows * rowBytes;
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
function readPath(view: DataView, at: number, ncols: number, le: boolean): number[] {
  if (ncols === 1) return [view.getInt32(at, le)];
  if (ncols === 2) return [view.getInt32(at, le), view.getInt32(at + 4, le)];
  const path = new Array<number>(ncols);
  for (let c = 0; c < ncols; c++) path[c] = view.getInt32(at + 4 * c, le);
  return path;
}
