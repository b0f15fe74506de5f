/**
 * A child shadow buffer's shadows in the order the file lists them (§7.4): nestless ones, then
 * nestable ones, each in drawing order (compareShadows: earliest ↑, latest ↓, category, first and
 * last lineID), ties in insertion order — the built-in sort's result, which is stable. The keys
 * go to columns and the drawing-order index sort of node drawables orders them (buckets by
 * earliest time, insertion inside): a wide trace writes a few thousand shadows per buffer, and
 * sorting the records was a fifth of its writer's time. Single-threaded scratch, as the writer.
 */
import { drawingOrderOf, type OrderKeys } from './drawingOrder';
import { compareShadows, STATE, type NodeShadows, type ShadowRecord } from './shadows';

/** The ordered shadows: list[0..nestless) nestless, list[nestless..count) nestable; valid until the next call. */
export interface OrderedShadows {
  readonly list: readonly (ShadowRecord | undefined)[];
  readonly nestless: number;
  readonly count: number;
}

const list: (ShadowRecord | undefined)[] = [];
const sorted: (ShadowRecord | undefined)[] = [];
let keys = orderKeys(1024);
let identity = identityOf(1024);

export function orderedShadows(b: NodeShadows): OrderedShadows {
  const shadows = b.shadows;
  let finite = true;
  let nestable = 0;
  for (const s of shadows) {
    if (s.topology === STATE) nestable++;
    if (!(s.earliest === s.earliest && s.latest === s.latest)) finite = false;
  }
  const nestless = shadows.length - nestable;
  if (list.length < shadows.length) list.length = shadows.length;
  let a = 0;
  let z = nestless;
  for (const s of shadows) list[s.topology === STATE ? z++ : a++] = s;
  sortPart(0, nestless, finite);
  sortPart(nestless, shadows.length, finite);
  return { list, nestless, count: shadows.length };
}

/** Drops the references orderedShadows left (written nodes' shadows are not kept alive). */
export function releaseOrderedShadows(count: number): void {
  list.fill(undefined, 0, count);
}

/** Sorts list[from..to); with a NaN bound, the built-in sort (its order is then its own). */
function sortPart(from: number, to: number, finite: boolean): void {
  const n = to - from;
  if (n < 2) return;
  if (!finite) {
    const part: ShadowRecord[] = [];
    for (let i = from; i < to; i++) part.push(list[i]!);
    part.sort(compareShadows);
    for (let i = 0; i < n; i++) list[from + i] = part[i];
    return;
  }
  if (keys.earliest.length < n) {
    let cap = keys.earliest.length;
    while (cap < n) cap *= 2;
    keys = orderKeys(cap);
    identity = identityOf(cap);
  }
  const { earliest, latest, category, startLine, finalLine } = keys;
  for (let i = 0; i < n; i++) {
    const s = list[from + i]!;
    earliest[i] = s.earliest;
    latest[i] = s.latest;
    category[i] = s.category;
    const lines = s.lineIDs;
    startLine[i] = lines[0]!;
    finalLine[i] = lines[lines.length - 1]!;
  }
  const order = drawingOrderOf(keys, identity, n);
  if (sorted.length < n) sorted.length = n;
  for (let i = 0; i < n; i++) sorted[i] = list[from + order[i]!];
  for (let i = 0; i < n; i++) list[from + i] = sorted[i];
  sorted.fill(undefined, 0, n);
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
