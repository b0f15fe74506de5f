/**
 * A longer copy of a typed array, for the webview's reused column buffers (stateScan.ts,
 * eventMarks.ts). The webview may not import the core's bytes helpers (the layering table), so it
 * has its own.
 */
export function grown<T extends Int32Array | Uint32Array | Float64Array>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}
