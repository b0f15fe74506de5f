// Event heads composed as pixels (webview/timeline/headLayer.ts): the WebAssembly kernel
// (headsKernel.ts) against the JS loop it replaces, on a synthetic frame of the size and density of
// the viewport bench's densest one (captured there: 26 080 heads in 32 rows of 19.4 px over 1206 px,
// ~1.5 px apart in a row, in time order across rows, colour runs of ~190 heads in two colours, heads
// of 10/3 px half width; that capture replayed: JS 6.5 ms, kernel 2.9 ms), here evenly spread, moved
// by a fraction of a pixel each frame as a zoom moves them; alternating, medians, and the same
// pixels both ways checked on every frame.
import { HeadLayer } from '../../webview/timeline/headLayer';
import { EventMarks } from '../../webview/timeline/eventMarks';

const WIDTH = 1206;
const ROWS = 32;
const ROW_PX = 19.40625;
const HEADS = 26_080;
const RUN = 190;
const TRI = 10 / 3;
const FRAMES = 300;
const COLOURS = [0xffffff00, 0xff0000ff];

/** A seeded generator (xorshift), so every run draws the same frame. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/** The dense frame's marks, as drawEvents writes them (one head a CSS pixel column a row at most). */
function denseFrame(): EventMarks {
  const rnd = random(21);
  const marks = new EventMarks();
  const lastCol = new Float64Array(ROWS).fill(-1);
  let n = 0;
  for (let i = 0; n < HEADS; i++) {
    const x = ((i / (HEADS * 1.6)) * WIDTH) % WIDTH;
    const row = Math.floor(rnd() * ROWS);
    const col = Math.round(x);
    if (lastCol[row] === col) continue;
    lastCol[row] = col;
    if (n === marks.xe.length) {
      marks.count = n;
      marks.grow();
    }
    marks.xe[n] = x;
    marks.top[n] = row * ROW_PX + 1;
    marks.row[n] = row;
    marks.col[n] = col;
    const run = Math.floor(n / RUN);
    marks.rgba[n] = COLOURS[run % 2]!;
    marks.run[n] = run;
    n++;
  }
  marks.count = n;
  return marks;
}

function main(): void {
  const marks = denseFrame();
  const base = Float64Array.from(marks.xe.subarray(0, marks.count));
  const js = new HeadLayer();
  const wasm = new HeadLayer({ kernel: true });
  if (!wasm.composesInKernel) {
    console.log('heads bench: skipped (no WebAssembly in this node)');
    return;
  }
  const times: [number[], number[]] = [[], []];
  const layers = [js, wasm] as const;
  for (let f = 0; f < FRAMES; f++) {
    const dx = (f % 16) * 0.0625;
    for (let i = 0; i < marks.count; i++) marks.xe[i] = base[i]! + dx;
    for (const k of f % 2 === 0 ? [0, 1] : [1, 0]) {
      const t = performance.now();
      layers[k].begin(WIDTH, ROWS * ROW_PX, 1);
      layers[k].addMarks(marks, TRI);
      times[k].push(performance.now() - t);
    }
    const a = (js as unknown as { px: Uint32Array }).px;
    const b = (wasm as unknown as { px: Uint32Array }).px;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) throw new Error(`frame ${f}: pixel ${i} differs (JS ${a[i]}, kernel ${b[i]})`);
  }
  const median = (xs: number[]): number => [...xs].sort((p, q) => p - q)[xs.length >> 1]!;
  const [mj, mw] = [median(times[0]), median(times[1])];
  console.log(
    `heads bench: ${marks.count} heads, ${ROWS} rows × ${WIDTH} px, ${FRAMES} frames alternating, the same pixels each: ` +
      `JS loop median ${mj.toFixed(2)} ms, WebAssembly kernel median ${mw.toFixed(2)} ms (×${(mj / mw).toFixed(2)})`,
  );
}

main();
