// The timeline's keys as intents (keys.ts): what each asks for, and which keys are left to the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROW_ZOOM_STEP, ZOOM_STEP, timelineKey, type KeyIntents } from '../../../webview/timeline/keys';

/** Intents that record their calls; the view has 10 rows of 20 px (row r in slot r). */
function recording(): { it: KeyIntents; calls: string[] } {
  const calls: string[] = [];
  const view = {
    window: { t0: 0, t1: 10 },
    full: { t0: 0, t1: 100 },
    height: 200,
    rows: { rowCount: 10, rowHeight: 20, scrollPx: 0, heightPx: 200 },
  };
  const it = new Proxy({} as KeyIntents, {
    get: (_, name: string) =>
      name === 'view'
        ? () => view
        : (...args: unknown[]) => {
            calls.push(`${name}(${JSON.stringify(args)})`);
            return name === 'moveSelection' || name === 'escape' || name === 'frameSelection' ? args[0] !== 'up' : undefined;
          },
  });
  return { it, calls };
}

test('keys ask for their intents', () => {
  const cases: [string, boolean, { row?: number; y?: number }, string[]][] = [
    ['w', false, {}, [`zoom([${ZOOM_STEP}])`]],
    ['-', false, {}, [`zoom([${1 / ZOOM_STEP}])`]],
    ['S', false, { y: 33 }, [`zoomRows([${1 / ROW_ZOOM_STEP},33])`]],
    ['d', false, {}, ['setWindow([{"t0":2,"t1":12},true])']],
    ['ArrowLeft', false, {}, ['setWindow([{"t0":-2,"t1":8},true])']],
    ['[', false, { row: 4 }, ['moveRow([4,3])']],
    [']', false, { row: 4 }, ['moveRow([4,5])']],
    ['h', false, { row: 2 }, ['hideRow([2])']],
    ['ArrowDown', false, {}, ['scrollRows([20])']],
    ['ArrowUp', true, {}, ['moveSelection(["up"])', 'scrollRows([-20])']],
    ['PageDown', false, {}, ['scrollRows([180])']],
    ['.', false, {}, ['moveSelection(["next"])']],
    ['Escape', false, {}, ['escape([])']],
    ['z', false, {}, ['undo([])']],
  ];
  for (const [key, alt, hover, expected] of cases) {
    const { it, calls } = recording();
    assert.equal(timelineKey(key, alt, it, { row: hover.row, y: hover.y }), true, key);
    assert.deepEqual(calls, expected, key);
  }
});

test('keys with nothing to act on, and other keys, are left to the page', () => {
  for (const [key, row] of [
    ['h', undefined],
    ['[', undefined],
    ['q', 3],
    ['Enter', 3],
  ] as const) {
    const { it, calls } = recording();
    assert.equal(timelineKey(key, false, it, { row, y: undefined }), false, key);
    assert.deepEqual(calls, [], key);
  }
});
