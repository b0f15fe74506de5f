/** A larger copy of a typed array (capacity doubled, from at least 16, until it holds `need`). */
export function grown<T extends Uint8Array | Uint32Array | Int32Array | Float64Array>(a: T, need: number): T {
  let n = Math.max(a.length * 2, 16);
  while (n < need) n *= 2;
  const next = new (a.constructor as new (n: number) => T)(n);
  next.set(a as never);
  return next;
}
