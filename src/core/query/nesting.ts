/**
 * Nesting depth of states per row, as Jumpshot computes it (SLOG2.md §13): walk the states (real
 * ones and state shadows together) in drawing order — earliest ascending, latest descending, so an
 * enclosing state comes before the states it contains — keeping one stack per row; pop until the
 * top covers the current state; the depth is the number of enclosing states left on the stack.
 * A state that only partly overlaps its predecessor is not nested in it (depth of the covering
 * ancestor + 1, or 0), so the drawing stays readable for badly nested input.
 */

/** Depth per item (same indexing as the inputs), plus the greatest depth found. */
export function nestingDepths(
  earliest: ArrayLike<number>,
  latest: ArrayLike<number>,
  row: ArrayLike<number>,
): { readonly depth: Uint32Array; readonly maxDepth: number } {
  const n = earliest.length;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => earliest[a]! - earliest[b]! || latest[b]! - latest[a]! || a - b);
  const stacks = new Map<number, number[]>();
  const depth = new Uint32Array(n);
  let maxDepth = 0;
  for (let k = 0; k < n; k++) {
    const i = order[k]!;
    let stack = stacks.get(row[i]!);
    if (stack === undefined) {
      stack = [];
      stacks.set(row[i]!, stack);
    }
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (earliest[top]! <= earliest[i]! && latest[i]! <= latest[top]!) break;
      stack.pop();
    }
    depth[i] = stack.length;
    if (stack.length > maxDepth) maxDepth = stack.length;
    stack.push(i);
  }
  return { depth, maxDepth };
}
