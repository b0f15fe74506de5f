import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {
  compileQuery,
  countMatches,
  findNext,
  findNth,
  matchOrdinal,
  type DrawableMatcher,
  type FindResult,
  type SearchFrom,
  type SearchMatch,
  type SearchQuery,
} from '../../../src/core/search';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { drawingOrderCompare } from '../../../src/core/formats/slog2/drawingOrder';
import { FileSource } from '../../../src/io/fileSource';
import { gunzipToMemory } from '../../../src/io/gzip';
import { fixture } from '../../helpers/paths';

/** One drawable of the reference dump (slog2printrecur prints every drawable once). */
interface DumpDrawable {
  readonly earliest: number;
  readonly latest: number;
  readonly category: string;
  readonly popup: string;
  readonly lines: number[];
}

function readDump(name: string): DumpDrawable[] {
  const out: DumpDrawable[] = [];
  const re =
    /^\d+: Primitive\[ infobox\[ TimeBBox\(([^,]+),([^)]+)\) Category=Category\[ index=-?\d+, name=([^,]*),.*? count=\d+ \]: (.*?)\] ((?:\([^)]*\) )+)\] bsize=\d+$/;
  for (const line of fs.readFileSync(fixture(`${name}.slog2recur.txt`), 'utf8').split('\n')) {
    const m = re.exec(line);
    if (m === null) {
      assert.ok(!line.includes('Primitive['), `unparsed dump line ${line.slice(0, 80)}`);
      continue;
    }
    const lines = [...m[5]!.matchAll(/\([^,]+, (\d+)\)/g)].map((v) => Number(v[1]));
    out.push({ earliest: Number(m[1]), latest: Number(m[2]), category: m[3]!, popup: m[4]!, lines });
  }
  return out;
}

async function openSlog2(name: string): Promise<Slog2File> {
  if (fs.existsSync(fixture(`${name}.slog2`))) return Slog2File.open(await FileSource.open(fixture(`${name}.slog2`)));
  const gz = await FileSource.open(fixture(`${name}.slog2.gz`));
  try {
    // All 63 nodes of bigrun stay parsed, so the repeated whole-file passes below stay fast.
    return await Slog2File.open(await gunzipToMemory(gz, 256 << 20), { nodeCacheSize: 128 });
  } finally {
    await gz.close();
  }
}

function matcher(file: Slog2File, q: Partial<SearchQuery> & { text: string }): DrawableMatcher {
  const r = compileQuery({ mode: 'plain', caseSensitive: false, ...q }, file.categories);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.matcher;
}

/** All matches by repeated next (or previous) from one end of the file. */
async function walk(file: Slog2File, m: DrawableMatcher, direction: 1 | -1): Promise<SearchMatch[]> {
  const out: SearchMatch[] = [];
  let from: SearchFrom = { time: direction === 1 ? -Infinity : Infinity };
  for (;;) {
    const r: FindResult = await findNext(file, m, from, direction);
    if (r.match === undefined) return out;
    out.push(r.match);
    from = { drawable: r.match.drawable };
    assert.ok(out.length < 100_000, 'runaway search');
  }
}

const US = 'user_states_4';

test('search "Region" finds the 24 Region states of user_states_4, in drawing order both ways', async () => {
  const file = await openSlog2(US);
  try {
    const dump = readDump(US);
    const m = matcher(file, { text: 'Region' });
    const expected = dump.filter((d) => d.category === 'Region');
    assert.equal(expected.length, 24);
    const count = await countMatches(file, m);
    assert.equal(count.matches, 24);
    const forward = await walk(file, m, 1);
    assert.equal(forward.length, 24);
    assert.ok(forward.every((x) => x.category?.name === 'Region' && x.place === 'name'));
    // Same drawables as the dump (start times printed as doubles; rows as the dump's vertices).
    assert.deepEqual(
      forward.map((x) => x.earliest).sort((a, b) => a - b),
      expected.map((d) => d.earliest).sort((a, b) => a - b),
    );
    for (let i = 1; i < forward.length; i++) assert.ok(drawingOrderCompare(forward[i - 1]!.drawable, forward[i]!.drawable) <= 0);
    const backward = await walk(file, m, -1);
    assert.deepEqual(
      backward.map((x) => x.drawable).reverse(),
      forward.map((x) => x.drawable),
    );
  } finally {
    await file.close();
  }
});

