// A search's count from decoded columns (columnCount.ts) gives the count and histogram of the
// matcher's test on every drawable object: on the fixture traces for queries of every kind (no
// text, names, words, regular expressions, popup text only, names only, durations, categories
// switched off), on a hand-made trace with a composite and info bytes (its node is counted from
// objects), and on the fuzzer's crafted SLOG-2 inputs (the same count, or the same refusal).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { MemorySink, Slog2Writer } from '../../../src/core/formats/slog2/writer';
import { makePrimitive, type Drawable, type Primitive } from '../../../src/core/model/types';
import { compileQuery, countMatches, type CountResult, type SearchQuery } from '../../../src/core/search';
import { FIXTURE_TRACES, openFixtureSlog2 } from '../../helpers/fixtureTraces';
import { fixture } from '../../helpers/paths';
import { CATEGORIES, topologyOf } from '../slog2writer/synthetic';

function queries(file: Slog2File): SearchQuery[] {
  const base = { text: '', mode: 'plain', caseSensitive: false } as const;
  const first = [...file.categories.keys()].find((k) => k >= 0) ?? 0;
  return [
    base,
    { ...base, text: 'MPI_Send' },
    { ...base, text: 'mpi', mode: 'word' },
    { ...base, text: '^MPI_(Send|Recv|Wait)', mode: 'regex', caseSensitive: true },
    { ...base, text: '1' },
    { ...base, text: '2', inName: false },
    { ...base, text: 'e', inInfo: false },
    { ...base, text: 'size' },
    { ...base, minDuration: 1e-5, maxDuration: 1e-3 },
    { ...base, text: 'MPI', unsearchable: [first] },
    { ...base, text: 'zzz-no-such-text' },
  ];
}

async function bothWays(file: Slog2File, query: SearchQuery): Promise<{ columns: CountResult; objects: CountResult; objectNodes: number }> {
  const compiled = compileQuery(query, file.categories);
  assert.ok(compiled.ok);
  assert.ok(compiled.matcher.plan !== undefined, 'these queries have a plan');
  const before = file.nodesRead;
  const columns = await countMatches(file, compiled.matcher, { bins: 64 });
  const objectNodes = file.nodesRead - before;
  const objects = await countMatches(file, compiled.matcher, { bins: 64, objectsOnly: true });
  return { columns, objects, objectNodes };
}

function assertSameCount(columns: CountResult, objects: CountResult, what: string): void {
  assert.equal(columns.matches, objects.matches, `${what}: matches`);
  assert.deepEqual([...columns.histogram], [...objects.histogram], `${what}: histogram`);
}

test('fixtures: the count from columns is the count from objects, for every kind of query', async () => {
  let info = 0;
  for (const name of FIXTURE_TRACES) {
    const file = await openFixtureSlog2(name);
    try {
      let some = 0;
      for (const q of queries(file)) {
        const { columns, objects, objectNodes } = await bothWays(file, q);
        assertSameCount(columns, objects, `${name} ${JSON.stringify(q)}`);
        // no composites in these files: no node was parsed into objects
        assert.equal(objectNodes, 0, `${name} ${JSON.stringify(q)}: nodes parsed into objects`);
        if (columns.matches > 0) some++;
        if (q.inName === false) info += columns.matches;
      }
      assert.ok(some >= 4, `${name}: queries with matches (${some})`);
    } finally {
      await file.close();
    }
  }
  // popup text decided some matches (the arrows' tags and sizes)
  assert.ok(info > 0, `matches by popup text (${info})`);
});

test('a composite node is counted from its objects; its neighbours from columns', async () => {
  const i32 = (v: number): Uint8Array => new Uint8Array([0, 0, 0, v]);
  const state = (c: number, line: number, t0: number, t1: number): Primitive =>
    makePrimitive(c, [
      { time: t0, lineID: line },
      { time: t1, lineID: line },
    ]);
  const out: Drawable[] = [];
  for (let i = 0; i < 40; i++) {
    out.push(state(1, i % 2, i, i + 0.5));
    out.push(makePrimitive(3, [{ time: i + 0.7, lineID: 0 }], i32(i)));
  }
  const members = [state(2, 0, 43, 46), makePrimitive(3, [{ time: 48, lineID: 0 }], i32(9))];
  out.push({ kind: 'composite', category: 4, primitives: members, earliest: 43, latest: 48 });
  const sink = new MemorySink();
  const w = new Slog2Writer(sink, { leafBytes: 300, topologyOf });
  for (const d of out.sort((x, y) => x.latest - y.latest)) w.add(d);
  await w.finish({ categories: CATEGORIES, lineIDMaps: [] });
  const file = await Slog2File.open(new MemorySource('composite.slog2', sink.bytes()));
  try {
    assert.ok(file.level(0).length >= 3, `several leaves (${file.level(0).length})`);
    const base = { text: '', mode: 'plain', caseSensitive: false } as const;
    let viaObjects = 0;
    for (const q of [base, { ...base, text: '9' }, { ...base, text: CATEGORIES.find((c) => c.index === 4)!.name }, { ...base, text: '1', inName: false }]) {
      const { columns, objects, objectNodes } = await bothWays(file, q);
      assertSameCount(columns, objects, JSON.stringify(q));
      assert.ok(objectNodes >= 1 && objectNodes < file.treeDir.length, `the composite's node only (${objectNodes} of ${file.treeDir.length})`);
      viaObjects += objectNodes;
    }
    assert.ok(viaObjects > 0);
  } finally {
    await file.close();
  }
});

test("the fuzzer's crafted SLOG-2 inputs: the same count from columns as from objects, or the same refusal", async () => {
  const dir = path.dirname(fixture('regressions/README.md'));
  const inputs = fs.readdirSync(dir).filter((f) => /^(slog2|views)-.*\.bin$/.test(f));
  assert.ok(inputs.length >= 5);
  let counted = 0;
  for (const name of inputs) {
    let file: Slog2File;
    try {
      file = await Slog2File.open(new MemorySource(name, new Uint8Array(fs.readFileSync(path.join(dir, name)))));
    } catch {
      continue; // refused at open: nothing to count
    }
    try {
      for (const q of queries(file)) {
        const compiled = compileQuery(q, file.categories);
        assert.ok(compiled.ok);
        const outcome = async (objectsOnly: boolean): Promise<string> => {
          try {
            const r = await countMatches(file, compiled.matcher, { bins: 16, objectsOnly });
            return `${r.matches} ${[...r.histogram].join(',')}`;
          } catch (e) {
            return `refused: ${e instanceof Error ? e.message : String(e)}`;
          }
        };
        assert.equal(await outcome(false), await outcome(true), `${name} ${JSON.stringify(q)}`);
        counted++;
      }
    } finally {
      await file.close();
    }
  }
  assert.ok(counted > 0, 'some crafted inputs open');
});
