/**
 * Shadow (preview) accumulation exactly as SLOG2.md §12 describes the reference writer: one
 * shadow per (topology, vertex lineIDs) in each open node's subtree, mean vertex times, union
 * bounds, member counts and per-category weights whose ratios are Java floats (every float
 * operation is rounded with Math.fround, in the reference's order, so the bytes match).
 * A buffer's shadows are rows of typed columns (shadowColumns.ts), not objects; their §12.2
 * weights are worked out in shadowWeights.ts.
 */
import { WEIGHT_STRIDE, W_CATEGORY, W_COUNT, W_EXCL, W_INCL, shadowEntryBytes } from './shadowColumns';
import { MemberColumns, memberPool } from './shadowMembers';
import { exclusiveWeights, inclusiveWeights } from './shadowWeights';
import type { ShadowSpill } from './shadowSpill';
import { ShadowStore } from './shadowStore';
import { STATE, previewCategory, shadowKey, type PrimitiveColumns } from './shadowKey';

export { WEIGHT_STRIDE, W_CATEGORY, W_COUNT, W_EXCL, W_INCL } from './shadowColumns';
export { ARROW, EVENT, STATE, previewCategory, shadowKey, topologyNumber, type PrimitiveColumns } from './shadowKey';

const f32 = Math.fround;

/** One shadow as plain values (for tests and inspection; the writer reads the columns). */
export interface ShadowView {
  readonly topology: number;
  readonly category: number;
  readonly key: number | string;
  readonly times: number[];
  readonly lineIDs: number[];
  readonly earliest: number;
  readonly latest: number;
  readonly numRealObjs: number;
  /** WEIGHT_STRIDE numbers per weight, insertion order; undefined before they are set. */
  readonly weights: number[] | undefined;
}

/** Java's CategoryWeight.INCL_RATIO_ORDER on two weights' inclusive ratios (NaN compares as "greater"). */
export function compareInclRatio(a: number, b: number): number {
  const d = f32(a - b);
  return d < 0 ? -1 : d === 0 ? 0 : 1;
}

/** Member (or cover) columns from the pool, emptied. */
function takeColumns(): MemberColumns {
  const c = memberPool.pop() ?? new MemberColumns();
  c.count = 0;
  return c;
}
// The writer's batch loop (addBatchFrom, which inlines add() and this) is optimised while the pool
// still has columns to give, so `new MemberColumns()` first ran in optimised code without type
// feedback and V8 threw that code away and compiled it again (OSR and whole: 4 compilations instead
// of 2 per conversion). Made here, past the calls after which V8 gives this function its feedback
// (4 sufficed on Node 20; 8 for margin), the site has feedback from the start. The columns are dropped.
for (let i = 0; i < 8; i++) takeColumns();

/** A node's own shadow buffer (§7.4 ShadowBuffer once written into the parent), its rows kept by ShadowStore. */
export class NodeShadows extends ShadowStore {
  earliest = Infinity;
  latest = -Infinity;
  depth = 0;
  xpos = 0;
  fptr = 0;
  size = 0;
  /** Own members, from the first add() until finalizeWeights(). */
  private members: MemberColumns | undefined;
  /** Bounds of child shadows merged into own state shadows (per shadow, in merge order; category unused), until finalizeWeights(). */
  private covers: MemberColumns | undefined;

  /**
   * Moves the finished rows to `store` and gives their columns back to the pool: the buffer waits
   * for its parent (shadowSpill.ts). False (nothing done) before finalizeWeights(), for no rows or
   * rows that cannot be spilled.
   */
  spill(store: ShadowSpill): boolean {
    if (!this.inMemory || this.members !== undefined || this.covers !== undefined) return false;
    return this.spillRows(store, this.byteSize());
  }

  /** Adds real primitive p of `cols` to the shadow of its key. */
  add(cols: PrimitiveColumns, p: number): void {
    const key = shadowKey(cols, p);
    let r = this.find(key);
    if (r < 0) r = this.newShadow(key, cols, p);
    else this.addPrimitive(r, cols, p);
    const members = (this.members ??= takeColumns());
    members.push(r, cols.primEarliest[p]!, cols.primLatest[p]!, cols.primCategory[p]!);
  }