test('regex on popup text, whole word and case sensitivity agree with the reference dump', async () => {
  const file = await openSlog2(US);
  try {
    const dump = readDump(US);
    const cases: [Partial<SearchQuery> & { text: string }, (d: DumpDrawable) => boolean][] = [
      [{ text: 'line 108', mode: 'regex' }, (d) => /line 108/i.test(d.popup)],
      [{ text: 'line \\d+$', mode: 'regex', inName: false }, (d) => /line \d+$/i.test(d.popup)],
      [{ text: 'step [0-2] of 6: even', mode: 'regex' }, (d) => /step [0-2] of 6: even/i.test(d.popup)],
      [{ text: 'residual=', mode: 'plain' }, (d) => d.popup.includes('residual=')],
      [{ text: 'region', caseSensitive: true }, () => false],
      [{ text: 'region', caseSensitive: false }, (d) => d.category === 'Region'],
      [{ text: 'MPI_Comm', mode: 'plain' }, (d) => d.category.startsWith('MPI_Comm')],
      [{ text: 'MPI_Comm', mode: 'word' }, () => false],
      [{ text: 'MPI_Comm_rank', mode: 'word' }, (d) => d.category === 'MPI_Comm_rank'],
      [{ text: 'even', mode: 'word' }, (d) => /\beven\b/i.test(d.popup)],
      [{ text: 'eve', mode: 'word' }, () => false],
      [{ text: 'MPI_Barrier', inName: false }, () => false],
    ];
    for (const [q, pick] of cases) {
      const want = dump.filter(pick).length;
      const got = (await countMatches(file, matcher(file, q))).matches;
      assert.equal(got, want, JSON.stringify(q));
    }
    // Spot checks on the fixture's facts: 24 Region states say "line 108", 12 of 24 Progress events say "even".
    assert.equal((await countMatches(file, matcher(file, { text: 'line 108' }))).matches, 24);
    assert.equal((await countMatches(file, matcher(file, { text: 'even', mode: 'word' }))).matches, 12);
  } finally {
    await file.close();
  }
});

test('rows filter, duration range and unsearchable categories', async () => {
  const file = await openSlog2(US);
  try {
    const dump = readDump(US);
    const onRank3 = (await countMatches(file, matcher(file, { text: 'Kernel', rows: [3] }))).matches;
    assert.equal(onRank3, dump.filter((d) => d.category === 'Kernel' && d.lines.includes(3)).length);
    assert.equal(onRank3, 12);
    const long = (await countMatches(file, matcher(file, { text: '', minDuration: 0.01 }))).matches;
    assert.equal(long, dump.filter((d) => d.latest - d.earliest >= 0.01).length);
    const short = (await countMatches(file, matcher(file, { text: 'MPI_', maxDuration: 1e-4 }))).matches;
    assert.equal(short, dump.filter((d) => d.category.includes('MPI_') && d.latest - d.earliest <= 1e-4).length);
    const regionIndex = [...file.categories.values()].find((c) => c.name === 'Region')!.index;
    assert.equal((await countMatches(file, matcher(file, { text: 'Region', unsearchable: [regionIndex] }))).matches, 0);
    // Empty text, no filters: every real drawable.
    assert.equal((await countMatches(file, matcher(file, { text: '' }))).matches, dump.length);
  } finally {
    await file.close();
  }
});

