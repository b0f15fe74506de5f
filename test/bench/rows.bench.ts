// Rows × time benchmark (issue 16). Figures only, no pass/fail; ratios come from the same run.
//
// Inputs (made once with dist/cli.js synth + convert, cached in bench-out/, gitignored):
//   rows-4096.slog2   4096 ranks, ~1 GB SLOG-2 (synth --bytes 350M; ~10 min to make on a loaded 2-core machine)
//   rows-16384.slog2  16 384 ranks, same CLOG2 size
//   rows-16.slog2     16 ranks, ~100 MB (few-row traces: no regression)
// MPE_BENCH_ROWS_INPUTS=4096,16 limits which inputs run (default all three).
// Per input: row-index build (median of 3: MB/s of SLOG-2 wall and CPU, peak RSS of a separate build process,
// index size ratio); then, at 1200 px and 40 visible rows, for a window of the same span in the
// middle of the trace: plain query (all rows; 40 rows) against the index (40 rows) —
// nodesRead / bytesRead / decoded / returned / ms, the first exact (depth 0) 40-row window from
// a fresh open, and the p95 of 90 scroll steps (a quarter span each) with 40 rows (plain: 6 steps).
// Then, with both wide inputs: the first window after a fresh open at 7 places, the two widths
// alternating for 3 rounds, and the 16 384 / 4096 ratios.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Slog2File } from '../../src/core/formats/slog2/slog2File';
import { chooseLowestDepth } from '../../src/core/formats/slog2/levelOfDetail';
import { nodeBudget } from '../../src/core/query/lod';
import { rowLayoutOf } from '../../src/core/query/rows';
import type { WindowSpec } from '../../src/core/query/buildWindow';
import { RowKeyMapper } from '../../src/core/query/indexedSource';
import type { RowIndex } from '../../src/core/index/rowIndex';
import { profiledWindow, type QueryProfile } from '../../src/core/query/windowProfile';
import { FileSource } from '../../src/io/fileSource';
import { openRowIndexFile } from '../../src/io/rowIndexFile';
import { repoRoot } from '../helpers/paths';

const WIDTH_PX = 1200;
const ROWS = 40;
const outDir = path.join(repoRoot, 'bench-out');
const cliJs = path.join(repoRoot, 'dist', 'cli.js');

