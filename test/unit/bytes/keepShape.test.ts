// keepShape.ts keeps one instance of a class made per call alive, so that the hidden class new
// instances get (and the optimised code checking for it) survives full collections. What is kept
// is only worth keeping if it has that very hidden class.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { keepShapeAlive, keptShapes } from '../../../src/core/bytes/keepShape';
import { ByteWriter } from '../../../src/core/formats/slog2/writer/byteWriter';

/** V8's own answer to "same hidden class?" (the flag is read when the function is parsed). */
function sameMap(): (a: object, b: object) => boolean {
  setFlagsFromString('--allow-natives-syntax');
  return new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
}

function fullGc(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

test("the writer's ByteWriter is kept in the hidden class of the writers it makes, both kinds, across full collections", () => {
  const same = sameMap();
  const kept = keptShapes().find((o) => o instanceof ByteWriter);
  assert.ok(kept !== undefined, 'a ByteWriter is kept');
  for (let round = 0; round < 2; round++) {
    assert.ok(same(new ByteWriter(64), kept), 'a block of its own');
    assert.ok(same(new ByteWriter(new Uint8Array(64).subarray(8, 40)), kept), 'a view into an output buffer');
    fullGc();
  }
});

test('an instance kept by keepShapeAlive has the hidden class of those made after a full collection', () => {
  const same = sameMap();
  class PerCall {
    readonly a: number;
    readonly b: Float64Array;
    constructor(n: number) {
      this.a = n;
      this.b = new Float64Array(n);
    }
  }
  const kept = keepShapeAlive(new PerCall(0));
  for (let i = 0; i < 100; i++) new PerCall(i);
  fullGc();
  assert.ok(same(new PerCall(3), kept));
  assert.ok(keptShapes().includes(kept));
});