test('bad queries are errors, not exceptions', async () => {
  const file = await openSlog2(US);
  try {
    const bad = compileQuery({ text: '(', mode: 'regex', caseSensitive: false }, file.categories);
    assert.equal(bad.ok, false);
    if (!bad.ok) assert.match(bad.error, /invalid regular expression/);
    assert.equal(compileQuery({ text: 'x'.repeat(2000), mode: 'plain', caseSensitive: false }, file.categories).ok, false);
    assert.equal(compileQuery({ text: 'a', mode: 'plain', caseSensitive: false, minDuration: 2, maxDuration: 1 }, file.categories).ok, false);
    // Plain text with regex characters is literal.
    assert.equal((await countMatches(file, matcher(file, { text: 'step 0 of 6: (' }))).matches, 0);
    assert.equal((await countMatches(file, matcher(file, { text: 'MPI_Comm_r*' }))).matches, 0);
  } finally {
    await file.close();
  }
});

test('next/previous from a time; equal start times stepped in order; wrap around', async () => {
  const file = await openSlog2(US);
  try {
    const m = matcher(file, { text: 'Region' });
    const all = await walk(file, m, 1);
    const third = all[2]!;
    const next = await findNext(file, m, { time: third.earliest }, 1);
    assert.equal(next.match?.drawable, third.drawable); // from a time: starts at ≥ t
    const prev = await findNext(file, m, { time: third.earliest }, -1);
    assert.equal(prev.match?.drawable, all[1]!.drawable); // backward: starts before t
    const after = await findNext(file, m, { drawable: third.drawable }, 1);
    assert.equal(after.match?.drawable, all[3]!.drawable);
    const end = await findNext(file, m, { drawable: all[23]!.drawable }, 1);
    assert.equal(end.match, undefined);
    const wrapped = await findNext(file, m, { drawable: all[23]!.drawable }, 1, { wrap: true });
    assert.equal(wrapped.wrapped, true);
    assert.equal(wrapped.match?.drawable, all[0]!.drawable);
    const wrappedBack = await findNext(file, m, { drawable: all[0]!.drawable }, -1, { wrap: true });
    assert.equal(wrappedBack.match?.drawable, all[23]!.drawable);
    // Events at the same time on different ranks (MPE_Comm_init) are all visited once.
    const init = await walk(file, matcher(file, { text: 'MPE_Comm_init' }), 1);
    assert.deepEqual(init.map((x) => x.rows[0]).sort(), [0, 1, 2, 3]);
    // "n of m": the ordinal of each match, and the n-th match, agree with the walk.
    for (const i of [0, 1, 2, 11, 23]) {
      assert.equal(await matchOrdinal(file, m, all[i]!.drawable), i);
      assert.equal((await findNth(file, m, i))?.drawable, all[i]!.drawable);
    }
    assert.equal(await findNth(file, m, 24), undefined);
    assert.equal(await findNth(file, m, -1), undefined);
    const none = await findNext(file, matcher(file, { text: 'no such thing' }), { time: 0 }, 1, { wrap: true });
    assert.equal(none.match, undefined);
  } finally {
    await file.close();
  }
});

test('histogram bins match start times; progress is reported; abort stops counting', async () => {
  const file = await openSlog2(US);
  try {
    const dump = readDump(US);
    const m = matcher(file, { text: 'Progress' });
    const progress: number[] = [];
    const r = await countMatches(file, m, { bins: 10, onProgress: (p) => progress.push(p.nodesDone) });
    assert.equal(
      r.histogram.reduce((a, b) => a + b, 0),
      24,
    );
    const [t0, t1] = file.timeRange;
    const want = new Uint32Array(10);
    for (const d of dump) if (d.category === 'Progress') want[Math.min(9, Math.floor(((d.earliest - t0) / (t1 - t0)) * 10))]!++;
    assert.deepEqual([...r.histogram], [...want]);
    assert.deepEqual(progress, [1]); // one tree node in this small file
    const ac = new AbortController();
    ac.abort(new Error('stop'));
    await assert.rejects(countMatches(file, m, { signal: ac.signal }), /stop/);
    await assert.rejects(findNext(file, m, { time: 0 }, 1, { signal: ac.signal }), /stop/);
  } finally {
    await file.close();
  }
});

