/**
 * The category weights of a node's own shadows (SLOG2.md §12.2), once the shadows' bounds are
 * final: inclusive ratios and counts from the members, then exclusive ratios of the state
 * shadows' members (time not covered by nested members or merged child shadows). Java float
 * accumulation in the reference's order (every operation rounded with Math.fround), so the
 * bytes match. The rows are NodeShadows' columns (shadows.ts).
 */
import { WEIGHT_STRIDE, W_CATEGORY, W_COUNT, W_EXCL, W_INCL, type ShadowColumns } from './shadowColumns';
import { coverGroups, exclusiveDurations, groupByShadow, memberGroups, type Grouped, type MemberColumns } from './shadowMembers';

const f32 = Math.fround;

/**
 * §12.2 first half: each own shadow's inclusive ratios and counts per category, its members
 * summed in insertion order. Members are visited in insertion order across shadows, which is
 * insertion order within each.
 */
export function inclusiveWeights(t: ShadowColumns, members: MemberColumns): void {
  const shadowOf = members.shadow;
  const earliest = members.earliest;
  const latest = members.latest;
  const category = members.category;
  let last = -1;
  let at = -1;
  let duration = 0;
  for (let k = 0; k < members.count; k++) {
    const r = shadowOf[k]!;
    const c = category[k]!;
    if (at < 0 || r !== last || (t.arenaBits[at + W_CATEGORY]! | 0) !== c) {
      if (t.hasWeights[r] === 0) {
        t.hasWeights[r] = 1;
        t.weightCount[r] = 0;
        t.weightRoom[r] = 0;
        at = t.appendWeight(r, c, 0, 0, 0);
      } else {
        at = t.weightSlot(r, c);
        if (at < 0) at = t.appendWeight(r, c, 0, 0, 0);
      }
      last = r;
      duration = t.latest[r]! - t.earliest[r]!;
    }
    const a = t.arena;
    a[at + W_INCL] = f32(a[at + W_INCL]! + f32((latest[k]! - earliest[k]!) / duration));
    t.arenaBits[at + W_COUNT]!++;
  }
}

/**
 * §12.2 second half: the exclusive ratios of the state shadows that collect children, from their
 * members and the bounds of the child shadows merged into them (`covers`, if any).
 */
export function exclusiveWeights(t: ShadowColumns, members: MemberColumns, covers: MemberColumns | undefined): void {
  const grouped = groupByShadow(members, t.count, memberGroups);
  const coverRows = covers === undefined ? coverGroups : groupByShadow(covers, t.count, coverGroups);
  for (let r = 0; r < t.count; r++) {
    if (t.collectsChildren[r] === 1 && t.memberCount[r] !== 0) addExclusiveWeights(t, r, grouped, coverRows, covers !== undefined);
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
  const a = t.arena;
  const sums = weightSums(n);
  let at = -1;
  for (let k = from; k < to; k++) {
    const c = category[k]!;
    if (at < 0 || (t.arenaBits[at + W_CATEGORY]! | 0) !== c) at = t.weightSlot(r, c);
    if (at < 0) throw new Error(`internal error: a member's category ${c} has no weight in its shadow`);
    const i = (at - base) / WEIGHT_STRIDE;
    sums[i] = f32(sums[i]! + f32(exclusion[k - from]! / duration));
    sumsTouched[i] = 1;
  }
  for (let i = 0; i < n; i++) {
    if (sumsTouched[i] === 0) continue;
    const e = base + i * WEIGHT_STRIDE + W_EXCL;
    a[e] = f32(a[e]! + sums[i]!);
  }
}
