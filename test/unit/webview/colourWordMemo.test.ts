// The WebGL2 painter's colour words (webview/timeline/gl/colourWordMemo.ts): worked out
// once per run of shapes in one style, again whenever the style or the global alpha changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ColourWordMemo } from '../../../webview/timeline/gl/colourWordMemo';

/** A memo over a word function that counts its calls (the real one parses CSS with a canvas). */
function counted(): { memo: ColourWordMemo<string>; calls: () => number } {
  let calls = 0;
  const memo = new ColourWordMemo<string>((alpha, style) => {
    calls++;
    let h = Math.round(alpha * 255);
    for (let i = 0; i < style.length; i++) h = (Math.imul(h, 31) + style.charCodeAt(i)) >>> 0;
    return h;
  });
  return { memo, calls: () => calls };
}

test('a run of shapes in one style costs one word', () => {
  const { memo, calls } = counted();
  const first = memo.of(1, '#ff0000');
  for (let i = 0; i < 100; i++) assert.equal(memo.of(1, '#ff0000'), first);
  assert.equal(calls(), 1);
});

test('another style, or the same style at another alpha, gets its own word', () => {
  const { memo, calls } = counted();
  const red = memo.of(1, '#ff0000');
  const blue = memo.of(1, 'rgba(0, 0, 255, 0.9)');
  assert.notEqual(blue, red);
  const redHalf = memo.of(0.5, '#ff0000');
  assert.notEqual(redHalf, red);
  assert.equal(memo.of(0.5, '#ff0000'), redHalf);
  // back to the first style and alpha: worked out again, the same word
  assert.equal(memo.of(1, '#ff0000'), red);
  assert.equal(calls(), 4);
});

test('an equal string made elsewhere is the same style', () => {
  const { memo, calls } = counted();
  const a = memo.of(1, ['#', '00ff00'].join(''));
  assert.equal(memo.of(1, '#00ff00'), a);
  assert.equal(calls(), 1);
});
