/**
 * The category weights of a node's own shadows (SLOG2.md §12.2), once the shadows' bounds are
 * final: inclusive ratios and counts from the members, then exclusive ratios of the state
 * shadows' members (time not covered by nested members or merged child shadows). Java float
 * accumulation in the reference's order (every operation rounded with Math.fround), so the
 * bytes match. The rows are NodeShadows' columns (shadows.ts). The per-member terms come from a
 * WebAssembly kernel where it can take the node (shadowWeightsKernel.ts), else from the JS below.
 */
import { WEIGHT_STRIDE, W_COUNT, W_EXCL, W_INCL, type ShadowColumns } from './shadowColumns';
import { coverGroups, exclusiveDurations, groupByShadow, memberGroups, type Grouped, type MemberColumns } from './shadowMembers';
import { ShadowWeightsKernel } from './shadowWeightsKernel';

const f32 = Math.fround;

/** The kernel (created at first use), undefined where there is none or it is switched off. */
let kernel: ShadowWeightsKernel | undefined | null = null;

function weightsKernel(): ShadowWeightsKernel | undefined {
  if (kernel === null) kernel = ShadowWeightsKernel.create();
  return kernel;
}

/** Whether the kernel is used (the tests compare both paths); on by default. */
export function useWeightsKernel(on: boolean): void {
  kernel = on ? null : undefined;
}

/**
 * The weight index (in its shadow) of each category below SLOT_LIMIT, for the shadow whose members
 * are being summed: valid where slotStamp equals `stamp`, which moves on with each shadow (so
 * nothing is left behind, an exception included). A member of another shadow or category than the
 * one before it is the rule (16 ranks: all but 2 of 3.3 M members), and finding its weight by a scan
 * of the shadow's weights cost more than the sum itself.
 */
const SLOT_LIMIT = 1 << 16;
let slotIndex = new Int32Array(256);
let slotStamp = new Uint32Array(256);
let stamp = 1;

/** Starts a shadow: no category has a cached weight index. */
function nextShadow(): void {
  if (++stamp === 0xffffffff) {
    slotStamp.fill(0);
    stamp = 1;
  }
}

/** The weight of category c in row r (its arena offset): appended if it has none and `append`, else −1. */
function weightOf(t: ShadowColumns, r: number, c: number, append: boolean): number {
  if (c >= 0 && c < slotStamp.length && slotStamp[c] === stamp) return t.weightStart[r]! + slotIndex[c]! * WEIGHT_STRIDE;
  let at = t.weightSlot(r, c);
  if (at < 0) {
    if (!append) return -1;
    at = t.appendWeight(r, c, 0, 0, 0);
  }
  if (c >= 0 && c < SLOT_LIMIT) {
    if (c >= slotStamp.length) {
      const n = Math.min(SLOT_LIMIT, Math.max(c + 1, slotStamp.length * 2));
      const index = new Int32Array(n);
      index.set(slotIndex);
      slotIndex = index;
      const stamps = new Uint32Array(n);
      stamps.set(slotStamp);
      slotStamp = stamps;
    }
    slotIndex[c] = (at - t.weightStart[r]!) / WEIGHT_STRIDE;
    slotStamp[c] = stamp;
  }
  return at;
}

/**
 * §12.2 first half: each own shadow's inclusive ratios and counts per category, its members
 * summed in insertion order (grouped by shadow, which keeps the order within each: every sum,
 * and the order a shadow's weights are made in, as in one pass over all members).
 */
export function inclusiveWeights(t: ShadowColumns, members: MemberColumns): void {
  if (weightsKernel()?.inclusive(t, members) === true) {
    // a grouping inclusiveWeights left for exclusiveWeights is not this node's now
    memberGroups.source = undefined;
    return;
  }
  const g = groupByShadow(members, t.count, memberGroups);
  const { earliest, latest, category, starts } = g;
  for (let r = 0; r < t.count; r++) {
    const from = starts[r]!;
    const to = starts[r + 1]!;
    if (from === to) continue;
    if (t.hasWeights[r] === 0) {
      t.hasWeights[r] = 1;
      t.weightCount[r] = 0;
      t.weightRoom[r] = 0;
    }
    const duration = t.latest[r]! - t.earliest[r]!;
    nextShadow();
    for (let k = from; k < to; k++) {
      const at = weightOf(t, r, category[k]!, true);
      // read after weightOf: appending a weight may move the arena
      const a = t.arena;
      a[at + W_INCL] = f32(a[at + W_INCL]! + f32((latest[k]! - earliest[k]!) / duration));
      t.arenaBits[at + W_COUNT]!++;
    }
  }
}

