// Benchmark of the source side's numbers (issue 17): 10^6 located states over 10^4 source lines of
// one file, 16 ranks. Measured: the worker's one pass (SiteStatsAccumulator over every drawable,
// what the analysis worker's `sites` request does after reading), building the per-site index,
// and the CodeLens titles of the file from the index (what one provideCodeLenses does after the
// numbers are cached) against the baseline of recounting the file's drawables for each request
// (a scan of the 10^6 drawables). Medians of alternating runs, same input, same process.
//   BENCH_SITES_DRAWABLES (default 1e6), BENCH_SITES_LINES (default 1e4)
import type { Primitive } from '../../src/core/model/types';
import { makePrimitive } from '../../src/core/model/types';
import { SiteStatsAccumulator } from '../../src/core/stats/siteStats';
import { SiteIndex } from '../../src/core/stats/siteIndex';
import { lensTitle } from '../../src/core/stats/siteText';

const N = Number(process.env.BENCH_SITES_DRAWABLES ?? 1e6);
const LINES = Number(process.env.BENCH_SITES_LINES ?? 1e4);
const RANKS = 16;
const FILE = '/home/user/app/solver.c';

function drawables(): Primitive[] {
  const out: Primitive[] = [];
  let seed = 12345;
  const rnd = (): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
  for (let i = 0; i < N; i++) {
    const rank = i % RANKS;
    const t0 = i * 1e-6;
    const t1 = t0 + rnd() * 1e-5;
    const line = 1 + Math.floor(rnd() * LINES);
    out.push(
      makePrimitive(
        1 + (line % 7),
        [
          { time: t0, lineID: rank },
          { time: t1, lineID: rank },
        ],
        undefined,
        { start: { file: FILE, line } },
      ),
    );
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

const meta = { categories: new Map(Array.from({ length: 8 }, (_, i) => [i, { name: `Cat${i}` }] as const)), lineIDMaps: [] };
const all = drawables();
const range = [-Infinity, Infinity] as const;

let t = performance.now();
const acc = new SiteStatsAccumulator(meta, range);
for (const d of all) acc.add(d);
const sites = acc.result();
const passMs = performance.now() - t;
t = performance.now();
const index = new SiteIndex({ range: [0, N * 1e-6], timelines: RANKS, sites });
const indexMs = performance.now() - t;

const fromIndex: number[] = [];
const scan: number[] = [];
let check = 0;
for (let run = 0; run < 7; run++) {
  t = performance.now();
  const titles = index.sitesOf(FILE).map((s) => lensTitle(s));
  fromIndex.push(performance.now() - t);
  check += titles.length;
  t = performance.now();
  // Baseline: count and total per line of the file by scanning every drawable.
  const counts = new Map<number, { count: number; total: number }>();
  for (const d of all) {
    const loc = d.source?.start;
    if (loc === undefined || loc.file !== FILE) continue;
    const c = counts.get(loc.line);
    if (c === undefined) counts.set(loc.line, { count: 1, total: d.latest - d.earliest });
    else {
      c.count++;
      c.total += d.latest - d.earliest;
    }
  }
  scan.push(performance.now() - t);
  check += counts.size;
}

const lens = median(fromIndex);
const base = median(scan);
console.log(`input: ${N} located states, ${sites.length} sites in one file, ${RANKS} ranks (synthetic, in memory)`);
console.log(`worker pass (per-site accumulate, incl. medians): ${passMs.toFixed(0)} ms; index build: ${indexMs.toFixed(1)} ms`);
console.log(`CodeLens titles of the file from the index: median ${lens.toFixed(2)} ms (7 runs); budget 100 ms: ${lens <= 100 ? 'met' : 'NOT met'}`);
console.log(`baseline (rescan of all drawables per request): median ${base.toFixed(1)} ms; ratio ${(base / lens).toFixed(0)}× (check ${check})`);
