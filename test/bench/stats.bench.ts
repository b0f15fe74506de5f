// Benchmark of exact range statistics (issue 7): a big SLOG-2 file is made once in a temp dir —
// `mpe-trace synth` (realistic CLOG2) + `mpe-trace convert` from the built CLI when dist/cli.js has
// them, else a simpler generator through our writer — then each measurement runs in a fresh child
// process so that process.resourceUsage().maxRSS is the statistics' own peak, not the generator's.
//   BENCH_STATS_MB      target SLOG-2 size in MiB (default 1024)
//   BENCH_STATS_SOURCE  synth | writer (default: synth when available)
// Measured: the whole trace and a 1 % range in the middle (time, drawables/s, peak RSS), each with
// the columnar stream (what the editor and the CLI use) and, as the baseline in the same run, the
// object query it replaced; runs alternate (BENCH_STATS_RUNS each, default 1 for the whole trace
// of the generated file, 3 otherwise), medians and the ratio.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { open } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Category, Drawable, LineIDMap } from '../../src/core/model/types';
import { makePrimitive } from '../../src/core/model/types';
import { Slog2File } from '../../src/core/formats/slog2/slog2File';
import { Slog2Writer } from '../../src/core/formats/slog2/writer';
import { computeRangeStats, exactStatsOfFile, nodeBatches } from '../../src/core/stats';
import { statsDecoded, threadDecoded } from '../../src/convert/decodeThread';
import { reportTarget } from './targets';
import { bundleNode } from '../helpers/bundle';
import { FileSink } from '../../src/io/fileSink';
import { FileSource } from '../../src/io/fileSource';
import { MemorySource } from '../../src/core/bytes/memorySource';
import { gunzipSync } from 'node:zlib';
import { fixture, sharedTracesDir } from '../helpers/paths';
import { describeBaseline, ratio, readScanBaseline } from './baseline';

const RANKS = 16;
const CATS: Category[] = [
  cat(0, 'message', 'arrow', ['msg_tag=', ', msg_size=', ''], 'dd'),
  cat(1, 'Main', 'state'),
  cat(2, 'Step', 'state'),
  cat(3, 'MPI_Isend', 'state'),
  cat(4, 'MPI_Irecv', 'state'),
  cat(5, 'MPI_Waitall', 'state'),
  cat(6, 'Mark', 'event'),
];

function cat(index: number, name: string, topology: Category['topology'], infoKeys: string[] = [], infoTypes = ''): Category {
  return { index, name, topology, rgba: [(index * 70) % 256, 120, 200, 255], modifiable: true, width: 1, infoKeys, infoTypes, methods: [] };
}

/** One iteration per rank: Step ⊃ Isend, Irecv, Waitall; a message to the next rank; an event. */
function iteration(i: number, out: Drawable[]): void {
  const base = 1 + i * 1e-3;
  for (let r = 0; r < RANKS; r++) {
    const j = ((i * 7 + r * 13) % 97) * 1e-7;
    const s0 = base + r * 1e-6 + j;
    const s = (a: number, b: number, c: number) =>
      makePrimitive(c, [
        { time: a, lineID: r },
        { time: b, lineID: r },
      ]);
    out.push(s(s0 + 1e-5, s0 + 2e-5, 3), s(s0 + 3e-5, s0 + 3.5e-5, 4), s(s0 + 4e-5, s0 + 6e-4 + j, 5));
    out.push(makePrimitive(6, [{ time: s0 + 5e-5, lineID: r }]));
    const info = new Uint8Array(8);
    new DataView(info.buffer).setInt32(0, i % 5);
    new DataView(info.buffer).setInt32(4, 64 << (i % 12));
    out.push(
      makePrimitive(
        0,
        [
          { time: s0 + 1.5e-5, lineID: r },
          { time: s0 + 5e-4, lineID: (r + 1) % RANKS },
        ],
        info,
      ),
    );
    out.push(s(s0, s0 + 7e-4 + j, 2));
  }
}

