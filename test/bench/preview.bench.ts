// A big CLOG2 on screen in about a second (issue 21): the editor converts the file's first 2 MiB
// (plus the definitions in its last blocks) and shows that preview while the whole file converts.
// Measured here on a synthesized 3 GiB CLOG2 (cached under out/bench-data), host side, as the
// editor does it: the preview's conversion in a fresh conversion worker, its SLOG-2 opened, the first window
// (whole preview, 1200 px, coarse answer first when the host would send one) built — against the
// wait before previews existed: the whole conversion, then the same open and first window.
// Alternating rounds, medians. The webview's paint after that is timed by the e2e test.
// Then the rest filling in: the whole conversion with the editor's snapshots (every 1.5 s), each
// opened over the temporary file and its first window built as the host does, against the same
// conversion without them: how often the view moves on, and what the snapshots cost.
//   MPE_BENCH_PREVIEW_GB=3 MPE_BENCH_PREVIEW_ROUNDS=3 node test/bench/run.mjs preview
import fs from 'node:fs';
import path from 'node:path';
import { synthesizeClog2File } from '../../src/io/synthFile';
import { bundledScript } from '../../src/convert/threadScripts';
import { startConversion } from '../../src/worker/conversionClient';
import { Slog2File } from '../../src/core/formats/slog2/slog2File';
import { FileSource } from '../../src/io/fileSource';
import { defaultMapIndex, rowLayoutOf } from '../../src/core/query/rows';
import { keySpan, windowKeyFor, type VisibleWindow } from '../../src/core/query/windowKey';
import { buildRequestedWindow, coarseDepthFor, depthFor } from '../../src/core/query/windowService';
import type { WindowRequest } from '../../src/protocol/webview';
import { LatestOnly, PREVIEW_PREFIX_BYTES } from '../../src/host/conversionPreview';
import { snapshotSource } from '../../src/core/formats/slog2/writer/snapshot';
import type { SnapshotFile } from '../../src/protocol/worker';
import { reportTarget } from './targets';

const root = process.env.MPE_TRACE_ROOT ?? process.cwd();
const gib = Number(process.env.MPE_BENCH_PREVIEW_GB ?? 3);
const rounds = Number(process.env.MPE_BENCH_PREVIEW_ROUNDS ?? 3);
const dataDir = path.join(root, 'out', 'bench-data');
// MPE_BENCH_PREVIEW_INPUT: another CLOG2 instead (e.g. a wide one); it is not synthesized.
const input = process.env.MPE_BENCH_PREVIEW_INPUT ?? path.join(dataDir, `preview-${gib}G.clog2`);
const output = path.join(dataDir, `${path.basename(input, '.clog2')}.slog2`);
const WIDTH_PX = 1200;
const VISIBLE_ROWS = 40;
/** As the editor asks (traceDocument.ts). */
const SNAPSHOT_EVERY_MS = 1500;

interface Opened {
  readonly ms: number;
  readonly drawables: number;
  readonly span: readonly [number, number];
}

/** Opens a SLOG-2 and builds its first window as the host does (coarse first when it would). */
async function openAndFirstWindow(file: string): Promise<Omit<Opened, 'ms'>> {
  const slog2 = await Slog2File.open(await FileSource.open(file));
  try {
    return await firstWindow(slog2);
  } finally {
    await slog2.close();
  }
}

/** The first window of a view of the whole file, as the host builds it (coarse first when it would). */
async function firstWindow(slog2: Slog2File): Promise<Omit<Opened, 'ms'>> {
  const mapIndex = defaultMapIndex(slog2.lineIDMaps);
  const layout = rowLayoutOf(slog2.lineIDMaps[mapIndex]!);
  const [a, b] = slog2.timeRange;
  const rows = layout.labels.length;
  const v: VisibleWindow = { t0: a, t1: b, rowStart: 0, rowEnd: Math.min(rows, VISIBLE_ROWS), rowCount: rows, mapIndex, pixelWidth: WIDTH_PX };
  const key = windowKeyFor(v);
  const [t0, t1] = keySpan(key);
  const request: WindowRequest = { t0, t1, rowStart: key.rowStart, rowEnd: key.rowEnd, mapIndex, pixelWidth: WIDTH_PX, visibleSpan: b - a };
  const depth = depthFor(slog2, request);
  const coarse = coarseDepthFor(slog2, request, depth);
  const w = await buildRequestedWindow(slog2, layout, request, coarse > depth ? coarse : depth);
  return { drawables: w.states.count + w.shadows.count + w.arrows.count + w.events.count, span: [a, b] };
}

/** A whole conversion with the editor's snapshots, each opened and its first window built when it comes (one at a time, newest first). */
async function withSnapshots(): Promise<{ readonly ms: number; readonly shownAt: number[]; readonly ends: number[] }> {
  const script = bundledScript('worker.js')!;
  const t = performance.now();
  const shownAt: number[] = [];
  const ends: number[] = [];
  const show = new LatestOnly<SnapshotFile>(async (s) => {
    const source = snapshotSource(await FileSource.open(s.path), s);
    const slog2 = await Slog2File.open(source);
    try {
      await firstWindow(slog2);
      shownAt.push(performance.now() - t);
      ends.push(slog2.timeRange[1]);
    } finally {
      await slog2.close();
    }
  });
  await startConversion(
    script,
    { input, output, force: true, snapshotEveryMs: SNAPSHOT_EVERY_MS },
    () => undefined,
    {},
    (s) => show.offer(s),
  ).done;
  await openAndFirstWindow(output);
  const ms = performance.now() - t;
  fs.rmSync(output, { force: true });
  return { ms, shownAt, ends };
}

