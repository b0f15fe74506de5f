import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SearchSession, type SearchFrom } from '../../../src/core/search';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { FileSource } from '../../../src/io/fileSource';
import { fixture } from '../../helpers/paths';

const QUERY = { text: 'Kernel', mode: 'word', caseSensitive: true } as const;

test('session: count, next/previous with "n of m", wrapping, and a new query cancels the old count', async () => {
  const file = await Slog2File.open(await FileSource.open(fixture('user_states_4.slog2')));
  try {
    const session = new SearchSession(file, { bins: 4 });
    assert.ok(session.setQuery(QUERY).ok);
    const count = await session.count()!;
    assert.equal(count.matches, 48);
    assert.equal(
      count.histogram.reduce((a, b) => a + b, 0),
      48,
    );

    // Forward through all 48 and once more: positions 0..47, then wrap to 0.
    let from: SearchFrom = { time: -Infinity };
    const seen: number[] = [];
    for (let i = 0; i < 49; i++) {
      const r = await session.find(from, 1);
      assert.ok(r.match !== undefined);
      seen.push(r.ordinal!);
      assert.equal(r.wrapped, i === 48);
      from = { drawable: r.match.drawable };
    }
    assert.deepEqual(seen, [...Array.from({ length: 48 }, (_, i) => i), 0]);
    // Backward from the first wraps to the last (position counted, 47).
    const back = await session.find(from, -1);
    assert.equal(back.wrapped, true);
    assert.equal(back.ordinal, 47);
    const back2 = await session.find({ drawable: back.match!.drawable }, -1);
    assert.equal(back2.ordinal, 46);
    // From a time in the middle: the position is counted from the start of the file.
    const [t0, t1] = file.timeRange;
    const mid = await session.find({ time: (t0 + t1) / 2 }, 1);
    assert.ok(mid.match !== undefined && mid.ordinal! > 0 && mid.ordinal! < 47);

    // A bad query is an error and clears the search; a new query cancels the running count.
    const bad = session.setQuery({ text: '[', mode: 'regex', caseSensitive: false });
    assert.equal(bad.ok, false);
    assert.equal(session.count(), undefined);
    assert.equal((await session.find({ time: 0 }, 1)).match, undefined);
    session.setQuery(QUERY);
    const first = session.count()!;
    session.setQuery({ ...QUERY, text: 'Solve' });
    await assert.rejects(first, /search replaced/);
    assert.equal((await session.count()!).matches, 24);
  } finally {
    await file.close();
  }
});