/** CLOG2 bytes per SLOG-2 byte after conversion (measured on synth output: 100 MB → 67 MB). */
const CLOG2_PER_SLOG2 = 1.5;

function synthAvailable(cli: string): boolean {
  if (!fs.existsSync(cli)) return false;
  const r = spawnSync(process.execPath, [cli, 'synth', '--help'], { encoding: 'utf8' });
  return r.status === 0 && /usage: mpe-trace synth/.test(r.stdout);
}

/** synth → convert with the built CLI; the CLOG2 is deleted once converted. */
function generateWithSynth(cli: string, dir: string, file: string, targetBytes: number): { bytes: number; drawables: number; seconds: number } {
  const started = performance.now();
  const clog2 = path.join(dir, 'synthetic.clog2');
  const mib = Math.max(1, Math.round((targetBytes * CLOG2_PER_SLOG2) / 2 ** 20));
  const synth = spawnSync(process.execPath, [cli, 'synth', '--ranks', String(RANKS), '--bytes', `${mib}M`, '--seed', '7', '-o', clog2], { encoding: 'utf8' });
  if (synth.status !== 0) throw new Error(`synth failed: ${synth.stderr}`);
  const conv = spawnSync(process.execPath, [cli, 'convert', clog2, '-o', file], { encoding: 'utf8' });
  if (conv.status !== 0) throw new Error(`convert failed: ${conv.stderr}`);
  fs.rmSync(clog2, { force: true });
  const drawables = Number(/(\d+) drawables/.exec(conv.stdout + conv.stderr)?.[1] ?? Number.NaN);
  return { bytes: fs.statSync(file).size, drawables, seconds: (performance.now() - started) / 1000 };
}

async function generate(file: string, targetBytes: number): Promise<{ bytes: number; drawables: number; seconds: number }> {
  const started = performance.now();
  const handle = await open(file, 'w');
  const sink = new FileSink(handle);
  const topo = new Map(CATS.map((c) => [c.index, c.topology]));
  const writer = new Slog2Writer(sink, { topologyOf: (c) => topo.get(c) });
  const batch: Drawable[] = [];
  let i = 0;
  // ~37 bytes per drawable on disk (measured), 6 drawables per rank and iteration.
  const iterations = Math.max(10, Math.round(targetBytes / (37 * 6 * RANKS)));
  for (; i < iterations; i++) {
    batch.length = 0;
    iteration(i, batch);
    batch.sort((a, b) => a.latest - b.latest || b.earliest - a.earliest);
    for (const d of batch) writer.add(d);
    if (writer.pendingBytes > 8 << 20) await writer.drain();
  }
  const end = 1 + i * 1e-3 + 1e-3;
  for (let r = 0; r < RANKS; r++)
    writer.add(
      makePrimitive(1, [
        { time: 0.5, lineID: r },
        { time: end, lineID: r },
      ]),
    );
  const maps: LineIDMap[] = [
    { title: 'Process View', columns: ['world_rank'], rows: Array.from({ length: RANKS }, (_, r) => ({ lineID: r, path: [r] })), methods: [] },
  ];
  const summary = await writer.finish({ categories: CATS, lineIDMaps: maps });
  await sink.flush();
  await handle.close();
  return { bytes: summary.bytes, drawables: summary.drawables, seconds: (performance.now() - started) / 1000 };
}

/**
 * columns: one thread; stream: the rows decoded in the decoder thread, counted here (the last
 * stop's way, the same-run baseline); halves: the later half decoded and counted in the decoder
 * thread, the earlier here (as the CLI and the analysis worker ask now); objects: the object query.
 */
type StatsPath = 'columns' | 'objects' | 'stream' | 'halves';

/** The decoder thread's script, bundled for the 'stream' and 'halves' paths (the CLI and the analysis worker find dist/decoder.js). */
const decoderScript = (): string => path.join(process.env.MPE_TRACE_ROOT ?? process.cwd(), 'out', 'bench', 'decoder.js');