/**
 * §12.2 second half: the exclusive ratios of the state shadows that collect children, from their
 * members and the bounds of the child shadows merged into them (`covers`, if any).
 */
export function exclusiveWeights(t: ShadowColumns, members: MemberColumns, covers: MemberColumns | undefined): void {
  if (weightsKernel()?.exclusive(t, members, covers) === true) {
    memberGroups.source = undefined;
    return;
  }
  // As inclusiveWeights grouped them, unless it grouped others since. Rows merged from children
  // since then come after the grouped ones and have no own members (memberCount 0): not read.
  const g = memberGroups;
  const grouped = g.source === members && g.sourceCount === members.count && (g.sourceShadows ?? Infinity) <= t.count ? g : groupByShadow(members, t.count, g);
  // the columns go back to a pool: a later grouping of the same object must not look like this one
  g.source = undefined;
  const coverRows = covers === undefined ? coverGroups : groupByShadow(covers, t.count, coverGroups);
  for (let r = 0; r < t.count; r++) {
    if (t.hasExclusiveWeights(r)) addExclusiveWeights(t, r, grouped, coverRows, covers !== undefined);
  }
}

/** Scratch of addExclusiveWeights (single-threaded writer; consumed before the next call). */
let sumsScratch = new Float64Array(16);
let sumsTouched = new Uint8Array(16);

function weightSums(n: number): Float64Array {
  if (sumsScratch.length < n) {
    sumsScratch = new Float64Array(Math.max(n, sumsScratch.length * 2));
    sumsTouched = new Uint8Array(sumsScratch.length);
  }
  sumsScratch.fill(0, 0, n);
  sumsTouched.fill(0, 0, n);
  return sumsScratch;
}

/** Each touched sum added once to its weight's exclusive ratio. */
function addSums(t: ShadowColumns, base: number, n: number, sums: Float64Array): void {
  const a = t.arena;
  for (let i = 0; i < n; i++) {
    if (sumsTouched[i] === 0) continue;
    const e = base + i * WEIGHT_STRIDE + W_EXCL;
    a[e] = f32(a[e]! + sums[i]!);
  }
}

/**
 * Own state shadow r: the exclusive ratios of its members (its rows of `members`, in insertion
 * order), summed per category in that order, then added once; the merged child shadows' bounds
 * are its rows of `covers` (if the buffer has any).
 */
function addExclusiveWeights(t: ShadowColumns, r: number, members: Grouped, covers: Grouped, hasCovers: boolean): void {
  const { earliest, latest, category } = members;
  const from = members.starts[r]!;
  const to = members.starts[r + 1]!;
  const exclusion = exclusiveDurations(earliest, latest, category, from, to, covers, hasCovers ? covers.starts[r]! : 0, hasCovers ? covers.starts[r + 1]! : 0);
  const duration = t.latest[r]! - t.earliest[r]!;
  // Per weight (every member's category has one, from inclusiveWeights): a sum and whether a member added to it.
  const n = t.weightCount[r]!;
  const base = t.weightStart[r]!;
  const sums = weightSums(n);
  nextShadow();
  for (let k = from; k < to; k++) {
    const c = category[k]!;
    const at = weightOf(t, r, c, false);
    if (at < 0) throw new Error(`internal error: a member's category ${c} has no weight in its shadow`);
    const i = (at - base) / WEIGHT_STRIDE;
    sums[i] = f32(sums[i]! + f32(exclusion[k - from]! / duration));
    sumsTouched[i] = 1;
  }
  addSums(t, base, n, sums);
}