  /** A new shadow of one real primitive (primitive p of `cols`); the caller records the member. */
  private newShadow(key: number | string, cols: PrimitiveColumns, p: number): number {
    const t = this.rows;
    const r = t.addRow();
    const topology = cols.primTopology[p]!;
    const v0 = cols.vertexStart[p]!;
    const n = cols.vertexStart[p + 1]! - v0;
    this.setKey(r, key);
    t.topology[r] = topology;
    t.earliest[r] = cols.primEarliest[p]!;
    t.latest[r] = cols.primLatest[p]!;
    t.numRealObjs[r] = 1;
    t.vertices[r] = n;
    const vt = cols.vertexTime;
    const vl = cols.vertexLine;
    if (n > 2) {
      (t.wide ??= new Map()).set(r, { times: Array.from(vt.subarray(v0, v0 + n)), lines: Array.from(vl.subarray(v0, v0 + n)) });
    } else {
      t.time0[r] = vt[v0]!;
      t.line0[r] = vl[v0]!;
      t.time1[r] = n === 2 ? vt[v0 + 1]! : 0;
      t.line1[r] = n === 2 ? vl[v0 + 1]! : 0;
    }
    t.weightCount[r] = 0;
    t.weightRoom[r] = 0;
    t.hasWeights[r] = 0;
    t.memberCount[r] = 1;
    t.collectsChildren[r] = topology === STATE ? 1 : 0;
    this.index(key, r);
    return r;
  }

  /** Adds real primitive p of `cols` (same key) to row r: mean vertex times, union bounds; the caller records the member. */
  private addPrimitive(r: number, cols: PrimitiveColumns, p: number): void {
    const t = this.rows;
    const n = t.numRealObjs[r]!;
    const v0 = cols.vertexStart[p]!;
    const vt = cols.vertexTime;
    const nv = t.vertices[r]!;
    if (nv > 2) {
      const times = t.wide!.get(r)!.times;
      for (let i = 0; i < nv; i++) times[i] = (times[i]! * n + vt[v0 + i]!) / (n + 1);
    } else {
      t.time0[r] = (t.time0[r]! * n + vt[v0]!) / (n + 1);
      if (nv === 2) t.time1[r] = (t.time1[r]! * n + vt[v0 + 1]!) / (n + 1);
    }
    const e = cols.primEarliest[p]!;
    const l = cols.primLatest[p]!;
    // stored either way: a store only for an earlier start (rare, drawables come by end time) was
    // met with no feedback by the optimised code, which was thrown away for it
    const e0 = t.earliest[r]!;
    const l0 = t.latest[r]!;
    t.earliest[r] = e < e0 ? e : e0;
    t.latest[r] = l > l0 ? l : l0;
    t.numRealObjs[r] = n + 1;
    t.memberCount[r]!++;
  }

  /** §12.2 first half, once the bounds are final (shadowWeights.ts). */
  initializeWeights(): void {
    if (this.members !== undefined) inclusiveWeights(this.rows, this.members);
  }

  /**
   * Merges a finished child buffer's shadows into this one (the child's rows are copied: it may be
   * released afterwards). New keys get a row, known ones the §12.1 merge.
   */
  mergeChild(child: NodeShadows): void {
    const c = child.rows;
    for (let j = 0; j < c.count; j++) {
      const key = child.keyOf(j);
      const r = this.find(key);
      if (r < 0) this.copyRow(child, j, key);
      else {
        this.mergeShadow(r, child, j);
        if (this.rows.collectsChildren[r] === 1) {
          const covers = (this.covers ??= takeColumns());
          covers.push(r, c.earliest[j]!, c.latest[j]!, 0);
        }
      }
    }
    if (child.earliest < this.earliest) this.earliest = child.earliest;
    if (child.latest > this.latest) this.latest = child.latest;
  }

