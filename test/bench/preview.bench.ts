// A big CLOG2 on screen in about a second (issue 21): the editor converts the file's first 4 MiB
// (plus the definitions in its last blocks) and shows that preview while the whole file converts.
// Measured here on a synthesized 3 GiB CLOG2 (cached under out/bench-data), host side, as the
// editor does it: the preview's conversion in a fresh conversion worker, its SLOG-2 opened, the first window
// (whole preview, 1200 px, coarse answer first when the host would send one) built — against the
// wait before previews existed: the whole conversion, then the same open and first window.
// Alternating rounds, medians. The webview's paint after that is timed by the e2e test.
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
import { PREVIEW_PREFIX_BYTES } from '../../src/host/conversionPreview';
import { reportTarget } from './targets';

const root = process.env.MPE_TRACE_ROOT ?? process.cwd();
const gib = Number(process.env.MPE_BENCH_PREVIEW_GB ?? 3);
const rounds = Number(process.env.MPE_BENCH_PREVIEW_ROUNDS ?? 3);
const dataDir = path.join(root, 'out', 'bench-data');
const input = path.join(dataDir, `preview-${gib}G.clog2`);
const output = path.join(dataDir, `preview-${gib}G.slog2`);
const WIDTH_PX = 1200;
const VISIBLE_ROWS = 40;

interface Opened {
  readonly ms: number;
  readonly drawables: number;
  readonly span: readonly [number, number];
}

/** Opens a SLOG-2 and builds its first window as the host does (coarse first when it would). */
async function openAndFirstWindow(file: string): Promise<Omit<Opened, 'ms'>> {
  const slog2 = await Slog2File.open(await FileSource.open(file));
  try {
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
  } finally {
    await slog2.close();
  }
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
  const p = median(preview.map((x) => x.ms));
  const w = median(whole.map((x) => x.ms));
  reportTarget({
    target: `a ${(size / 2 ** 30).toFixed(1)} GiB CLOG2 on screen ≤ 1 s after opening (host side: preview conversion, open, first window payload)`,
    figure: `${p.toFixed(0)} ms (median of ${rounds})`,
    baseline: `whole conversion, then open: ${(w / 1000).toFixed(2)} s`,
    ratio: `×${(w / p).toFixed(0)}`,
    met: p <= 1000,
  });
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
