/**
 * The runs of a payload's state table by depth and row: buildWindow orders states by depth, then
 * row, so a frame can visit the states of the shown rows only (in the viewport bench half of a
 * dense payload's states lie on rows scrolled out of view). Computed where the payload is encoded
 * and shipped with it, as the chunk bounds are: no pass over every state in the webview.
 */

export interface StateRuns {
  /** Runs, in table order: run r is the states [from[r], to[r]) of one depth and row. */
  readonly count: number;
  readonly depth: Int32Array;
  readonly row: Int32Array;
  readonly from: Int32Array;
  readonly to: Int32Array;
  /**
   * Whether in every run both start and end times never decrease (the states of one depth and row
   * follow one another): a frame then finds a run's states in a time range by binary search
   * (timeChunks.ts spansInRun) instead of scanning its chunks of TIME_CHUNK states. False when not known.
   */
  readonly timeOrdered: boolean;
}

const sameRun = (depth: ArrayLike<number>, row: ArrayLike<number>, i: number): boolean => depth[i] === depth[i - 1] && row[i] === row[i - 1];

/**
 * The runs of equal (depth, row), or undefined when (depth, row) ever decreases; given the start and
 * end times, whether each run is in time order (timeOrdered).
 */
export function stateRunsOf(depth: ArrayLike<number>, row: ArrayLike<number>, start?: ArrayLike<number>, end?: ArrayLike<number>): StateRuns | undefined {
  const n = depth.length;
  let count = n > 0 ? 1 : 0;
  for (let i = 1; i < n; i++) {
    if (sameRun(depth, row, i)) continue;
    if (depth[i]! < depth[i - 1]! || (depth[i] === depth[i - 1] && row[i]! < row[i - 1]!)) return undefined;
    count++;
  }
  const timeOrdered = start !== undefined && end !== undefined && inTimeOrder(depth, row, start, end);
  const runs = { count, depth: new Int32Array(count), row: new Int32Array(count), from: new Int32Array(count), to: new Int32Array(count), timeOrdered };
  let r = -1;
  for (let i = 0; i < n; i++) {
    if (i === 0 || !sameRun(depth, row, i)) {
      r++;
      runs.depth[r] = depth[i]!;
      runs.row[r] = row[i]!;
      runs.from[r] = i;
    }
    runs.to[r] = i + 1;
  }
  return runs;
}

/** Whether within each run of equal (depth, row) start and end never decrease (a NaN time: no). */
function inTimeOrder(depth: ArrayLike<number>, row: ArrayLike<number>, start: ArrayLike<number>, end: ArrayLike<number>): boolean {
  const n = depth.length;
  if (start.length !== n || end.length !== n) return false;
  for (let i = 1; i < n; i++) if (sameRun(depth, row, i) && !(start[i]! >= start[i - 1]! && end[i]! >= end[i - 1]!)) return false;
  return true;
}

/** Wire form: (depth, row, from) per run, then the table's count and timeOrdered (1 or 0), as int32. */
export function packStateRuns(runs: StateRuns, states: number): ArrayBuffer {
  const out = new Int32Array(3 * runs.count + 2);
  for (let r = 0; r < runs.count; r++) {
    out[3 * r] = runs.depth[r]!;
    out[3 * r + 1] = runs.row[r]!;
    out[3 * r + 2] = runs.from[r]!;
  }
  out[3 * runs.count] = states;
  out[3 * runs.count + 1] = runs.timeOrdered ? 1 : 0;
  return out.buffer;
}

/**
 * Unpacks received runs of a table of `states` states; throws unless they tile [0, states) in
 * strictly increasing (depth, row) order.
 */
export function unpackStateRuns(buf: unknown, states: number): StateRuns {
  if (!(buf instanceof ArrayBuffer) || buf.byteLength % 4 !== 0) throw new Error('chunks.stateRuns: missing or misaligned buffer');
  const a = new Int32Array(buf);
  if (a.length % 3 !== 2) throw new Error(`chunks.stateRuns: ${a.length} values, expected 3 per run + 2`);
  const count = (a.length - 2) / 3;
  if (a[3 * count] !== states || (count === 0) !== (states === 0)) throw new Error(`chunks.stateRuns: do not cover the ${states} states`);
  const ordered = a[3 * count + 1];
  if (ordered !== 0 && ordered !== 1) throw new Error(`chunks.stateRuns: time order flag ${ordered}, expected 0 or 1`);
  const runs = {
    count,
    depth: new Int32Array(count),
    row: new Int32Array(count),
    from: new Int32Array(count),
    to: new Int32Array(count),
    timeOrdered: ordered === 1,
  };
  for (let r = 0; r < count; r++) {
    const [d, row, from, next] = [a[3 * r]!, a[3 * r + 1]!, a[3 * r + 2]!, a[3 * r + 5] ?? states];
    const later = r === 0 || d > runs.depth[r - 1]! || (d === runs.depth[r - 1] && row > runs.row[r - 1]!);
    if (d < 0 || row < 0 || !later || from !== (r === 0 ? 0 : runs.to[r - 1]) || !(next > from)) throw new Error(`chunks.stateRuns: run ${r} out of order`);
    runs.depth[r] = d;
    runs.row[r] = row;
    runs.from[r] = from;
    runs.to[r] = next;
  }
  return runs;
}
