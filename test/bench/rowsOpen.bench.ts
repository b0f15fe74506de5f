// Opening wide traces (issue 16). Figures only, no pass/fail; ratios from the same run.
//
// 1. The row index written by the converter (`mpe-trace convert --index`, no second pass) against
//    converting and then indexing (`convert` + `index`): wall time and peak RSS, alternating A/B
//    runs, medians. Input: a 4096-rank synthetic CLOG2 (bench-out/open-4096.clog2, made once).
// 2. The host's part of the first paint of that trace as the editor opens it: open the SLOG-2,
//    then the main timeline's first window (1200 px, the first 128 rows, whole run) and the overview
//    of every row asked at the same moment, through the core WindowServer (as the host does), with
//    and without the row index: when the main coarse and final answers arrive after the open began.
// 3. A scroll while the overview of every row is being built: the main timeline asks for other rows
//    (through the row index) 50 ms after the overview began; how long its answer takes when the
//    overview is built on the host's thread and when it is built in the worker (host/windowWorker.ts).
// MPE_BENCH_OPEN_RUNS (default 3) sets the A/B runs.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Slog2File } from '../../src/core/formats/slog2/slog2File';
import { rowLayoutOf } from '../../src/core/query/rows';
import { RowKeyMapper } from '../../src/core/query/indexedSource';
import { WindowServer, type WindowAnswer, type WindowServerOptions } from '../../src/core/query/windowServer';
import { readsEveryRow } from '../../src/core/query/windowService';
import { AnalysisClient } from '../../src/worker/analysisClient';
import { bundleNode } from '../helpers/bundle';
import type { IndexedRows } from '../../src/core/query/windowService';
import { FileSource } from '../../src/io/fileSource';
import { openRowIndexFile } from '../../src/io/rowIndexFile';
import { repoRoot } from '../helpers/paths';

const RANKS = 4096;
const outDir = path.join(repoRoot, 'bench-out');
const cliJs = path.join(repoRoot, 'dist', 'cli.js');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const f2 = (x: number): string => x.toFixed(2);

function run(args: string[]): { seconds: number; rssMiB: number } {
  const started = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', 'TIME %M', process.execPath, cliJs, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mpe-trace ${args.join(' ')} failed: ${r.stderr}`);
  const m = /TIME (\d+)/.exec(r.stderr);
  return { seconds: (performance.now() - started) / 1000, rssMiB: m ? Number(m[1]) / 1024 : NaN };
}

function input(): string {
  const clog2 = path.join(outDir, `open-${RANKS}.clog2`);
  if (!fs.existsSync(clog2)) {
    fs.mkdirSync(outDir, { recursive: true });
    console.log(`making ${path.basename(clog2)} (synth, once)…`);
    run(['synth', '--ranks', String(RANKS), '--bytes', '60M', '--seed', '16', '-o', clog2]);
  }
  return clog2;
}

function conversionAB(clog2: string, runs: number): string {
  const a = path.join(outDir, 'open-a.slog2');
  const b = path.join(outDir, 'open-b.slog2');
  const twoPass: { seconds: number; rss: number }[] = [];
  const direct: { seconds: number; rss: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const c = run(['convert', clog2, '-o', a, '--force', '--quiet']);
    const x = run(['index', a]);
    twoPass.push({ seconds: c.seconds + x.seconds, rss: Math.max(c.rssMiB, x.rssMiB) });
    const d = run(['convert', clog2, '-o', b, '--force', '--quiet', '--index']);
    direct.push({ seconds: d.seconds, rss: d.rssMiB });
  }
  const mA = median(twoPass.map((r) => r.seconds));
  const mB = median(direct.map((r) => r.seconds));
  console.log(
    `${path.basename(clog2)}: ${(fs.statSync(clog2).size / 1e6).toFixed(0)} MB CLOG2 → ${(fs.statSync(b).size / 1e6).toFixed(0)} MB SLOG-2, ${runs} alternating runs`,
  );
  console.log(
    `  convert, then index (two passes): median ${f2(mA)} s [${twoPass.map((r) => f2(r.seconds)).join(', ')}], peak RSS ${Math.max(...twoPass.map((r) => r.rss)).toFixed(0)} MiB`,
  );
  console.log(
    `  convert --index (index written by the converter): median ${f2(mB)} s [${direct.map((r) => f2(r.seconds)).join(', ')}], peak RSS ${Math.max(...direct.map((r) => r.rss)).toFixed(0)} MiB`,
  );
  console.log(`  ratio two passes / direct: ×${(mA / mB).toFixed(2)}`);
  fs.rmSync(a, { force: true });
  fs.rmSync(`${a}.mperowidx`, { force: true });
  return b;
}

/** The trace opened as the host opens it (with its row index when asked) and a window server over it with a plain cache. */
async function openServed(
  slog2: string,
  withIndex: boolean,
  onAnswer: (a: WindowAnswer) => void,
  options: WindowServerOptions = {},
): Promise<{ file: Slog2File; rowIndex: IndexedRows | undefined; server: WindowServer }> {
  const file = await Slog2File.open(await FileSource.open(slog2));
  let rowIndex: IndexedRows | undefined;
  if (withIndex) {
    const o = await openRowIndexFile(file, slog2, `${slog2}.mperowidx`);
    if (!('index' in o)) throw new Error(o.problem);
    rowIndex = { index: o.index, mapper: new RowKeyMapper(o.index), damaged: () => undefined };
  }
  const layouts = file.lineIDMaps.map(rowLayoutOf);
  const cache = new Map<string, never>();
  const server = new WindowServer(
    {
      generation: 1,
      opened: { file, layouts },
      windows: { get: (k) => cache.get(k), set: (k, w) => void cache.set(k, w as never) },
      marksVersion: 0,
      siteMarker: undefined,
      rowIndex,
    },
    onAnswer,
    options,
  );
  return { file, rowIndex, server };
}

