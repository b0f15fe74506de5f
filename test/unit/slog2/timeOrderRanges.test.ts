// The time-ordered streams of a range (objects: Slog2File.drawableBatchesInTimeOrder; columns:
// primitiveBatchesInTimeOrder) hold exactly the drawables of the plain query of that range, and
// read only the nodes overlapping it (a range in the middle once read every node before it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { primitiveBatchesInTimeOrder } from '../../../src/core/formats/slog2/columnStream';
import type { Drawable } from '../../../src/core/model/types';
import { FIXTURE_TRACES, fixtureSlog2Bytes, openFixtureSlog2 } from '../../helpers/fixtureTraces';

const keyOf = (d: Drawable): string => {
  const p = d.kind === 'primitive' ? d : d.primitives[0]!;
  return `${d.category}|${d.earliest}|${d.latest}|${p.vertices[0]!.lineID}|${p.vertices[p.vertices.length - 1]!.lineID}`;
};

for (const name of FIXTURE_TRACES) {
  test(`${name}: time-ordered streams of a range = the query of that range, reading only nodes overlapping it`, async () => {
    const bytes = fixtureSlog2Bytes(name);
    const probe = await openFixtureSlog2(name, bytes);
    const [a, b] = probe.timeRange;
    await probe.close();
    const w = b - a;
    for (const [f0, f1] of [
      [0.45, 0.55],
      [0, 0.03],
      [0.63, 1],
      [0.2, 0.21],
    ] as const) {
      const t0 = a + f0 * w;
      const t1 = a + f1 * w;
      const file = await openFixtureSlog2(name, bytes);
      try {
        const expected: string[] = [];
        let primitives = 0;
        for await (const s of file.query(t0, t1, { lowestDepth: 0 }))
          for (const d of s.drawables) {
            expected.push(keyOf(d));
            primitives += d.kind === 'primitive' ? 1 : d.primitives.length;
          }
        expected.sort();
        let overlapping = 0;
        for (let depth = 0; depth <= file.maxDepth; depth++) overlapping += file.nodesOverlapping(depth, t0, t1).length;
        const fresh = await openFixtureSlog2(name, bytes);
        const got: string[] = [];
        for await (const batch of fresh.drawableBatchesInTimeOrder(t0, t1)) for (const d of batch) got.push(keyOf(d));
        assert.deepEqual(got.sort(), expected, `${name} [${f0}, ${f1}]: objects`);
        assert.ok(fresh.nodesRead <= overlapping, `${name} [${f0}, ${f1}]: read ${fresh.nodesRead} nodes, ${overlapping} overlap the range`);
        await fresh.close();
        let rows = 0;
        for await (const batch of primitiveBatchesInTimeOrder(file, t0, t1)) rows += batch.rows;
        assert.equal(rows, primitives, `${name} [${f0}, ${f1}]: columns`);
      } finally {
        await file.close();
      }
    }
  });
}
