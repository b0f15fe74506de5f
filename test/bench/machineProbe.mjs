// The machine's speed at one moment: a fixed piece of JavaScript work (float arithmetic over a
// typed array, small objects made and dropped, a sort), timed in a fresh node process. The bench
// runner prints it before each bench and at the end: on the 2-core VM the same code ran twice as
// fast on one day as on another, and changed speed within a run, so absolute figures (≤ 10 s,
// ≤ 16 ms) are read beside this one. Its figure moves with the machine, never with our code.
const WORK_ROUNDS = 3;

function work() {
  const a = new Float64Array(1 << 16);
  let s = 0;
  for (let r = 0; r < 400; r++) for (let i = 0; i < a.length; i++) s += a[i] = a[i] * 0.999 + i;
  const objects = [];
  for (let i = 0; i < 400_000; i++) {
    objects.push({ t: i * 0.5, line: i & 1023 });
    if (objects.length > 10_000) objects.length = 0;
  }
  const keys = Float64Array.from({ length: 200_000 }, (_, i) => Math.sin(i) * 1e6);
  keys.sort();
  return s + keys[0] + objects.length;
}

const times = [];
for (let r = 0; r < WORK_ROUNDS; r++) {
  const t0 = performance.now();
  work();
  times.push(performance.now() - t0);
}
times.sort((x, y) => x - y);
process.stdout.write(`${times[1].toFixed(1)}\n`);
