/** `--rows 0-39,64`: row numbers and inclusive ranges, as half-open [start, end) ranges, sorted and merged. */
import { UsageError } from './args';

export function parseRowSpec(spec: string): [number, number][] {
  const out: [number, number][] = [];
  for (const part of spec.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) throw new UsageError(`--rows needs rows like 0-39,64, got ${JSON.stringify(spec)}`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a) throw new UsageError(`--rows: range ${part.trim()} ends before it starts`);
    out.push([a, b + 1]);
  }
  out.sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const r of out) {
    const last = merged[merged.length - 1];
    if (last !== undefined && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}
