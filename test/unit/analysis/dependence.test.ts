// Dependence chains on hand-built CLOG2 traces (the worked example of ../shared/notes/analysis.md §3):
// rank 3 waits 0.8 s in MPI_Recv for rank 2's send at 5.0; rank 2 sent late because its own
// MPI_Recv from rank 1 waited until 4.9; rank 1 sent at 4.9 after Compute [2.0, 4.9]. The expected
// chains are read off these times by hand, not produced by the code under test.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeTrace } from '../../../src/core/analysis';
import { traceChainSource, type ChainTrace } from '../../../src/core/analysis/chainSource';
import { dependenceChain, type ChainState, type DependenceChain } from '../../../src/core/analysis/dependence';
import { chainEntryText } from '../../../src/core/analysis/waitText';
import { convertClog2 } from '../../../src/core/formats/clog2/convertClog2';
import { collectConversion } from '../../../src/core/formats/convert/result';
import { drawingOrderCompare } from '../../../src/core/formats/slog2/drawingOrder';
import type { Drawable } from '../../../src/core/model/types';
import { bytesChunks } from '../clog2/clogTestUtil';
import { HandTrace } from './handTrace';

async function traceOf(t: HandTrace): Promise<ChainTrace & { reads: number; readonly sorted: readonly Drawable[] }> {
  const { drawables, summary } = await collectConversion(convertClog2(bytesChunks(await t.bytes()), { name: 'hand.clog2' }));
  const sorted: Drawable[] = [...drawables].sort(drawingOrderCompare);
  const trace = {
    reads: 0,
    sorted,
    categories: new Map(summary.categories.map((c) => [c.index, c])),
    lineIDMaps: summary.lineIDMaps,
    timeRange: summary.timeRange ?? [0, 0],
    async *query(t0: number, t1: number) {
      trace.reads++;
      yield { drawables: sorted.filter((d) => d.earliest <= t1 && t0 <= d.latest) };
    },
  };
  return trace;
}

async function chainOf(t: HandTrace, rank: number, name: string, enter: number, direction: 'backward' | 'forward', maxDepth = 8): Promise<DependenceChain> {
  const trace = await traceOf(t);
  const r = await analyzeTrace(
    {
      categories: trace.categories,
      lineIDMaps: trace.lineIDMaps,
      range: trace.timeRange,
      async *batches(a, b) {
        yield trace.sorted.filter((d) => d.earliest <= b && a <= d.latest);
      },
    },
    { maxInstances: 1e6 },
  );
  const source = traceChainSource(trace, r.instances);
  const rankLine = trace.lineIDMaps[0]!.rows.find((row) => row.path[0] === rank)!.lineID;
  const selected = await source.stateAt(rankLine, name, enter);
  assert.ok(selected, `no ${name} at ${enter} on rank ${rank}`);
  return dependenceChain(source, selected, direction, { maxDepth });
}

const brief = (s: ChainState): string => `${s.rank} ${s.name} ${s.enter}`;

function example(): HandTrace {
  return new HandTrace(4)
    .state(1, 'Compute', 2.0, 4.9)
    .state(1, 'MPI_Send', 4.9, 4.91)
    .send(1, 4.901, 2)
    .state(2, 'MPI_Recv', 1.0, 4.95)
    .recv(2, 4.94, 1)
    .state(2, 'Compute', 4.96, 4.99)
    .state(2, 'MPI_Send', 5.0, 5.01)
    .send(2, 5.001, 3)
    .state(3, 'MPI_Recv', 4.2, 5.05)
    .recv(3, 5.04, 2);
}