/** Child: exact statistics of a fraction of the file; prints one JSON line. */
async function measure(file: string, fraction: number, how: StatsPath): Promise<void> {
  const started = performance.now();
  // Read on the thread, as the analysis worker and the CLI read.
  const source = file.endsWith('.gz')
    ? new MemorySource(file, new Uint8Array(gunzipSync(fs.readFileSync(file))))
    : await FileSource.open(file, { onThread: true });
  const f = await Slog2File.open(source);
  const [a, b] = f.timeRange;
  const mid = (a + b) / 2;
  const half = ((b - a) * fraction) / 2;
  const range: [number, number] = fraction >= 1 ? [a, b] : [mid - half, mid + half];
  // As the analysis worker and the CLI ask (a small range is decoded here: threadDecoded).
  const decoded = threadDecoded(f, { withLastAndInfo: true, withinNodes: true }, decoderScript());
  const s =
    how === 'columns'
      ? await exactStatsOfFile(f, range)
      : how === 'stream'
        ? await exactStatsOfFile(f, range, decoded ? { decoded } : {})
        : how === 'halves'
          ? await exactStatsOfFile(f, range, statsDecoded(f, undefined, decoderScript()))
          : await computeRangeStats(f, nodeBatches(f.query(range[0], range[1], { lowestDepth: 0 })), range);
  const seconds = (performance.now() - started) / 1000;
  const main = s.categories.find((c) => c.name === 'Step');
  process.stdout.write(
    JSON.stringify({
      fraction,
      seconds,
      drawables: s.drawables,
      nodesRead: f.nodesRead,
      maxRssMiB: process.resourceUsage().maxRSS / 1024,
      messages: s.messages.count,
      stepExclusive: main?.exclusive,
    }) + '\n',
  );
  await f.close();
}

/** The largest real SLOG-2 available: in ../shared/traces, else the bigrun fixture. */
function largestRealSlog2(): string {
  const found =
    sharedTracesDir === undefined
      ? []
      : fs
          .readdirSync(sharedTracesDir)
          .filter((n) => n.endsWith('.slog2'))
          .map((n) => path.join(sharedTracesDir!, n));
  found.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
  return found[0] ?? fixture('bigrun_medium_4.slog2.gz');
}

interface Measured {
  seconds: number;
  drawables: number;
  maxRssMiB: number;
  nodesRead: number;
}

