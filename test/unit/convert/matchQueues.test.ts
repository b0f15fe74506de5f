// Open-state queues by line (convert/matchQueues.ts): FIFO per line as before, and a queue that
// empties is handed to the next line that needs one, so a wide trace keeps about as many queues
// as states open at once, not one per category and line ever used.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Prng } from '../../../src/core/synth/prng';
import { QueuesByLine, type VertexQueue } from '../../../src/core/formats/convert/matchQueues';

test('queues are FIFO per line, and emptied ones are reused by other lines', () => {
  const spare: VertexQueue[] = [];
  const states = new QueuesByLine(spare);
  const other = new QueuesByLine(spare);
  const made = new Set<VertexQueue>();
  const model = new Map<number, number[]>();
  const prng = new Prng(5);
  let mostOpen = 0;
  let open = 0;
  for (let step = 0; step < 20_000; step++) {
    // Lines past 65 536 and negative ones take the Map; a few lines nest deeper.
    const line = [prng.int(0, 3000), 70_000 + prng.int(0, 50), -prng.int(1, 20)][prng.int(0, 2)]!;
    const fifo = model.get(line) ?? [];
    if (fifo.length === 0 || (fifo.length < 3 && prng.next() < 0.5)) {
      const q = states.getOrCreate(line);
      made.add(q);
      q.push(step, line, step * 2, undefined, undefined);
      fifo.push(step);
      model.set(line, fifo);
      mostOpen = Math.max(mostOpen, ++open);
    } else {
      const q = states.get(line)!;
      assert.equal(q.length, fifo.length, `line ${line}: entries`);
      assert.equal(q.time, fifo[0], `line ${line}: the oldest first`);
      assert.equal(q.value, fifo[0]! * 2);
      states.drop(line, q);
      fifo.shift();
      open--;
      if (fifo.length === 0) assert.equal(states.get(line), undefined, `line ${line}: an empty queue is let go`);
    }
  }
  // Another category's lines take the spares first.
  const before = spare.length;
  if (before > 0) {
    const q = other.getOrCreate(5);
    assert.ok(made.has(q) && q.length === 0, 'a spare queue, empty');
    assert.equal(spare.length, before - 1);
  }
  assert.ok(made.size <= mostOpen, `${made.size} queues made for at most ${mostOpen} open at once`);
  let left = 0;
  states.forEach((q) => (left += q.length));
  assert.equal(left, open);
});
