// Open-state queues by line (convert/matchQueues.ts): FIFO per line as before, and a queue that
// empties is handed to the next line that needs one, so a wide trace keeps about as many queues
// as states open at once, not one per category and line ever used. Message queues are FIFO per
// (tag, sender, receiver) whatever the procIDs (small, past 32 768, negative or huge), across sweeps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Prng } from '../../../src/core/synth/prng';
import { QueuesByLine, type VertexQueue } from '../../../src/core/formats/convert/matchQueues';
import { MessageQueues } from '../../../src/core/formats/convert/messageQueues';

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

test('message queues are FIFO per (tag, sender, receiver) for small, wide and odd procIDs, across sweeps', () => {
  const queues = new MessageQueues();
  const model = new Map<string, { tag: number; sender: number; receiver: number; times: number[] }>();
  const pendingKeys: string[] = [];
  const prng = new Prng(8);
  const procs = [
    () => prng.int(0, 40), // one Smi key per pair
    () => 32_760 + prng.int(0, 20), // straddles 32 768: small and wide keys side by side
    () => 65_536 + prng.int(0, 200_000), // wide (a 10^5-rank run)
    () => [-1, -7, 2 ** 26, 2 ** 31 - 1][prng.int(0, 3)]!, // damaged files: string keys
  ];
  let freshKeys = 0;
  for (let step = 0; step < 300_000; step++) {
    if (pendingKeys.length > 0 && prng.next() < 0.55) {
      // A receive: the oldest message of a pending key.
      const at = prng.int(0, pendingKeys.length - 1);
      const m = model.get(pendingKeys[at]!)!;
      const q = queues.oldest(m.tag, m.sender, m.receiver);
      assert.ok(q >= 0, `${pendingKeys[at]}: a queue`);
      assert.equal(queues.lengthOf(q), m.times.length, `${pendingKeys[at]}: entries`);
      assert.equal(queues.timeOf(q), m.times[0], `${pendingKeys[at]}: the oldest first`);
      assert.equal(queues.valueOf(q), m.times[0]! + 1);
      assert.equal(queues.lineIDOf(q), m.sender);
      queues.taken(q);
      m.times.shift();
      if (m.times.length === 0) pendingKeys.splice(at, 1);
      continue;
    }
    // A send: a new key mostly (many queues made and emptied: swept past 65 536), or one pending.
    const reuse = pendingKeys.length > 0 && prng.next() < 0.2;
    const key = reuse ? pendingKeys[prng.int(0, pendingKeys.length - 1)]! : `${prng.int(0, 3)},${procs[prng.int(0, 3)]!()},${procs[prng.int(0, 3)]!()}`;
    const [tag, sender, receiver] = key.split(',').map(Number) as [number, number, number];
    const m = model.get(key) ?? { tag, sender, receiver, times: [] };
    if (m.times.length === 0) {
      pendingKeys.push(key);
      freshKeys++;
    }
    const before = queues.oldest(tag, sender, receiver);
    assert.equal(before < 0 ? 0 : queues.lengthOf(before), m.times.length, `${key}: entries before a send`);
    queues.push(tag, sender, receiver, step, sender, step + 1, undefined);
    m.times.push(step);
    model.set(key, m);
  }
  let pending = 0;
  for (const m of model.values()) pending += m.times.length;
  assert.equal(queues.count, pending);
  // Sweeps run once 65 536 queues were made and at most a quarter of them hold a message.
  assert.ok(freshKeys > 100_000 && pending < freshKeys / 8, `${freshKeys} keys made pending, ${pending} messages left: sweeps ran`);
});