function child(file: string, fraction: number, how: StatsPath): Measured {
  const r = spawnSync(process.execPath, [process.argv[1]!, '--measure', file, String(fraction), how], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`measurement failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Measured;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** `target`: the target for this file's whole-trace figure (the 1 GB synthetic), reported for the run's table. */
async function runMeasurements(file: string, wholeRuns: number, target?: string): Promise<void> {
  const baseline = file.endsWith('.gz') ? undefined : await readScanBaseline(file);
  if (baseline) console.log(`stats bench: ${describeBaseline(baseline)}`);
  for (const fraction of [1, 0.01]) {
    const runs = fraction >= 1 ? wholeRuns : 3;
    // Decoded in a second thread only for files on disk (as the CLI and the analysis worker do).
    const paths: StatsPath[] = file.endsWith('.gz') ? ['objects', 'columns'] : ['objects', 'columns', 'stream', 'halves'];
    const by: Record<StatsPath, Measured[]> = { columns: [], objects: [], stream: [], halves: [] };
    for (let i = 0; i < runs; i++) for (const how of paths) by[how].push(child(file, fraction, how));
    const label = fraction >= 1 ? 'whole trace' : `${fraction * 100} % range`;
    const names: Record<StatsPath, string> = {
      halves: 'two halves, the later one in the decoder thread',
      stream: 'rows from the decoder thread (last stop)',
      columns: 'columnar stream, one thread',
      objects: 'object query (baseline)',
    };
    for (const how of [...paths].reverse()) {
      const m = by[how];
      const s = median(m.map((x) => x.seconds));
      console.log(
        `stats bench: ${label}, ${names[how]}: median ${s.toFixed(2)} s of ${m.length} [${m.map((x) => x.seconds.toFixed(2)).join(', ')}], ` +
          `${m[0]!.drawables} drawables (${(m[0]!.drawables / s / 1e6).toFixed(2)} M/s), peak RSS ${median(m.map((x) => x.maxRssMiB)).toFixed(0)} MiB` +
          (baseline ? `; ${ratio(s, baseline)}` : ''),
      );
    }
    const speedup = median(by.objects.map((x) => x.seconds)) / median(by.columns.map((x) => x.seconds));
    console.log(`stats bench: ${label}: object query / columnar stream ×${speedup.toFixed(2)}`);
    if (by.halves.length > 0) {
      const halves = median(by.halves.map((x) => x.seconds));
      const vs = (how: StatsPath): string =>
        `${how === 'columns' ? 'one thread' : 'rows from the decoder thread'} ×${(median(by[how].map((x) => x.seconds)) / halves).toFixed(2)}`;
      const mismatch = by.halves.some((x) => x.drawables !== by.columns[0]!.drawables) ? ' — DRAWABLE COUNTS DIFFER' : '';
      console.log(
        `stats bench: ${label}: two halves ${halves.toFixed(2)} s; against ${vs('columns')}, ${vs('stream')} (target: whole 1 GB trace ≤ 5 s)${mismatch}`,
      );
      if (target !== undefined && fraction >= 1) {
        const one = median(by.columns.map((x) => x.seconds));
        reportTarget({
          target,
          figure: `${halves.toFixed(2)} s (median of ${by.halves.length})`,
          baseline: `one thread ${one.toFixed(2)} s; object query ${median(by.objects.map((x) => x.seconds)).toFixed(2)} s`,
          ratio: `×${(one / halves).toFixed(2)} vs one thread`,
          met: halves <= 5 && mismatch === '',
        });
      }
    }
  }
}

async function main(): Promise<void> {
  if (process.argv[2] === '--measure') {
    const how = process.argv[5];
    return measure(process.argv[3]!, Number(process.argv[4]), how === 'objects' || how === 'stream' || how === 'halves' ? how : 'columns');
  }
  bundleNode('src/worker/decoder.ts', decoderScript());
  const real = largestRealSlog2();
  console.log(`stats bench: ${path.basename(real)} (${(fs.statSync(real).size / 2 ** 20).toFixed(1)} MiB on disk)`);
  await runMeasurements(real, 3);
  const mib = Number(process.env.BENCH_STATS_MB ?? 1024);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-stats-bench-'));
  const file = path.join(dir, 'synthetic.slog2');
  try {
    const cli = path.join(process.env.MPE_TRACE_ROOT ?? process.cwd(), 'dist', 'cli.js');
    const useSynth = process.env.BENCH_STATS_SOURCE !== 'writer' && synthAvailable(cli);
    const g = useSynth ? generateWithSynth(cli, dir, file, mib * 2 ** 20) : await generate(file, mib * 2 ** 20);
    console.log(
      `stats bench: generated ${(g.bytes / 2 ** 20).toFixed(0)} MiB SLOG-2 (${useSynth ? 'mpe-trace synth + convert' : 'writer generator'}), ${g.drawables} drawables, ${RANKS} ranks in ${g.seconds.toFixed(1)} s`,
    );
    await runMeasurements(file, Math.max(1, Number(process.env.BENCH_STATS_RUNS ?? 1)), `exact whole-trace statistics of a ${mib} MiB SLOG-2 ≤ 5 s`);
  } finally {
    if (process.env.BENCH_KEEP === undefined) fs.rmSync(dir, { recursive: true, force: true });
    else console.log(file);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