/**
 * As the editor does it: a fresh conversion worker (its code cold), which converts a preview in
 * its own thread and the whole file with its converter thread.
 */
async function timed(prefixBytes: number | undefined): Promise<Opened> {
  const script = bundledScript('worker.js');
  if (script === undefined || bundledScript('converter.js') === undefined) throw new Error('worker.js or converter.js is missing next to the bench bundle');
  const t = performance.now();
  await startConversion(script, { input, output, force: true, ...(prefixBytes !== undefined ? { prefixBytes } : {}) }, () => undefined).done;
  const opened = await openAndFirstWindow(output);
  const ms = performance.now() - t;
  fs.rmSync(output, { force: true });
  return { ms, ...opened };
}

const median = (xs: readonly number[]): number => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(input)) {
    const t = performance.now();
    const r = await synthesizeClog2File(input, { ranks: 16, bytes: gib * 2 ** 30, seconds: 1e6, srcloc: true, seed: 21 });
    console.log(`synthesized ${input}: ${(r.bytes / 2 ** 30).toFixed(2)} GiB in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  }
  const size = fs.statSync(input).size;
  console.log(
    `preview bench: ${path.basename(input)} (${(size / 2 ** 30).toFixed(2)} GiB), preview of the first ${PREVIEW_PREFIX_BYTES >> 20} MiB, ${rounds} alternating rounds`,
  );
  const preview: Opened[] = [];
  const whole: Opened[] = [];
  for (let i = 0; i < rounds; i++) {
    const p = await timed(PREVIEW_PREFIX_BYTES);
    const w = await timed(undefined);
    preview.push(p);
    whole.push(w);
    console.log(
      `round ${i + 1}: preview on screen (host side) ${p.ms.toFixed(0)} ms (${p.drawables} drawables in its first window, up to t = ${p.span[1].toFixed(3)} s); ` +
        `whole conversion, then open ${(w.ms / 1000).toFixed(2)} s (up to t = ${w.span[1].toFixed(3)} s)`,
    );
  }
  // The rest filling in: the same conversion with and without the editor's snapshots, alternating.
  const plain: number[] = [];
  const shown: Awaited<ReturnType<typeof withSnapshots>>[] = [];
  for (let i = 0; i < rounds; i++) {
    const f = await withSnapshots();
    const w = await timed(undefined);
    shown.push(f);
    plain.push(w.ms);
    const gaps = f.shownAt.map((x, k) => x - (f.shownAt[k - 1] ?? 0));
    console.log(
      `round ${i + 1}: with snapshots ${(f.ms / 1000).toFixed(2)} s, ${f.shownAt.length} shown at ${f.shownAt.map((x) => (x / 1000).toFixed(1)).join(', ')} s ` +
        `(reaching t = ${f.ends.map((x) => x.toFixed(1)).join(', ')} s; longest wait ${(Math.max(...gaps) / 1000).toFixed(1)} s); without ${(w.ms / 1000).toFixed(2)} s`,
    );
  }
  const gapsOf = (f: (typeof shown)[number]): number[] => [...f.shownAt, f.ms].map((x, k, all) => x - (all[k - 1] ?? 0));
  const longest = median(shown.map((f) => Math.max(...gapsOf(f))));
  const snapshotMs = median(shown.map((f) => f.ms));
  const plainMs = median(plain);

  const p = median(preview.map((x) => x.ms));
  const w = median(whole.map((x) => x.ms));
  reportTarget({
    target: `a ${(size / 2 ** 30).toFixed(1)} GiB CLOG2 on screen ≤ 1 s after opening (host side: preview conversion, open, first window payload)`,
    figure: `${p.toFixed(0)} ms (median of ${rounds})`,
    baseline: `whole conversion, then open: ${(w / 1000).toFixed(2)} s`,
    ratio: `×${(w / p).toFixed(0)}`,
    met: p <= 1000,
  });
  reportTarget({
    target: `the rest fills in while a ${(size / 2 ** 30).toFixed(1)} GiB CLOG2 converts (host side: the longest wait for the view to move on, a snapshot opened with its first window, or the whole trace)`,
    figure: `${(longest / 1000).toFixed(1)} s (median of ${rounds}); the conversion with snapshots, then open: ${(snapshotMs / 1000).toFixed(2)} s`,
    baseline: `without snapshots the preview stays until the end (conversion, then open): ${(plainMs / 1000).toFixed(2)} s`,
    ratio: `snapshots cost ×${(snapshotMs / plainMs).toFixed(2)} in conversion time`,
    met: longest <= 2 * SNAPSHOT_EVERY_MS,
  });
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
