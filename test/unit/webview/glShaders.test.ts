// The data layer's WebGL2 programs (gl/glShaders.ts): one per mode, each with its own mode's code
// only (software GL runs every branch of a shader for every fragment), compiled in headless
// Chromium by glLayerPixels.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MODE, MODES, fragmentShader, vertexShader } from '../../../webview/timeline/gl/glShaders';

/** What only one mode's fragment code samples or computes. */
const OWN: Record<number, string> = {
  [MODE.STRIP]: 'uLines, ivec2',
  [MODE.PATTERN]: 'texture(uPattern',
  [MODE.IMAGE]: 'texture(uImage',
  [MODE.TEXT]: 'texelFetch(uAtlas',
  [MODE.SEGMENT]: 'vB.y > 0.5',
  [MODE.TRIANGLE]: 'edge(p0, p1, c, s)',
};

test('a program per mode, each with no other mode’s fragment code', () => {
  assert.deepEqual([...MODES].sort(), Object.values(MODE).sort());
  for (const m of MODES) {
    const source = fragmentShader(m);
    for (const [other, code] of Object.entries(OWN)) assert.equal(source.includes(code), Number(other) === m, `mode ${m}: ${code}`);
    assert.doesNotMatch(source, /vMode|\bmode\b/, `mode ${m} branches on no mode`);
    assert.match(source, /gl_FragCoord/, `mode ${m} takes the pixel centre from gl_FragCoord`);
  }
});

test('rect-like quads grow by a pixel only on sides off the pixel grid; segments and triangles keep their own corners', () => {
  for (const m of [MODE.RECT, MODE.STRIP, MODE.PATTERN, MODE.IMAGE, MODE.TEXT]) assert.match(vertexShader(m), /notEqual\(fract\(a\), vec4\(0\.0\)\)/);
  assert.match(vertexShader(MODE.SEGMENT), /float e = b\.x \+ 1\.0;/);
  assert.match(vertexShader(MODE.TRIANGLE), /p = corner\.y < 0\.5 \? \(corner\.x < 0\.5 \? a\.xy : a\.zw\) : b\.xy;/);
});
