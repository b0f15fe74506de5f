// Software WebGL2 against canvas2d on the same rectangles, in the same page (viewport bench): the
// raw cost behind `auto` keeping canvas2d on software GL (gl/rendererChoice.ts). Headless Chromium
// here has no GPU: its WebGL2 is ANGLE on SwiftShader, what a VM or remote desktop without a GPU
// gives a webview too.
// Each frame draws N random 1–4 px × 10 px rects and reads one pixel back (so the time includes
// the drawing, not only its queueing). WebGL2 keeps its vertices resident (uploaded once, six
// vertices per rect; SwiftShader's instancing was slower still); canvas2d issues N fillRects.

/** Run in the page by the viewport bench (a string: the bench's tsconfig has no DOM types). */
export const GL_RECTS_SCRIPT = `(([n, frames]) => {
  const W = 1200, H = 700;
  const rand = ((s) => () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32))(7);
  const rects = Array.from({ length: n }, () => [rand() * W, Math.floor(rand() * 60) * 11, 1 + rand() * 3, 10, Math.floor(rand() * 8)]);
  const colours = ['#e6194b', '#3cb44b', '#ffe119', '#4363d8', '#f58231', '#911eb4', '#46f0f0', '#f032e6'];
  const c2 = document.createElement('canvas'); c2.width = W; c2.height = H;
  const g = c2.getContext('2d');
  const c3 = document.createElement('canvas'); c3.width = W; c3.height = H;
  const gl = c3.getContext('webgl2', { antialias: false });
  if (!gl) return { renderer: 'none' };
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  const sh = (type, src) => { const s = gl.createShader(type); gl.shaderSource(s, src); gl.compileShader(s); return s; };
  const prog = gl.createProgram();
  gl.attachShader(prog, sh(gl.VERTEX_SHADER, '#version 300 es\\nlayout(location=0) in vec2 p; layout(location=1) in vec4 c; out vec4 v; void main(){ gl_Position = vec4(p.x / 600.0 - 1.0, 1.0 - p.y / 350.0, 0, 1); v = c; }'));
  gl.attachShader(prog, sh(gl.FRAGMENT_SHADER, '#version 300 es\\nprecision mediump float; in vec4 v; out vec4 o; void main(){ o = v; }'));
  gl.linkProgram(prog);
  gl.useProgram(prog);
  const pos = new Float32Array(n * 12), col = new Uint8Array(n * 24);
  const rgb = colours.map((h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)));
  rects.forEach(([x, y, w, h, k], i) => {
    [[x, y], [x + w, y], [x, y + h], [x, y + h], [x + w, y], [x + w, y + h]].forEach(([a, b], v) => { pos[i * 12 + v * 2] = a; pos[i * 12 + v * 2 + 1] = b; col.set([...rgb[k], 255], i * 24 + v * 4); });
  });
  const buf = (data, loc, size, type, norm) => { gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer()); gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW); gl.enableVertexAttribArray(loc); gl.vertexAttribPointer(loc, size, type, norm, 0, 0); };
  buf(pos, 0, 2, gl.FLOAT, false);
  buf(col, 1, 4, gl.UNSIGNED_BYTE, true);
  const px = new Uint8Array(4);
  const glFrame = () => { gl.clear(gl.COLOR_BUFFER_BIT); gl.drawArrays(gl.TRIANGLES, 0, n * 6); gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px); };
  const canvasFrame = () => { g.clearRect(0, 0, W, H); for (const [x, y, w, h, k] of rects) { g.fillStyle = colours[k]; g.fillRect(x, y, w, h); } g.getImageData(0, 0, 1, 1); };
  glFrame(); canvasFrame();
  const t = { gl: [], canvas: [] };
  for (let f = 0; f < frames; f++) for (const [name, frame] of [['gl', glFrame], ['canvas', canvasFrame]]) { const a = performance.now(); frame(); t[name].push(performance.now() - a); }
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { renderer, gl: med(t.gl), canvas: med(t.canvas) };
})`;

export interface GlRects {
  readonly renderer: string;
  readonly gl?: number;
  readonly canvas?: number;
}