function cli(args: string[]): string {
  const r = spawnSync(process.execPath, [cliJs, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mpe-trace ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

function input(ranks: number): string {
  const slog2 = path.join(outDir, `rows-${ranks}.slog2`);
  if (fs.existsSync(slog2)) return slog2;
  fs.mkdirSync(outDir, { recursive: true });
  const clog2 = slog2.replace(/\.slog2$/, '.clog2');
  console.log(`making ${path.basename(slog2)} (synth + convert, once; minutes)…`);
  cli(['synth', '--ranks', String(ranks), '--bytes', ranks <= 16 ? '60M' : '350M', '--seed', '16', '-o', clog2]);
  cli(['convert', clog2, '-o', slog2]);
  fs.rmSync(clog2, { force: true });
  return slog2;
}

const f1 = (x: number): string => x.toFixed(1);
const pct = (a: number, b: number): string => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(2)} %`);
const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)]!;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const line = (label: string, p: QueryProfile): string =>
  `  ${label.padEnd(34)} nodesRead ${String(p.nodesRead).padStart(5)}  bytesRead ${String(p.bytesRead).padStart(11)}  decoded ${String(p.decoded).padStart(8)}  returned ${String(p.returned).padStart(7)}  ${f1(p.ms).padStart(7)} ms`;

/** Builds the index in a child process (its own peak RSS) and reports the figures. */
function buildIndex(slog2: string): { seconds: number; cpu: number; rssMiB: number; ratio: number } {
  const started = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', 'TIME %U %S %M', process.execPath, cliJs, 'index', slog2], { encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`index build failed: ${r.stderr}`);
  const m = /TIME ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr);
  const idx = fs.statSync(`${slog2}.mperowidx`).size;
  return { seconds, cpu: m ? Number(m[1]) + Number(m[2]) : NaN, rssMiB: m ? Number(m[3]) / 1024 : NaN, ratio: idx / fs.statSync(slog2).size };
}

/** A fresh open of the trace and its index, as the editor opens them (the row → key table of the shown map built). */
async function openWithIndex(slog2: string): Promise<{ file: Slog2File; index: { index: RowIndex; mapper: RowKeyMapper } }> {
  const file = await Slog2File.open(await FileSource.open(slog2));
  const opened = await openRowIndexFile(file, slog2, `${slog2}.mperowidx`);
  if (!('index' in opened)) throw new Error(opened.problem);
  const mapper = new RowKeyMapper(opened.index);
  const shown = opened.index.keys.mapIndex;
  mapper.keyRanges(rowLayoutOf(file.lineIDMaps[shown]!), shown, 0, 1);
  return { file, index: { index: opened.index, mapper } };
}

/**
 * The first 40-row window after a fresh open, at 7 places spread over rows and time (ms each).
 * One cold window is at the mercy of the machine (×0.4 to ×3.6 between two runs at 16 384 ranks
 * against 4096): main() alternates the widths, 3 rounds each, and compares medians of 21.
 */
async function freshOpenWindows(slog2: string): Promise<number[]> {
  const out: number[] = [];
  for (let k = 0; k < 7; k++) {
    const { file, index } = await openWithIndex(slog2);
    // The open's garbage (16 384 Y-map rows and their labels) collected first: a collection
    // falling inside the window measured 20-50 ms at 16 384 ranks (the bench runs with --expose-gc).
    (globalThis as { gc?: () => void }).gc?.();
    try {
      const mapIndex = index.index.keys.mapIndex;
      const layout = rowLayoutOf(file.lineIDMaps[mapIndex]!);
      const [a, z] = file.timeRange;
      const span = Math.min((z - a) / 20, 400e-6);
      const r0 = Math.floor(((k + 0.5) / 7) * (layout.labels.length - ROWS));
      const t0 = a + (z - a - span) * ((k + 0.5) / 7);
      const spec: WindowSpec = { t0, t1: t0 + span, rowStart: r0, rowEnd: r0 + ROWS, mapIndex, lowestDepth: 0, rowOfLine: layout.rowOfLine };
      out.push((await profiledWindow(file, layout, spec, index)).profile.ms);
    } finally {
      await index.index.close();
      await file.close();
    }
  }
  return out;
}

async function measure(ranks: number): Promise<{ perWindow: QueryProfile; manyMedian: number; scrollP95: number } | undefined> {
  const slog2 = input(ranks);
  const size = fs.statSync(slog2).size;
  console.log(`\n${path.basename(slog2)}: ${(size / 1e6).toFixed(0)} MB`);
  // Three builds, each from scratch, the median reported: one build swung 148-196 MB/s between
  // runs at 16 384 ranks on this VM, where writing new file pages costs ~3 ms per MB.
  const builds = [0, 1, 2].map(() => {
    fs.rmSync(`${slog2}.mperowidx`, { force: true });
    return buildIndex(slog2);
  });
  const b = [...builds].sort((x, y) => x.seconds - y.seconds)[1]!;
  console.log(
    `  index build, median of 3: ${f1(b.seconds)} s wall (${f1(size / 1e6 / b.seconds)} MB/s; all ${builds.map((x) => f1(size / 1e6 / x.seconds)).join(', ')}), ${f1(b.cpu)} s CPU (${f1(size / 1e6 / b.cpu)} MB/s per CPU second), peak RSS ${f1(Math.max(...builds.map((x) => x.rssMiB)))} MiB (highest of 3), index ${b.ratio.toFixed(3)}× the SLOG-2`,
  );

  // Fresh open: first exact 40-row window (depth 0) through the index.
  const { file, index } = await openWithIndex(slog2);
  const mapIndex = index.index.keys.mapIndex;
  const layout = rowLayoutOf(file.lineIDMaps[mapIndex]!);
  const [a, z] = file.timeRange;
  // A span in which 40 rows show each of their states (the 4096-rank trace's iteration ≈ 0.2–0.5 ms).
  const span = Math.min((z - a) / 20, 400e-6);
  const mid = a + (z - a) / 2;
  const rowStart = Math.floor(layout.labels.length / 2);
  const spec = (t0: number, rows: [number, number], depth: number): WindowSpec => ({
    t0,
    t1: t0 + span,
    rowStart: rows[0],
    rowEnd: rows[1],
    mapIndex,
    lowestDepth: depth,
    rowOfLine: layout.rowOfLine,
  });
  const rows40: [number, number] = [rowStart, Math.min(layout.labels.length, rowStart + ROWS)];
  const allRows: [number, number] = [0, layout.labels.length];

  const first = await profiledWindow(file, layout, spec(mid, rows40, 0), index);
  console.log(line(`first exact window, ${ROWS} rows (index)`, first.profile));

  // Same span, same depth as the editor would choose for all rows (LOD from the tree at 1200 px).
  const lodDepth = chooseLowestDepth(file, mid, mid + span, nodeBudget(WIDTH_PX, span, span));
  const plainAll = await (async () => {
    const f = await Slog2File.open(await FileSource.open(slog2));
    try {
      return (await profiledWindow(f, layout, spec(mid, allRows, 0))).profile;
    } finally {
      await f.close();
    }
  })();
  const plain40 = await (async () => {
    const f = await Slog2File.open(await FileSource.open(slog2));
    try {
      return (await profiledWindow(f, layout, spec(mid, rows40, 0))).profile;
    } finally {
      await f.close();
    }
  })();
  // Each from a fresh open (the index keeps decoded segments, which would serve the second query).
  const viaFreshIndex = async (rows: [number, number]): Promise<QueryProfile> => {
    const { file: f2, index: i2 } = await openWithIndex(slog2);
    try {
      return (await profiledWindow(f2, layout, spec(mid, rows, 0), i2)).profile;
    } finally {
      await i2.index.close();
      await f2.close();
    }
  };
  const idx40 = await viaFreshIndex(rows40);
  const idxAll = await viaFreshIndex(allRows);
  console.log(
    `  window ${(span * 1e6).toFixed(0)} µs at the middle, depth 0 (the editor's LOD for all rows at ${WIDTH_PX} px: depth ${lodDepth}), cold caches:`,
  );
  console.log(line('plain, all rows', plainAll));
  console.log(line(`plain, ${ROWS} rows`, plain40));
  console.log(line('index, all rows', idxAll));
  console.log(line(`index, ${ROWS} rows`, idx40));
  console.log(
    `  ${ROWS} rows via index / all rows plain: bytesRead ${pct(idx40.bytesRead, plainAll.bytesRead)}, decoded ${pct(idx40.decoded, plainAll.decoded)}, ms ${pct(idx40.ms, plainAll.ms)}`,
  );
  console.log(
    `  ${ROWS} rows via index / all rows via index: bytesRead ${pct(idx40.bytesRead, idxAll.bytesRead)}, decoded ${pct(idx40.decoded, idxAll.decoded)}`,
  );

  // Scrolling with 40 rows: 90 steps of a quarter span through the index (the p95 of 30 swung
  // ×0.9 to ×1.8 between runs at 16 384 against 4096 ranks), a few through the plain query.
  const scroll = async (viaIndex: boolean, steps: number): Promise<number[]> => {
    const ms: number[] = [];
    for (let k = 1; k <= steps; k++) {
      const t0 = mid + (k * span) / 4;
      if (t0 + span > z) break;
      ms.push((await profiledWindow(file, layout, spec(t0, rows40, 0), viaIndex ? index : undefined)).profile.ms);
    }
    return ms;
  };
  const sIdx = await scroll(true, 90);
  // The plain query reads every row (seconds per step on wide traces): a few steps suffice.
  const sPlain = await scroll(false, 6);
  console.log(
    `  scroll, ${ROWS} rows: index ${sIdx.length} steps median ${f1(median(sIdx))} ms p95 ${f1(p95(sIdx))} ms; plain ${sPlain.length} steps median ${f1(median(sPlain))} ms max ${f1(Math.max(...sPlain))} ms`,
  );
  // The fresh opens' question on one open reader (after the scroll, whose caches it would warm):
  // 150 windows at places spread over rows and time (golden-ratio steps, none repeated), the first
  // 30 not counted (JIT warm-up). Each reads other nodes and segments, so caches rarely serve it:
  // a steadier per-window figure than fresh opens.
  const many: number[] = [];
  for (let k = 0; k < 150; k++) {
    const r0 = Math.floor(((k * 0.618034) % 1) * (layout.labels.length - ROWS));
    const t0 = a + (z - a - span) * ((k * 0.414214) % 1);
    const ms = (await profiledWindow(file, layout, spec(t0, [r0, r0 + ROWS], 0), index)).profile.ms;
    if (k >= 30) many.push(ms);
  }
  const p90 = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length * 0.9)]!;
  console.log(`  ${ROWS} rows via index, one reader, 120 places (rows and time spread): median ${f1(median(many))} ms, p90 ${f1(p90(many))} ms`);
  await index.index.close();
  await file.close();
  return { perWindow: idx40, manyMedian: median(many), scrollP95: p95(sIdx) };
}

