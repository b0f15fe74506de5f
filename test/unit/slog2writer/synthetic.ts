// Small synthetic traces in arrival order (non-decreasing end time), with source locations.
import type { Category, LineIDMap, Primitive, SourceLocation, Topology } from '../../../src/core/model/types';
import { makePrimitive } from '../../../src/core/model/types';

export const CATEGORIES: Category[] = [
  cat(0, 'message', 'arrow', ['msg_tag=', ', msg_size=', ''], 'dd', 3),
  cat(1, 'Compute', 'state', [], '', 1),
  cat(2, 'Inner', 'state', [], '', 1),
  cat(3, 'Mark', 'event', ['value=', ''], 'd', 1),
  cat(4, 'Unused', 'state', [], '', 1),
];

function cat(index: number, name: string, topology: Topology, infoKeys: string[], infoTypes: string, width: number): Category {
  return { index, name, topology, rgba: [index * 40, 255 - index * 30, 128, 255], modifiable: true, width, infoKeys, infoTypes, methods: [] };
}

export function topologyOf(c: number): Topology | undefined {
  return CATEGORIES[c]?.topology;
}

const SITES: SourceLocation[] = [
  { file: 'src/solver.c', line: 10 },
  { file: 'src/solver.c', line: 42 },
  { file: '/home/u/very/long/path/main.c', line: 7 },
];

function i32s(...v: number[]): Uint8Array {
  const b = new Uint8Array(4 * v.length);
  const dv = new DataView(b.buffer);
  v.forEach((x, i) => dv.setInt32(4 * i, x));
  return b;
}

/** `steps` iterations on `ranks` lines: Compute state containing an Inner state, a message to the next rank, a Mark event. */
export function syntheticTrace(ranks: number, steps: number): { drawables: Primitive[]; maps: LineIDMap[] } {
  const out: Primitive[] = [];
  for (let s = 0; s < steps; s++) {
    const t = s * 1.0;
    for (let r = 0; r < ranks; r++) {
      const o = t + r * 0.01;
      const loc = (k: number) => SITES[(s + r + k) % SITES.length]!;
      out.push(makePrimitive(3, [{ time: o + 0.05, lineID: r }], i32s(s), (s + r) % 2 === 0 ? { start: loc(0) } : undefined));
      out.push(
        makePrimitive(
          2,
          [
            { time: o + 0.1, lineID: r },
            { time: o + 0.3, lineID: r },
          ],
          undefined,
          { start: loc(1), end: loc(2) },
        ),
      );
      out.push(
        makePrimitive(
          0,
          [
            { time: o + 0.2, lineID: r },
            { time: o + 0.35, lineID: (r + 1) % ranks },
          ],
          i32s(s, 100 * r),
          r === 0 ? { end: loc(0) } : undefined,
        ),
      );
      out.push(
        makePrimitive(
          1,
          [
            { time: o, lineID: r },
            { time: o + 0.5, lineID: r },
          ],
          undefined,
          s % 3 === 0 ? undefined : { start: loc(2) },
        ),
      );
    }
  }
  out.sort((a, b) => a.latest - b.latest || b.earliest - a.earliest);
  const lines = Array.from({ length: ranks }, (_, i) => i);
  const maps: LineIDMap[] = [{ title: 'Process View', columns: ['world_rank'], rows: lines.map((l) => ({ lineID: l, path: [l] })), methods: [] }];
  return { drawables: out, maps };
}