test("backward chain: the blame chain of the worked example, hop by hop (rank 2's Compute, which did not wait, is skipped)", async () => {
  const c = await chainOf(example(), 3, 'MPI_Recv', 4.2, 'backward');
  assert.deepEqual(
    c.nodes.map((n) => `${brief(n.state)} via ${n.via}`),
    [
      '3 MPI_Recv 4.2 via selected',
      '2 MPI_Send 5 via message',
      '2 MPI_Recv 1 via program-order',
      '1 MPI_Send 4.9 via message',
      '1 Compute 2 via program-order',
    ],
  );
  // Each node's parent is the one before it (a chain), and the waits are the receivers' waits.
  assert.deepEqual(
    c.nodes.map((n) => n.parent),
    [-1, 0, 1, 2, 3],
  );
  assert.ok(Math.abs(c.nodes[1]!.wait!.seconds - 0.8) < 1e-9, `rank 3 waited 0.8 s, got ${c.nodes[1]!.wait?.seconds}`);
  assert.equal(c.nodes[1]!.wait!.pattern, 'lateSender');
  assert.ok(Math.abs(c.nodes[3]!.wait!.seconds - 3.9) < 1e-9);
  assert.deepEqual(c.nodes[4]!.link, { causeTime: 4.9, effectTime: 4.9 });
  assert.equal(c.truncated, false);
  assert.equal(chainEntryText(c.nodes[1]!, c.nodes[0], 'backward'), "rank 2 · MPI_Send 5 s – 5.01 s — rank 3's MPI_Recv waited 0.8 s (late sender) for it");
  assert.equal(chainEntryText(c.nodes[4]!, c.nodes[3], 'backward'), "rank 1 · Compute 2 s – 4.9 s — rank 1's first state (it never waited before)");
  assert.equal(
    chainEntryText(c.nodes[2]!, c.nodes[1], 'backward'),
    "rank 2 · MPI_Recv 1 s – 4.95 s — rank 2's last wait before it (0.05 s on its own between)",
  );
});

test('backward chain stops at the depth the user set', async () => {
  const c = await chainOf(example(), 3, 'MPI_Recv', 4.2, 'backward', 2);
  assert.equal(c.nodes.length, 3);
  assert.equal(c.nodes.at(-1)!.depth, 2);
  const none = await chainOf(example(), 3, 'MPI_Recv', 4.2, 'backward', 0);
  assert.equal(none.nodes.length, 1);
});

test('forward tree: what rank 1 Compute delayed', async () => {
  const c = await chainOf(example(), 1, 'Compute', 2.0, 'forward');
  assert.deepEqual(
    c.nodes.map((n) => `${brief(n.state)} via ${n.via} from ${n.parent}`),
    [
      '1 Compute 2 via selected from -1',
      '1 MPI_Send 4.9 via program-order from 0',
      '2 MPI_Recv 1 via message from 1',
      '2 MPI_Send 5 via program-order from 2',
      '3 MPI_Recv 4.2 via message from 3',
    ],
  );
  assert.equal(chainEntryText(c.nodes[4]!, c.nodes[3], 'forward'), "rank 3 · MPI_Recv 4.2 s – 5.05 s — waited 0.8 s (late sender) for rank 2's MPI_Send");
});

test('forward: the last arrival at a barrier delayed every other member; the cap on states holds', async () => {
  const t = new HandTrace(4)
    .state(0, 'MPI_Barrier', 1.0, 3.1)
    .state(1, 'MPI_Barrier', 1.5, 3.1)
    .state(2, 'MPI_Barrier', 2.0, 3.1)
    .state(3, 'MPI_Barrier', 3.0, 3.1);
  const c = await chainOf(t, 3, 'MPI_Barrier', 3.0, 'forward');
  const waiters = c.nodes.filter((n) => n.via === 'collective').map((n) => `${n.state.rank}:${n.wait!.seconds.toFixed(3)}`);
  assert.deepEqual(waiters.sort(), ['0:2.000', '1:1.500', '2:1.000']);
  // Backward from an early member: it waited for rank 3, the last to arrive.
  const back = await chainOf(t, 0, 'MPI_Barrier', 1.0, 'backward');
  assert.equal(back.nodes[1]!.state.rank, '3');
  assert.equal(back.nodes[1]!.via, 'collective');
  assert.equal(back.nodes[1]!.wait!.pattern, 'waitAtBarrier');
});

test('a state that did not wait continues on its own rank; the search window widens over long gaps', async () => {
  // Rank 0: Compute [0, 0.001], then nothing until MPI_Send at 100 s (the first window is 1/4096 of the range).
  const t = new HandTrace(2)
    .state(0, 'Compute', 0, 0.001)
    .state(0, 'MPI_Send', 100, 100.01)
    .send(0, 100.001, 1)
    .state(1, 'MPI_Recv', 100.02, 100.03)
    .recv(1, 100.025, 0);
  const c = await chainOf(t, 1, 'MPI_Recv', 100.02, 'backward');
  // The receive did not wait (the message was sent before it started; nothing earlier on rank 1): its predecessor is on its own rank (none).
  assert.deepEqual(
    c.nodes.map((n) => brief(n.state)),
    ['1 MPI_Recv 100.02'],
  );
  const c0 = await chainOf(t, 0, 'MPI_Send', 100, 'backward');
  assert.deepEqual(
    c0.nodes.map((n) => `${brief(n.state)} via ${n.via}`),
    ['0 MPI_Send 100 via selected', '0 Compute 0 via program-order'],
  );
});
