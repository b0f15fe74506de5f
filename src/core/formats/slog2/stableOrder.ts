/**
 * Indices 0…n−1 ordered by `keys` ascending, ties in index order (a stable sort), by merging the
 * ascending runs the keys already have. A node's two drawable lists are each in time order, so
 * this is usually one linear merge; the generic sort with a closure comparator over a JS array was
 * a tenth of a whole-file decoding pass.
 */
export function stableOrder(keys: Float64Array, n: number, into?: Int32Array): Int32Array<ArrayBufferLike> {
  // Run boundaries: where a key is less than the one before it.
  let bounds = [0];
  for (let i = 1; i < n; i++) if (keys[i]! < keys[i - 1]!) bounds.push(i);
  // Into the caller's array when given (a node's arena, a reused scratch): a new one per node or
  // leaf was an external allocation each, and V8 answers those with full collections.
  const out = into === undefined ? new Int32Array(n) : into.subarray(0, n);
  if (bounds.length <= 2) {
    if (bounds.length === 1) for (let i = 0; i < n; i++) out[i] = i;
    else {
      // Two runs (a node's two lists): one merge of index ranges, into the result.
      const mid = bounds[1]!;
      let i = 0;
      let j = mid;
      let k = 0;
      while (i < mid && j < n) out[k++] = keys[j]! < keys[i]! ? j++ : i++;
      while (i < mid) out[k++] = i++;
      while (j < n) out[k++] = j++;
    }
    return out;
  }
  bounds.push(n);
  let from: Int32Array<ArrayBufferLike> = out;
  for (let i = 0; i < n; i++) from[i] = i;
  let to: Int32Array<ArrayBufferLike> = new Int32Array(n);
  while (bounds.length > 2) {
    const merged = [0];
    for (let r = 0; r + 1 < bounds.length; r += 2) {
      const lo = bounds[r]!;
      const mid = bounds[r + 1]!;
      const hi = r + 2 < bounds.length ? bounds[r + 2]! : mid;
      let i = lo;
      let j = mid;
      let k = lo;
      // Equal keys take the left run first: it holds the smaller indices.
      while (i < mid && j < hi) to[k++] = keys[from[j]!]! < keys[from[i]!]! ? from[j++]! : from[i++]!;
      while (i < mid) to[k++] = from[i++]!;
      while (j < hi) to[k++] = from[j++]!;
      merged.push(hi);
    }
    [from, to] = [to, from];
    bounds = merged;
  }
  if (from !== out) out.set(from);
  return out;
}
