// Site marks of node-column rows (columnMarks.ts): each row gets the marker's bits for its own
// start and end sites (−1: none), each pair of sites asked once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ColumnSiteMarks } from '../../../src/core/query/columnMarks';
import type { NodeColumns } from '../../../src/core/formats/slog2/nodeColumns';
import type { SourceLocation } from '../../../src/core/model/types';

test('a row’s marks come from its own pair of sites, each pair asked once', () => {
  const sites: SourceLocation[] = [0, 1, 2].map((line) => ({ file: 'a.c', line }));
  const pairs: [number, number][] = [];
  for (let s = -1; s < sites.length; s++) for (let e = -1; e < sites.length; e++) pairs.push([s, e]);
  // every pair twice, in two orders
  const rows = [...pairs, ...pairs.slice().reverse()];
  const c = { siteIndex: Int32Array.from(rows, ([s]) => s), siteEndIndex: Int32Array.from(rows, ([, e]) => e), sites } as unknown as NodeColumns;
  const asked: string[] = [];
  const marks = new ColumnSiteMarks((start, end) => {
    asked.push(`${start?.line}/${end?.line}`);
    return (start === undefined ? 0 : 1 + start.line) * 16 + (end === undefined ? 0 : 1 + end.line);
  });
  rows.forEach(([s, e], r) => assert.equal(marks.of(c, r), (s + 1) * 16 + (e + 1), `row ${r}: sites ${s}, ${e}`));
  assert.equal(asked.length, pairs.length, 'each pair once');
  assert.equal(new Set(asked).size, pairs.length);
});
