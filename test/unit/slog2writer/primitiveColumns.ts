// Primitive columns (the writer's PrimitiveColumns) from a list of primitives, for the shadow tests.
import { EVENT, ARROW, type PrimitiveColumns } from '../../../src/core/formats/slog2/writer/shadows';

/** [topology, category, start, end, line, arrow's second line (default: line)]: an event has one vertex, the others two. */
export type TestPrimitive = readonly [topology: number, category: number, start: number, end: number, line: number, line2?: number];

export function primitiveColumns(prims: readonly TestPrimitive[]): PrimitiveColumns {
  const vertexStart = new Uint32Array(prims.length + 1);
  const times: number[] = [];
  const lines: number[] = [];
  prims.forEach(([topology, , start, end, line, line2], p) => {
    vertexStart[p] = times.length;
    if (topology === EVENT) {
      times.push(start);
      lines.push(line);
    } else {
      times.push(start, end);
      lines.push(line, topology === ARROW ? (line2 ?? line) : line);
    }
  });
  vertexStart[prims.length] = times.length;
  return {
    primTopology: Uint8Array.from(prims.map((p) => p[0])),
    primCategory: Int32Array.from(prims.map((p) => p[1])),
    primEarliest: Float64Array.from(prims.map((p) => p[2])),
    primLatest: Float64Array.from(prims.map((p) => p[3])),
    vertexStart,
    vertexTime: Float64Array.from(times),
    vertexLine: Int32Array.from(lines),
  };
}