  /** A copy of finished row j of `child` (weights copied, no members). */
  private copyRow(child: NodeShadows, j: number, key: number | string): void {
    const c = child.rows;
    const t = this.rows;
    const r = t.addRow();
    this.setKey(r, key);
    t.topology[r] = c.topology[j]!;
    t.earliest[r] = c.earliest[j]!;
    t.latest[r] = c.latest[j]!;
    t.numRealObjs[r] = c.numRealObjs[j]!;
    const nv = (t.vertices[r] = c.vertices[j]!);
    if (nv > 2) {
      const w = c.wide!.get(j)!;
      (t.wide ??= new Map()).set(r, { times: w.times.slice(), lines: w.lines });
    } else {
      t.time0[r] = c.time0[j]!;
      t.time1[r] = c.time1[j]!;
      t.line0[r] = c.line0[j]!;
      t.line1[r] = c.line1[j]!;
    }
    const n = c.weightCount[j]!;
    const room = Math.max(2, n);
    // No room yet: a packing of the arena while reserving skips this row.
    t.weightRoom[r] = 0;
    const at = t.reserveWeights(room);
    // A loop, not set(subarray()): a row has a handful of weights, and the view a subarray makes
    // per row cost more than the copy (~0.1 s of a 2048-rank conversion's merges).
    const from = c.weightStart[j]!;
    const src = c.arenaBits;
    const dst = t.arenaBits;
    for (let k = 0; k < n * WEIGHT_STRIDE; k++) dst[at + k] = src[from + k]!;
    t.weightStart[r] = at;
    t.weightCount[r] = n;
    t.weightRoom[r] = room;
    t.hasWeights[r] = c.hasWeights[j]!;
    t.memberCount[r] = 0;
    t.collectsChildren[r] = 0;
    this.index(key, r);
  }

  /** §12.1 merge of row j of a child (same key) into row r. */
  private mergeShadow(r: number, child: NodeShadows, j: number): void {
    const t = this.rows;
    const c = child.rows;
    const oldDuration = t.latest[r]! - t.earliest[r]!;
    const n = t.numRealObjs[r]!;
    const m = c.numRealObjs[j]!;
    const nv = t.vertices[r]!;
    if (nv > 2) {
      const times = t.wide!.get(r)!.times;
      const ct = c.wide!.get(j)!.times;
      for (let i = 0; i < nv; i++) times[i] = (times[i]! * n + ct[i]! * m) / (n + m);
    } else {
      t.time0[r] = (t.time0[r]! * n + c.time0[j]! * m) / (n + m);
      if (nv === 2) t.time1[r] = (t.time1[r]! * n + c.time1[j]! * m) / (n + m);
    }
    const ce = c.earliest[j]!;
    const cl = c.latest[j]!;
    if (ce < t.earliest[r]!) t.earliest[r] = ce;
    if (cl > t.latest[r]!) t.latest[r] = cl;
    const newDuration = t.latest[r]! - t.earliest[r]!;
    t.numRealObjs[r] = n + m;
    if (oldDuration !== newDuration) {
      const ratio = f32(oldDuration / newDuration);
      const a = t.arena;
      const to = t.weightStart[r]! + t.weightCount[r]! * WEIGHT_STRIDE;
      for (let i = t.weightStart[r]!; i < to; i += WEIGHT_STRIDE) {
        a[i + W_INCL] = f32(a[i + W_INCL]! * ratio);
        a[i + W_EXCL] = f32(a[i + W_EXCL]! * ratio);
      }
    }
    const ratio = f32((cl - ce) / newDuration);
    const ca = c.arena;
    const cbits = c.arenaBits;
    const cto = c.weightStart[j]! + c.weightCount[j]! * WEIGHT_STRIDE;
    for (let k = c.weightStart[j]!; k < cto; k += WEIGHT_STRIDE) {
      const category = cbits[k + W_CATEGORY]! | 0;
      const at = t.weightSlot(r, category);
      if (at < 0) t.appendWeight(r, category, f32(ca[k + W_INCL]! * ratio), f32(ca[k + W_EXCL]! * ratio), cbits[k + W_COUNT]!);
      else {
        const a = t.arena;
        t.arenaBits[at + W_COUNT] += cbits[k + W_COUNT]!;
        a[at + W_INCL] = f32(a[at + W_INCL]! + f32(ca[k + W_INCL]! * ratio));
        a[at + W_EXCL] = f32(a[at + W_EXCL]! + f32(ca[k + W_EXCL]! * ratio));
      }
    }
  }

