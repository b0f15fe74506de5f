// Search over the whole file through the host's search server (the webview's search box): the n-th
// "Region" match from the trace start is the n-th Region state by start time in the reference dump,
// counted as "n of 24"; rows and unsearchable categories filter; a bad regex is an error message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { rowLayoutOf } from '../../../src/core/query/rows';
import { SearchServer } from '../../../src/host/searchServer';
import type { TraceDocument } from '../../../src/host/traceDocument';
import type { SearchCountMessage, SearchRequestQuery, SearchResultMessage } from '../../../src/protocol/webview';
import { parseRows } from '../../../webview/searchRows';
import { fixture } from '../../helpers/paths';

async function server(): Promise<{ s: SearchServer; out: (SearchResultMessage | SearchCountMessage)[]; file: Slog2File }> {
  const file = await Slog2File.open(new MemorySource('user_states_4.slog2', new Uint8Array(fs.readFileSync(fixture('user_states_4.slog2')))));
  const doc = { state: { phase: 'ready', file, layouts: file.lineIDMaps.map(rowLayoutOf), openMs: 0 }, generation: 1 } as unknown as TraceDocument;
  const out: (SearchResultMessage | SearchCountMessage)[] = [];
  return { s: new SearchServer(doc, (m) => out.push(m)), out, file };
}

const query = (q: Partial<SearchRequestQuery> = {}): SearchRequestQuery => ({
  text: 'Region',
  mode: 'plain',
  caseSensitive: false,
  mapIndex: 0,
  unsearchable: [],
  ...q,
});

function regionStarts(): number[] {
  const dump = fs.readFileSync(fixture('user_states_4.slog2.txt'), 'utf8');
  return [...dump.matchAll(/Primitive\[ infobox\[ TimeBBox\(([^,]+),[^)]+\) Category=Category\[ index=305,/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
}

test('Region: next three times from the trace start → the 3rd by start time, "3 of 24"', async () => {
  const { s, out, file } = await server();
  const starts = regionStarts();
  assert.equal(starts.length, 24);
  await s.handle({ kind: 'search', searchId: 1, generation: 1, query: query(), direction: 1, fromTime: file.timeRange[0] });
  await s.handle({ kind: 'search', searchId: 2, generation: 1, query: query(), direction: 1 });
  await s.handle({ kind: 'search', searchId: 3, generation: 1, query: query(), direction: 1 });
  const results = out.filter((m): m is SearchResultMessage => m.kind === 'searchResult');
  assert.deepEqual(
    results.map((r) => r.ordinal),
    [0, 1, 2],
  );
  results.forEach((r, i) => assert.ok(Math.abs(r.hit!.start - starts[i]!) < 1e-12, `match ${i}: ${r.hit!.start} vs ${starts[i]}`));
  assert.equal(results[2]!.hit!.row, 0);
  assert.equal(results[2]!.hit!.drawable, 'state');
  // previous goes back to the 2nd
  await s.handle({ kind: 'search', searchId: 4, generation: 1, query: query(), direction: -1 });
  const back = out.filter((m): m is SearchResultMessage => m.kind === 'searchResult').at(-1)!;
  assert.equal(back.ordinal, 1);
  await new Promise((r) => setTimeout(r, 50));
  const count = out.find((m): m is SearchCountMessage => m.kind === 'searchCount');
  assert.equal(count?.matches, 24);
  assert.equal(
    count?.histogram.reduce((a, b) => a + b, 0),
    24,
  );
  await file.close();
});

test('rows, unsearchable categories and a bad regex', async () => {
  const { s, out, file } = await server();
  await s.handle({ kind: 'search', searchId: 1, generation: 1, query: query({ rows: [2] }), direction: 1, fromTime: file.timeRange[0] });
  const onRow2 = out.at(-1) as SearchResultMessage;
  assert.equal(onRow2.hit?.row, 2);
  await s.handle({ kind: 'search', searchId: 2, generation: 1, query: query({ unsearchable: [305] }), direction: 1, fromTime: file.timeRange[0] });
  assert.equal((out.at(-1) as SearchResultMessage).hit, undefined);
  await s.handle({ kind: 'search', searchId: 3, generation: 1, query: query({ text: '(', mode: 'regex' }), direction: 1 });
  assert.match((out.at(-1) as SearchResultMessage).error ?? '', /regular expression/);
  await s.handle({ kind: 'search', searchId: 4, generation: 2, query: query(), direction: 1 });
  assert.match((out.at(-1) as SearchResultMessage).error ?? '', /reloaded/);
  s.close();
  await file.close();
});

test('search box rows: lists and ranges, refused outside the map', () => {
  assert.equal(parseRows('  ', 4), undefined);
  assert.deepEqual(parseRows('0, 2-3', 4), [0, 2, 3]);
  assert.throws(() => parseRows('1-9', 4), /outside/);
  assert.throws(() => parseRows('a', 4), /cannot read/);
});
