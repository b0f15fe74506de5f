import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Slog2File } from '../../../src/core/formats/slog2';
import { FileSource } from '../../../src/io/fileSource';
import { defaultMapIndex, linesOfRows, rowLayoutOf, rowsOfLines } from '../../../src/core/query/rows';
import { fixture } from '../../helpers/paths';

test('rows ↔ line IDs round-trip on the real maps of user_states_4 (bookmarks and links keep shown rows)', async () => {
  const f = await Slog2File.open(await FileSource.open(fixture('user_states_4.slog2')));
  try {
    for (const map of f.lineIDMaps) {
      const layout = rowLayoutOf(map);
      const n = layout.labels.length;
      const order = Array.from({ length: n }, (_, i) => n - 1 - i).filter((r) => r !== 1 % n);
      const lines = linesOfRows(layout, order);
      assert.ok(lines.length >= order.length);
      assert.deepEqual(rowsOfLines(layout, lines), order);
      assert.deepEqual(rowsOfLines(layout, [...lines, 999_999]), order);
    }
    // Process View: 4 ranks, one line ID per row
    const pv = rowLayoutOf(f.lineIDMaps[defaultMapIndex(f.lineIDMaps)]!);
    assert.equal(pv.labels.length, 4);
    assert.equal(linesOfRows(pv, [3, 0, 1]).length, 3);
  } finally {
    await f.close();
  }
});
