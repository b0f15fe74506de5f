// Source locations survive the writer: every drawable's {file, line} comes back through the
// srcloc table, the file stays a valid SLOG-2 file for our reader (no warnings), and a damaged
// table is reported with its offset.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { FormatError } from '../../../src/core/bytes/formatError';
import type { Drawable } from '../../../src/core/model/types';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { MemorySink, Slog2Writer } from '../../../src/core/formats/slog2/writer';
import { nodeSourceLocations, readSourceLocations, sourceLocationCounts } from '../../../src/core/formats/srcloc';
import { CATEGORIES, syntheticTrace, topologyOf } from './synthetic';

async function write(leafBytes: number, withCounts = true): Promise<{ bytes: Uint8Array; drawables: Drawable[] }> {
  const { drawables, maps } = syntheticTrace(4, 60);
  const sink = new MemorySink();
  const w = new Slog2Writer(sink, { leafBytes, topologyOf });
  for (const d of drawables) w.add(d);
  await w.finish({ categories: CATEGORIES, lineIDMaps: maps, sourceLocations: withCounts ? { records: 999, sites: 3 } : undefined });
  return { bytes: sink.bytes(), drawables };
}

function key(d: Drawable): string {
  const v = d.kind === 'primitive' ? d.vertices : [];
  return `${d.category}|${v.map((x) => `${x.time}@${x.lineID}`).join(',')}`;
}

for (const leafBytes of [65536, 600]) {
  test(`every drawable's source comes back (leaf ${leafBytes} bytes)`, async () => {
    const { bytes, drawables } = await write(leafBytes);
    const file = await Slog2File.open(new MemorySource('srcloc.slog2', bytes));
    if (leafBytes === 600) assert.ok(file.treeDir.length > 10, 'a multi-level tree');
    const table = await readSourceLocations(file);
    assert.ok(table);
    assert.deepEqual(sourceLocationCounts(table), { records: 999, sites: 3 });
    const expected = new Map(drawables.map((d) => [key(d), d.kind === 'primitive' ? d.source : undefined]));
    let located = 0;
    let seen = 0;
    for (const info of file.treeDir) {
      for (const d of (await file.readNode(info)).drawables) {
        seen++;
        assert.ok(expected.has(key(d)), `unexpected drawable ${key(d)}`);
        const want = expected.get(key(d));
        assert.deepEqual(d.kind === 'primitive' ? d.source : undefined, want, key(d));
        if (want) located++;
      }
    }
    assert.equal(seen, drawables.length);
    assert.equal(located, drawables.filter((d) => d.kind === 'primitive' && d.source).length);
    assert.equal(table.locatedDrawables, located);
    assert.deepEqual(file.warnings, []);
    // Only used categories are stored, with the preview categories of the used topologies.
    assert.deepEqual(
      [...file.categories.keys()].sort((a, b) => a - b),
      [-3, -2, -1, 0, 1, 2, 3],
    );
  });
}

test('a file without located drawables or counts has no table', async () => {
  const { drawables, maps } = syntheticTrace(2, 3);
  const sink = new MemorySink();
  const w = new Slog2Writer(sink, { topologyOf });
  for (const d of drawables) w.add(d.kind === 'primitive' ? { ...d, source: undefined } : d);
  await w.finish({ categories: CATEGORIES, lineIDMaps: maps });
  const file = await Slog2File.open(new MemorySource('plain.slog2', sink.bytes()));
  assert.equal(await readSourceLocations(file), undefined);
  // No gap: the CategoryMap follows the root node directly, as in reference files.
  assert.equal(file.header.categories.fptr, file.header.treeRoot.fptr + file.header.treeRoot.size);
});

test('a damaged table is a FormatError naming its offset', async () => {
  const { bytes } = await write(65536);
  const good = await Slog2File.open(new MemorySource('a.slog2', bytes));
  // The root's node record, then the table.
  const rootEnd = good.header.treeRoot.fptr + good.header.treeRoot.size;
  const at = rootEnd + new DataView(bytes.buffer).getInt32(rootEnd + 8);
  const bad = bytes.slice();
  new DataView(bad.buffer).setInt32(at + 12, 5); // the size field
  const file = await Slog2File.open(new MemorySource('bad.slog2', bad));
  await assert.rejects(readSourceLocations(file), (e: unknown) => e instanceof FormatError && e.offset === at + 12 && /size/.test(e.message));
  const bad2 = bytes.slice();
  // nfiles (after magic, version, size, records, inputSites, located) set huge.
  new DataView(bad2.buffer).setInt32(at + 40, 0x7fffffff);
  await assert.rejects(
    readSourceLocations(await Slog2File.open(new MemorySource('bad2.slog2', bad2))),
    (e: unknown) => e instanceof FormatError && /file count/.test(e.message),
  );
  // A node record whose site index is out of range.
  const table = (await readSourceLocations(good))!;
  const leaf = good.treeDir.find((n) => n.depth === 0)!;
  const bad3 = bytes.slice();
  const rec = leaf.fptr + leaf.size;
  new DataView(bad3.buffer).setInt32(rec + 16 + 5, 1000); // first entry's start site
  const file3 = await Slog2File.open(new MemorySource('bad3.slog2', bad3));
  await assert.rejects(
    nodeSourceLocations(file3, table, leaf),
    (e: unknown) => e instanceof FormatError && e.offset === rec + 21 && /site index 1000/.test(e.message),
  );
  // Reading that node loses only its source locations, with a warning naming the node and offset.
  const drawables = (await file3.readNode(leaf)).drawables;
  assert.ok(drawables.length > 0);
  assert.ok(drawables.every((d) => d.kind !== 'primitive' || d.source === undefined));
  assert.ok(
    file3.warnings.some((w) => /source locations of tree node \(0,/.test(w) && /site index 1000/.test(w)),
    file3.warnings.join('\n'),
  );
});