async function main(): Promise<void> {
  if (!fs.existsSync(cliJs)) throw new Error('dist/cli.js missing: run `npm run build` first');
  const which = (process.env.MPE_BENCH_ROWS_INPUTS ?? '4096,16384,16').split(',').map(Number);
  const load = fs.existsSync('/proc/loadavg') ? fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ') : 'n/a';
  console.log(`rows × time bench; load average at start ${load}`);
  const results = new Map<number, { perWindow: QueryProfile; manyMedian: number; scrollP95: number } | undefined>();
  for (const r of which) results.set(r, await measure(r));
  const r4 = results.get(4096);
  const r16 = results.get(16384);
  if (r4 && r16) {
    // First windows after fresh opens, the two widths alternating (same page-cache state for both).
    const fresh = new Map<number, number[]>([
      [4096, []],
      [16384, []],
    ]);
    for (let round = 0; round < 3; round++) for (const r of [4096, 16384]) fresh.get(r)!.push(...(await freshOpenWindows(input(r))));
    for (const [r, ms] of fresh)
      console.log(
        `\nrows-${r}: ${ROWS} rows via index, first window after a fresh open, 7 places × 3 rounds alternating: median ${f1(median(ms))} ms [${ms.map(f1).join(', ')}]`,
      );
    const spread4 = median(fresh.get(4096)!);
    const spread16 = median(fresh.get(16384)!);
    console.log(
      `\n16384 / 4096 ranks, 40-row window: bytesRead ×${(r16.perWindow.bytesRead / r4.perWindow.bytesRead).toFixed(2)}, decoded ×${(r16.perWindow.decoded / r4.perWindow.decoded).toFixed(2)}, ms (one cold window) ×${(r16.perWindow.ms / r4.perWindow.ms).toFixed(2)}, ms (median of 21 fresh opens) ×${(spread16 / spread4).toFixed(2)}, ms (median of 120 places, one reader) ×${(r16.manyMedian / r4.manyMedian).toFixed(2)}, scroll p95 ×${(r16.scrollP95 / r4.scrollP95).toFixed(2)}`,
    );
  }
  const loadEnd = fs.existsSync('/proc/loadavg') ? fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ') : 'n/a';
  console.log(`load average at end ${loadEnd}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
