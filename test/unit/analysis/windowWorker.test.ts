// Wide windows built in the worker (host/windowWorker.ts): the payload and identities equal the
// ones built in process (all rows of a 256-rank trace, coarse and final depth, with site marks),
// the host's choice of what goes there (readsEveryRow), and the window server's fallbacks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { rowLayoutOf } from '../../../src/core/query/rows';
import { decodeWindow } from '../../../src/core/query/windowColumns';
import { buildRequestedWindow, coarseDepthFor, depthFor, readsEveryRow } from '../../../src/core/query/windowService';
import { OffThreadUnavailable, WindowServer, type WindowAnswer, type WindowDocument, type WindowServerOptions } from '../../../src/core/query/windowServer';
import type { WindowIdentities } from '../../../src/core/query/buildWindow';
import type { WindowRequest } from '../../../src/core/query/windowRequest';
import { siteMarker, type SiteMarks } from '../../../src/core/search/siteMarks';
import { LruCache } from '../../../src/core/bytes/lruCache';
import { FileSource } from '../../../src/io/fileSource';
import { AnalysisClient, AnalysisFailed } from '../../../src/worker/analysisClient';
import { bundleNode } from '../../helpers/bundle';
import { comparable, synthSlog2 } from '../rowIndex/rowIndexHelpers';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpe-windows-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
const script = path.join(dir, 'analysis.js');
bundleNode('src/worker/analysis.ts', script);
const client = new AnalysisClient(script, { idleMs: 500 });
process.on('exit', () => client.dispose());

async function wideFile(): Promise<string> {
  const synth = await synthSlog2(256, 1 << 20, 5, 4096);
  const p = path.join(dir, 'wide_256.slog2');
  fs.writeFileSync(p, (await synth.source.read(0, synth.source.size)).slice());
  await synth.close();
  return p;
}
const widePath = wideFile();

const ids = (x: WindowIdentities | undefined) =>
  x === undefined
    ? undefined
    : Object.fromEntries(Object.entries(x).map(([k, t]) => [k, Object.values(t as object).map((a) => Array.from(a as ArrayLike<number>))]));

test('readsEveryRow: only the plain query over a wide map', () => {
  assert.equal(readsEveryRow(255, 0, 255, false), false, 'narrow maps build here');
  assert.equal(readsEveryRow(4096, 0, 4096, false), true);
  assert.equal(readsEveryRow(4096, 0, 4096, true), true, 'all rows: the index is not used');
  assert.equal(readsEveryRow(4096, 0, 1024, false), false, 'a quarter: scanned');
  assert.equal(readsEveryRow(4096, 0, 1025, false), true);
  assert.equal(readsEveryRow(4096, 0, 4000, true), false, 'part of the rows: through the index');
  assert.equal(readsEveryRow(4096, 100, 9000, true), false, 'rowEnd is clamped to the map');
});

test('the worker builds the same payload and identities as the host, coarse and final, with and without site marks', async () => {
  const p = await widePath;
  const file = await Slog2File.open(await FileSource.open(p));
  try {
    const layout = rowLayoutOf(file.lineIDMaps[0]!);
    assert.ok(layout.labels.length >= 256);
    const [a, b] = file.timeRange;
    const r: WindowRequest = { t0: a, t1: b, rowStart: 0, rowEnd: layout.labels.length, mapIndex: 0, pixelWidth: 1200, visibleSpan: b - a };
    const site = file.sourceLocationTable!.sites[0]!;
    const marks: SiteMarks = { highlight: `${site.file}:${site.line}`, colourings: [{ sites: `${site.file}:${site.line + 1}`, rgb: [9, 8, 7] }] };
    const final = depthFor(file, r);
    const depths = [...new Set([final, coarseDepthFor(file, r, final), 0])];
    for (const depth of depths)
      for (const m of [undefined, marks]) {
        let local: WindowIdentities | undefined;
        const here = await buildRequestedWindow(file, layout, r, depth, undefined, undefined, m ? siteMarker(m) : undefined, { set: (x) => (local = x) });
        const there = await client.window(p, r, depth, m ? { marks: m } : {});
        assert.ok(here.states.count + here.shadows.count > 0, 'something to compare');
        assert.deepEqual(comparable(decodeWindow(there.wire)), comparable(decodeWindow(here)), `depth ${depth}${m ? ' with marks' : ''}`);
        assert.deepEqual(ids(there.ids), ids(local));
      }
  } finally {
    await file.close();
  }
});

test('a bad request is refused by the worker; a cancelled one rejects as cancelled', async () => {
  const p = await widePath;
  const bad: WindowRequest = { t0: 1, t1: 0, rowStart: 0, rowEnd: 10, mapIndex: 0, pixelWidth: 100, visibleSpan: 1 };
  await assert.rejects(client.window(p, bad, 0), (e: unknown) => e instanceof AnalysisFailed && e.reason === 'query');
  const ac = new AbortController();
  const good: WindowRequest = { t0: 0, t1: 1e9, rowStart: 0, rowEnd: 256, mapIndex: 0, pixelWidth: 1200, visibleSpan: 1e9 };
  const pending = client.window(p, good, 0, { signal: ac.signal });
  ac.abort();
  await assert.rejects(pending, (e: unknown) => e instanceof AnalysisFailed && e.reason === 'cancelled');
});

test('window server: an off-thread builder answers; OffThreadUnavailable builds here; another failure is a failed window', async () => {
  const p = await widePath;
  const file = await Slog2File.open(await FileSource.open(p));
  try {
    const layouts = file.lineIDMaps.map(rowLayoutOf);
    const doc: WindowDocument = {
      generation: 1,
      opened: { file, layouts },
      windows: new LruCache(16),
      marksVersion: 0,
      siteMarker: undefined,
      rowIndex: undefined,
    };
    const [a, b] = file.timeRange;
    const request: WindowRequest = { t0: a, t1: b, rowStart: 0, rowEnd: 256, mapIndex: 0, pixelWidth: 1200, visibleSpan: b - a };
    const serve = async (offThread: NonNullable<WindowServerOptions['offThread']>) => {
      const answers: WindowAnswer[] = [];
      doc.windows.set = () => undefined; // every call builds
      const server = new WindowServer(doc, (m) => answers.push(m), { offThread });
      await server.serve({ channel: 'overview', requestId: 7, generation: 1, request });
      return answers;
    };
    const calls: number[] = [];
    const viaWorker = await serve((r, _layout, depth, signal) => {
      calls.push(depth);
      return client.window(p, r, depth, { signal });
    });
    assert.ok(calls.length >= 1 && viaWorker.at(-1)?.kind === 'window');
    const fallback = await serve(() => Promise.reject(new OffThreadUnavailable('worker crashed')));
    const local = await serve(() => undefined);
    const last = (x: WindowAnswer[]) => {
      const w = x.at(-1)!;
      assert.equal(w.kind, 'window');
      return w.kind === 'window' ? comparable(decodeWindow(w.payload)) : undefined;
    };
    assert.deepEqual(last(fallback), last(local), 'built here after OffThreadUnavailable');
    const failed = await serve(() => Promise.reject(new Error('bad.slog2: damaged at byte 12')));
    assert.deepEqual(
      failed.map((x) => (x.kind === 'windowFailed' ? [x.cancelled, x.message] : x.kind)),
      [[false, 'bad.slog2: damaged at byte 12']],
    );
  } finally {
    await file.close();
  }
});
