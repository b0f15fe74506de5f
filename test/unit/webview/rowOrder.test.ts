import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RankListError, formatRankList, hideRows, moveRow, normaliseOrder, parseRankList, rowsMatching, slotsOf } from '../../../webview/timeline/rowOrder';

test('rank lists: singles, closed and open ranges', () => {
  assert.deepEqual(parseRankList('0-15,64,128-'), [
    [0, 15],
    [64, 64],
    [128, Infinity],
  ]);
  assert.deepEqual(parseRankList(' 3 ; -2  5..6'), [
    [3, 3],
    [0, 2],
    [5, 6],
  ]);
  const labels = Array.from({ length: 200 }, (_, i) => String(i));
  const rows = rowsMatching(parseRankList('0-15,64,128-'), labels);
  assert.equal(rows.length, 16 + 1 + 72);
  assert.equal(formatRankList(rows, labels), '0-15,64,128-199');
});

test('rank lists: bad input is refused with the part named', () => {
  assert.throws(() => parseRankList('5-2'), RankListError);
  assert.throws(() => parseRankList('a-b'), /"a-b" is not a rank/);
  assert.throws(() => parseRankList(' , '), /empty/);
  assert.throws(() => parseRankList('-'), RankListError);
  assert.throws(() => parseRankList('9'.repeat(30)), /too large/);
});

test('ranks match labels when every label is an integer, else row indices', () => {
  assert.deepEqual(rowsMatching(parseRankList('2,5'), ['0', '2', '5', '7']), [1, 2]);
  assert.deepEqual(rowsMatching(parseRankList('1'), ['0 / 0', '0 / 1']), [1]);
});

test('hide, move and normalise row orders', () => {
  assert.deepEqual(hideRows([0, 1, 2, 3], [2]), [0, 1, 3]);
  assert.deepEqual(moveRow([0, 1, 2, 3], 3, 0), [3, 0, 1, 2]);
  assert.deepEqual(moveRow([0, 1, 3], 2, 99), [0, 1, 3, 2]);
  assert.equal(normaliseOrder([0, 1, 2], 3), undefined);
  assert.deepEqual(normaliseOrder([0, 1, 1, 9, -1, 2.5, 3], 4), [0, 1, 3]);
  assert.deepEqual([...slotsOf([2, 0], 3)], [1, -1, 0]);
});
