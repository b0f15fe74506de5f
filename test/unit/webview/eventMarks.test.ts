// The frame's event marks (webview/timeline/eventMarks.ts): drawEvents writes them in place and
// grows them when full; a grow keeps the marks written so far, and begin() keeps the room.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventMarks } from '../../../webview/timeline/eventMarks';

test('grow keeps every mark written so far, in every column, and begin keeps the room', () => {
  const m = new EventMarks();
  m.begin();
  assert.equal(m.xe.length, 0);
  let n = 0;
  for (let i = 0; i < 5000; i++) {
    if (n === m.xe.length) {
      m.count = n;
      m.grow();
    }
    m.xe[n] = i + 0.25;
    m.top[n] = i * 2 + 0.5;
    m.row[n] = i % 7;
    m.col[n] = i * 3;
    m.rgba[n] = (0xff000000 + i) >>> 0;
    m.run[n] = i >> 4;
    n++;
  }
  m.count = n;
  assert.ok(m.xe.length >= 5000 && m.xe.length < 10_000, `room ${m.xe.length}`);
  for (const i of [0, 1023, 1024, 2047, 2048, 4999]) {
    assert.deepEqual(
      [m.xe[i], m.top[i], m.row[i], m.col[i], m.rgba[i], m.run[i]],
      [i + 0.25, i * 2 + 0.5, i % 7, i * 3, (0xff000000 + i) >>> 0, i >> 4],
      `mark ${i}`,
    );
  }
  const room = m.xe.length;
  m.begin();
  assert.equal(m.count, 0);
  assert.equal(m.xe.length, room, 'the room stays for the next frame');
});