test('a count from objects (objectsOnly; a query with rows or site terms) reads every node once, keeps none of them, and uses the nodes the reader has cached', async () => {
  const file = await openSlog2('bigrun_medium_4');
  try {
    const nodes = file.treeDir.length;
    assert.ok(nodes > 2);
    const root = file.treeDir.find((n) => n.depth === file.maxDepth)!;
    await file.readNode(root); // a view's node, in the cache
    assert.equal(file.nodesRead, 1);
    const m = matcher(file, { text: 'MPI_Allreduce', mode: 'word' });
    const first = await countMatches(file, m, { objectsOnly: true });
    assert.equal(file.nodesRead, nodes, 'the cached root is not parsed again');
    const second = await countMatches(file, m, { objectsOnly: true });
    assert.equal(file.nodesRead, 2 * nodes - 1, "the count's nodes were not kept: parsed again");
    assert.equal(second.matches, first.matches);
    await file.readNode(root);
    assert.equal(file.nodesRead, 2 * nodes - 1, 'the root is still cached');
  } finally {
    await file.close();
  }
});

test('multi-level tree (bigrun_medium_4, depth 5): counts equal the facts; next walks all leaves in order, reading only what it needs', async () => {
  const file = await openSlog2('bigrun_medium_4');
  try {
    assert.ok(file.maxDepth >= 2);
    const facts = JSON.parse(fs.readFileSync(fixture('bigrun_medium_4.facts.json'), 'utf8').replace(/\bNaN\b/g, 'null')) as {
      slog2: { categories: { name: string; drawables: number }[] };
    };
    const want = (name: string): number => facts.slog2.categories.find((c) => c.name === name)!.drawables;
    assert.equal((await countMatches(file, matcher(file, { text: 'MPI_Allreduce', mode: 'word' }))).matches, want('MPI_Allreduce'));
    assert.equal((await countMatches(file, matcher(file, { text: '^MPI_I(send|recv)$', mode: 'regex' }))).matches, want('MPI_Isend') + want('MPI_Irecv'));
    assert.equal((await countMatches(file, matcher(file, { text: 'msg_tag=', inName: false }))).matches, want('message'));

    // Next over the whole file equals the reader's own time-ordered stream, filtered.
    const ticks = matcher(file, { text: 'Tick', mode: 'word' });
    const walked = await walk(file, ticks, 1);
    assert.equal(walked.length, want('Tick'));
    const reference: unknown[] = [];
    for await (const d of file.drawablesInTimeOrder()) if (ticks.test(d) !== undefined) reference.push(d);
    assert.equal(walked.length, reference.length);
    walked.forEach((w, i) => assert.equal(w.earliest, (reference[i] as { earliest: number }).earliest));
    const back = await walk(file, ticks, -1);
    assert.deepEqual(
      back.map((x) => x.earliest).reverse(),
      walked.map((x) => x.earliest),
    );
    for (let i = 0; i < walked.length; i++) assert.equal(await matchOrdinal(file, ticks, walked[i]!.drawable), i);
    assert.equal((await findNth(file, ticks, 5))?.earliest, walked[5]!.earliest);

    // Early exit: the first MPI_Comm_rank is near the start; only a few slices are read.
    const leaves = file.level(0).length;
    const first = await findNext(file, matcher(file, { text: 'MPI_Comm_rank' }), { time: -Infinity }, 1);
    assert.ok(first.match !== undefined);
    assert.ok(first.slicesRead <= 2 && leaves > 10, `read ${first.slicesRead} of ${leaves} slices`);
    // Starting mid-file reads from there, not from the beginning.
    const [t0, t1] = file.timeRange;
    const mid = await findNext(file, matcher(file, { text: 'MPI_Allreduce' }), { time: (t0 + t1) / 2 }, 1);
    assert.ok(mid.match !== undefined && mid.match.earliest >= (t0 + t1) / 2);
    assert.ok(mid.slicesRead < leaves / 2);
  } finally {
    await file.close();
  }
});
