/**
 * A child shadow buffer's shadows in the order the file lists them (§7.4): nestless ones, then
 * nestable ones, each in drawing order (compareShadows: earliest ↑, latest ↓, category, first and
 * last lineID), ties in insertion order — the built-in sort's result, which is stable. The keys
 * go to columns and the drawing-order index sort of node drawables orders them (buckets by
 * earliest time, insertion inside): a wide trace writes a few thousand shadows per buffer, and
 * sorting the records was a fifth of its writer's time. Single-threaded scratch, as the writer.
 */
import { drawingOrderOf, type OrderKeys } from './drawingOrder';
import { compareShadowRows, previewCategory, STATE, type NodeShadows } from './shadows';

/** The ordered shadows (rows of the buffer): list[0..nestless) nestless, list[nestless..count) nestable; valid until the next call. */
export interface OrderedShadows {
  readonly list: Uint32Array;
  readonly nestless: number;
  readonly count: number;
}

let list = new Uint32Array(1024);
let sorted = new Uint32Array(1024);
let keys = orderKeys(1024);
let identity = identityOf(1024);

export function orderedShadows(b: NodeShadows): OrderedShadows {
  const t = b.rows;
  const count = t.count;
  let finite = true;
  let nestable = 0;
  for (let r = 0; r < count; r++) {
    if (t.topology[r] === STATE) nestable++;
    const e = t.earliest[r]!;
    const l = t.latest[r]!;
    if (!(e === e && l === l)) finite = false;
  }
  const nestless = count - nestable;
  if (list.length < count) {
    list = new Uint32Array(Math.max(count, list.length * 2));
    sorted = new Uint32Array(list.length);
  }
  let a = 0;
  let z = nestless;
  for (let r = 0; r < count; r++) list[t.topology[r] === STATE ? z++ : a++] = r;
  sortPart(b, 0, nestless, finite);
  sortPart(b, nestless, count, finite);
  return { list, nestless, count };
}

/** Sorts list[from..to); with a NaN bound, the built-in sort (its order is then its own). */
function sortPart(b: NodeShadows, from: number, to: number, finite: boolean): void {
  const n = to - from;
  if (n < 2) return;
  if (!finite) {
    const part = Array.from(list.subarray(from, to));
    part.sort((i, j) => compareShadowRows(b, i, j));
    list.set(part, from);
    return;
  }
  if (keys.earliest.length < n) {
    let cap = keys.earliest.length;
    while (cap < n) cap *= 2;
    keys = orderKeys(cap);
    identity = identityOf(cap);
  }
  const { earliest, latest, category, startLine, finalLine } = keys;
  const t = b.rows;
  for (let i = 0; i < n; i++) {
    const r = list[from + i]!;
    earliest[i] = t.earliest[r]!;
    latest[i] = t.latest[r]!;
    category[i] = previewCategory(t.topology[r]!);
    startLine[i] = t.firstLine(r);
    finalLine[i] = t.lastLine(r);
  }
  const order = drawingOrderOf(keys, identity, n);
  for (let i = 0; i < n; i++) sorted[i] = list[from + order[i]!]!;
  list.set(sorted.subarray(0, n), from);
}

function orderKeys(n: number): OrderKeys {
  return {
    earliest: new Float64Array(n),
    latest: new Float64Array(n),
    category: new Int32Array(n),
    startLine: new Int32Array(n),
    finalLine: new Int32Array(n),
  };
}

function identityOf(n: number): Uint32Array {
  const a = new Uint32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}