  /** §12.2 second half: exclusive ratios of own state members (shadowWeights.ts); members and covers released. */
  finalizeWeights(): void {
    const t = this.rows;
    if (this.members !== undefined) {
      exclusiveWeights(t, this.members, this.covers);
      memberPool.push(this.members);
      this.members = undefined;
    }
    if (this.covers !== undefined) {
      memberPool.push(this.covers);
      this.covers = undefined;
    }
    t.memberCount.fill(0, 0, t.count);
    t.collectsChildren.fill(0, 0, t.count);
  }

  byteSize(): number {
    const spilled = this.spilledByteSize;
    if (spilled !== undefined) return spilled;
    const t = this.rows;
    let n = 42;
    for (let r = 0; r < t.count; r++) n += shadowEntryBytes(t.vertices[r]!, t.hasWeights[r] === 1 ? t.weightCount[r]! : this.distinctMemberCategories(r));
    return n;
  }

  /** Weights an unfinalized shadow will have: one per distinct category among its members. */
  private distinctMemberCategories(r: number): number {
    const seen = new Set<number>();
    const m = this.members;
    if (m) for (let k = 0; k < m.count; k++) if (m.shadow[k] === r) seen.add(m.category[k]!);
    return seen.size;
  }

  /** Row r as plain values. */
  view(r: number): ShadowView {
    const t = this.rows;
    const nv = t.vertices[r]!;
    const wide = nv > 2 ? t.wide!.get(r)! : undefined;
    return {
      topology: t.topology[r]!,
      category: previewCategory(t.topology[r]!),
      key: this.keyOf(r),
      times: wide ? wide.times.slice() : nv === 2 ? [t.time0[r]!, t.time1[r]!] : [t.time0[r]!],
      lineIDs: wide ? [...wide.lines] : nv === 2 ? [t.line0[r]!, t.line1[r]!] : [t.line0[r]!],
      earliest: t.earliest[r]!,
      latest: t.latest[r]!,
      numRealObjs: t.numRealObjs[r]!,
      weights: t.hasWeights[r] === 1 ? t.weightValues(r) : undefined,
    };
  }

  /** A finished shadow with these values and no weights (tests of the order). */
  push(topology: number, key: number | string, times: readonly number[], lines: readonly number[], earliest: number, latest: number): number {
    const t = this.rows;
    const r = t.addRow();
    this.setKey(r, key);
    t.topology[r] = topology;
    t.earliest[r] = earliest;
    t.latest[r] = latest;
    t.numRealObjs[r] = 1;
    const nv = (t.vertices[r] = times.length);
    if (nv > 2) (t.wide ??= new Map()).set(r, { times: [...times], lines: [...lines] });
    else {
      t.time0[r] = times[0]!;
      t.line0[r] = lines[0]!;
      t.time1[r] = nv === 2 ? times[1]! : 0;
      t.line1[r] = nv === 2 ? lines[1]! : 0;
    }
    t.weightCount[r] = 0;
    t.weightRoom[r] = 0;
    t.hasWeights[r] = 1;
    t.memberCount[r] = 0;
    t.collectsChildren[r] = 0;
    this.index(key, r);
    return r;
  }
}

/** Drawing order of rows i and j of `b` (§8: earliest ↑, latest ↓, category ↑, first then last lineID ↑). */
export function compareShadowRows(b: NodeShadows, i: number, j: number): number {
  const t = b.rows;
  const ei = t.earliest[i]!;
  const ej = t.earliest[j]!;
  if (ei !== ej) return ei < ej ? -1 : 1;
  const li = t.latest[i]!;
  const lj = t.latest[j]!;
  if (li !== lj) return li > lj ? -1 : 1;
  const c = previewCategory(t.topology[i]!) - previewCategory(t.topology[j]!);
  if (c !== 0) return c;
  const s = b.rows.firstLine(i) - b.rows.firstLine(j);
  if (s !== 0) return s;
  return b.rows.lastLine(i) - b.rows.lastLine(j);
}