async function firstWindow(slog2: string, withIndex: boolean): Promise<{ coarse: number; final: number; overview: number }> {
  const t0 = performance.now();
  const at: Record<string, number> = {};
  const { file, rowIndex, server } = await openServed(slog2, withIndex, (a) => {
    const key = `${a.requestId}${a.kind === 'window' && a.final ? 'f' : 'c'}`;
    at[key] ??= performance.now() - t0;
  });
  const [a, b] = file.timeRange;
  const request = (rowEnd: number) => ({ t0: a, t1: b, rowStart: 0, rowEnd, mapIndex: 0, pixelWidth: 1200, visibleSpan: b - a });
  await Promise.all([
    server.serve({ requestId: 1, generation: 1, channel: 'main', request: request(128) }),
    server.serve({ requestId: 2, generation: 1, channel: 'overview', request: request(RANKS) }),
  ]);
  await rowIndex?.index.close();
  await file.close();
  return { coarse: at['1c'] ?? at['1f']!, final: at['1f']!, overview: at['2f']! };
}

/** ms from asking for rows 1000-1128 (50 ms into the overview's build) to their final answer. */
async function scrollDuringOverview(slog2: string, worker: AnalysisClient | undefined): Promise<{ scroll: number; overview: number }> {
  const at: Record<string, number> = {};
  const offThread: WindowServerOptions['offThread'] =
    worker === undefined
      ? undefined
      : (r, layout, depth, signal) =>
          readsEveryRow(layout.labels.length, r.rowStart, r.rowEnd, true) ? worker.window(slog2, r, depth, { signal }) : undefined;
  const { file, rowIndex, server } = await openServed(
    slog2,
    true,
    (a) => {
      if (a.kind === 'window' && a.final) at[a.requestId] ??= performance.now();
    },
    offThread !== undefined ? { offThread } : {},
  );
  const [a, b] = file.timeRange;
  const request = (rowStart: number, rowEnd: number) => ({ t0: a, t1: b, rowStart, rowEnd, mapIndex: 0, pixelWidth: 1200, visibleSpan: b - a });
  await server.serve({ requestId: 1, generation: 1, channel: 'main', request: request(0, 128) });
  const started = performance.now();
  const overview = server.serve({ requestId: 2, generation: 1, channel: 'overview', request: request(0, RANKS) });
  await new Promise((r) => setTimeout(r, 50));
  const asked = performance.now();
  await Promise.all([overview, server.serve({ requestId: 3, generation: 1, channel: 'main', request: request(1000, 1128) })]);
  await rowIndex?.index.close();
  await file.close();
  return { scroll: at[3]! - asked, overview: at[2]! - started };
}

async function main(): Promise<void> {
  if (!fs.existsSync(cliJs)) throw new Error('dist/cli.js missing: run `npm run build` first');
  const runs = Number(process.env.MPE_BENCH_OPEN_RUNS ?? 3);
  const slog2 = conversionAB(input(), runs);
  console.log(
    `\nfirst window of ${path.basename(slog2)} as the editor opens it (host side; main rows 0-128 and the overview of ${RANKS} rows asked together):`,
  );
  const plain: number[][] = [];
  const indexed: number[][] = [];
  for (let i = 0; i < runs; i++) {
    const p = await firstWindow(slog2, false);
    plain.push([p.coarse, p.final, p.overview]);
    const x = await firstWindow(slog2, true);
    indexed.push([x.coarse, x.final, x.overview]);
  }
  const col = (rows: number[][], i: number): number => median(rows.map((r) => r[i]!));
  const show = (label: string, rows: number[][]): void =>
    console.log(
      `  ${label.padEnd(12)} main coarse ${col(rows, 0).toFixed(0)} ms, main final ${col(rows, 1).toFixed(0)} ms, overview final ${col(rows, 2).toFixed(0)} ms (medians of ${runs})`,
    );
  show('plain', plain);
  show('row index', indexed);
  console.log(`  main final, plain / row index: ×${(col(plain, 1) / col(indexed, 1)).toFixed(2)}`);

  const worker = new AnalysisClient(bundleNode('src/worker/analysis.ts', path.join(repoRoot, 'out', 'bench', 'analysis-worker.js')), { idleMs: 60_000 });
  const here: { scroll: number; overview: number }[] = [];
  const there: { scroll: number; overview: number }[] = [];
  for (let i = 0; i < runs; i++) {
    here.push(await scrollDuringOverview(slog2, undefined));
    there.push(await scrollDuringOverview(slog2, worker));
  }
  worker.dispose();
  const m = (xs: { scroll: number; overview: number }[], k: 'scroll' | 'overview'): number => median(xs.map((x) => x[k]));
  console.log(`\na scroll (rows 1000-1128, via the index) asked 50 ms into the overview's build of ${RANKS} rows (medians of ${runs}):`);
  console.log(`  overview on the host thread: scroll answered in ${m(here, 'scroll').toFixed(0)} ms, overview in ${m(here, 'overview').toFixed(0)} ms`);
  console.log(`  overview in the worker:      scroll answered in ${m(there, 'scroll').toFixed(0)} ms, overview in ${m(there, 'overview').toFixed(0)} ms`);
  console.log(`  scroll latency, host thread / worker: ×${(m(here, 'scroll') / m(there, 'scroll')).toFixed(1)}`);
  fs.rmSync(slog2, { force: true });
  fs.rmSync(`${slog2}.mperowidx`, { force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
