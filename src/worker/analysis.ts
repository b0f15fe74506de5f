/**
 * worker_threads entry for statistics and search (protocol: src/protocol/analysis.ts). Keeps up to
 * a few SLOG-2 files open by path (each with its node cache) so successive requests on the same
 * trace reuse what was read; requests run concurrently and are cancelled by id.
 */
import { stat } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { analyzeTrace } from '../core/analysis/analyze';
import { slog2AnalysisInput } from '../core/analysis/slog2Input';
import { isFormatError } from '../core/bytes/formatError';
import { compileQuery, type SearchQuery } from '../core/search/matcher';
import { countMatches, findNext, matchOrdinal } from '../core/search/treeSearch';
import { Slog2File } from '../core/formats/slog2/slog2File';
import { computeRangeStats } from '../core/stats/compute';
import { exactStatsOfFile } from '../core/stats/columnStats';
import type { StatsProgress } from '../core/stats/types';
import { profileRun } from '../core/compare/profile';
import { nodeBatches } from '../core/stats/nodeBatches';
import { computeSiteProfile } from '../core/stats/siteIndex';
import { FileSource } from '../io/fileSource';
import { spanSpillFor } from '../io/spanSpillFile';
import { rowLayoutOf, type RowLayout } from '../core/query/rows';
import { buildRequestedWindow, checkRequest } from '../core/query/windowService';
import type { WindowIdentities } from '../core/query/buildWindow';
import { siteMarker } from '../core/search/siteMarks';
import { isHostToAnalysis, type AnalysisToHost, type HostToAnalysis, type WireSearchQuery } from '../protocol/analysis';
import { windowBuffers, type WireWindow } from '../core/query/windowColumns';
import { statsDecoded, threadDecoded, threadProfile } from '../convert/decodeThread';

const MAX_OPEN_FILES = 4;
const PROGRESS_INTERVAL_MS = 100;

/** Open files by path + size + mtime (a file changed on disk is opened anew), in recency order. */
const files = new Map<string, Promise<Slog2File>>();
const running = new Map<number, AbortController>();

function post(m: AnalysisToHost): void {
  parentPort?.postMessage(m);
}

async function fileAt(path: string): Promise<Slog2File> {
  const st = await stat(path);
  const key = `${path}\u0000${st.size}\u0000${st.mtimeMs}`;
  const hit = files.get(key);
  if (hit !== undefined) {
    files.delete(key);
    files.set(key, hit);
    return hit;
  }
  const opened = FileSource.open(path, { onThread: true }).then((source) =>
    Slog2File.open(source).catch(async (e: unknown) => {
      await source.close();
      throw e;
    }),
  );
  opened.catch(() => files.delete(key));
  files.set(key, opened);
  while (files.size > MAX_OPEN_FILES) {
    const [oldest, f] = files.entries().next().value!;
    files.delete(oldest);
    void f.then((x) => x.close()).catch(() => undefined);
  }
  return opened;
}

/**
 * Re-yields `items`, giving the event loop a turn every few milliseconds: nodes served from the
 * cache resolve as microtasks only, and a `cancel` message could not be received until the end.
 */
async function* yielding<T>(items: AsyncIterable<T>): AsyncGenerator<T> {
  let last = Date.now();
  for await (const x of items) {
    yield x;
    if (Date.now() - last > 10) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      last = Date.now();
    }
  }
}

/** Row layouts per open file (built once: ~50 ms at 16 384 rows). */
const layouts = new WeakMap<Slog2File, readonly RowLayout[]>();

function layoutsOf(file: Slog2File): readonly RowLayout[] {
  let l = layouts.get(file);
  if (l === undefined) layouts.set(file, (l = file.lineIDMaps.map(rowLayoutOf)));
  return l;
}

/** The buffers of a payload and its identities, moved to the host instead of copied. */
function transferables(window: WireWindow, ids: WindowIdentities | undefined): ArrayBuffer[] {
  const out = new Set(windowBuffers(window));
  for (const t of ids !== undefined ? [ids.states, ids.arrows, ids.events] : [])
    for (const a of [t.nodeDepth, t.nodeXpos, t.earliest]) if (a.byteOffset === 0 && a.byteLength === a.buffer.byteLength) out.add(a.buffer as ArrayBuffer);
  return [...out];
}

function toQuery(q: WireSearchQuery): SearchQuery {
  return { ...q, ...(q.rows ? { rows: new Set(q.rows) } : {}), ...(q.unsearchable ? { unsearchable: new Set(q.unsearchable) } : {}) };
}

async function handle(m: Exclude<HostToAnalysis, { kind: 'cancel' }>): Promise<void> {
  if (m.kind === 'forget') {
    for (const [key, f] of [...files]) {
      if (!key.startsWith(`${m.path}\u0000`)) continue;
      files.delete(key);
      await f.then((x) => x.close()).catch(() => undefined);
    }
    return;
  }
  const controller = new AbortController();
  running.set(m.id, controller);
  const signal = controller.signal;
  let lastProgress = 0;
  try {
    const file = await fileAt(m.path);
    if (m.kind === 'stats') {
      await new Promise<void>((resolve) => setImmediate(resolve)); // a cancel sent right after the request is seen
      const onProgress = (p: StatsProgress): void => {
        const now = Date.now();
        if (now - lastProgress < PROGRESS_INTERVAL_MS) return;
        lastProgress = now;
        post({ kind: 'progress', id: m.id, drawables: p.drawables, ...(p.fraction !== undefined ? { fraction: p.fraction } : {}) });
      };
      // Exact statistics from the columnar stream (no object per drawable); approximate ones
      // need the shadows of upper nodes, which only the object query gives.
      const stats =
        m.lowestDepth === 0 && !m.approximate
          ? await exactStatsOfFile(file, m.range, { signal, onProgress, wrap: yielding, ...statsDecoded(file, signal) })
          : await computeRangeStats(file, yielding(nodeBatches(file.query(m.range[0], m.range[1], { lowestDepth: m.lowestDepth, signal }))), m.range, {
              signal,
              approximate: m.approximate,
              onProgress,
            });
      post({ kind: 'stats', id: m.id, stats });
      return;
    }
    if (m.kind === 'waits') {
      await new Promise<void>((resolve) => setImmediate(resolve));
      const range = m.range ?? file.timeRange;
      const decoded = threadDecoded(file, { signal });
      const profileElsewhere = threadProfile(file);
      const threads = { ...(decoded ? { decoded } : {}), ...(profileElsewhere ? { profileElsewhere } : {}) };
      const spanSpill = spanSpillFor(file.source.size);
      const result = await analyzeTrace(slog2AnalysisInput(file, { range, signal, wrap: yielding, spanSpill, ...threads }), {
        signal,
        maxInstances: m.maxInstances,
        onProgress: (fraction) => {
          const now = Date.now();
          if (now - lastProgress < PROGRESS_INTERVAL_MS) return;
          lastProgress = now;
          post({ kind: 'progress', id: m.id, fraction });
        },
      });
      post({ kind: 'waits', id: m.id, result });
      return;
    }
    if (m.kind === 'profile') {
      await new Promise<void>((resolve) => setImmediate(resolve));
      const profile = await profileRun(() => file, yielding(file.drawablesInTimeOrder(m.range[0], m.range[1], { signal })), m.range, {
        signal,
        ...(m.marker !== undefined ? { marker: m.marker } : {}),
      });
      post({ kind: 'profile', id: m.id, profile });
      return;
    }
    if (m.kind === 'window') {
      const layout = checkRequest(layoutsOf(file), m.request);
      if (layout === undefined) {
        post({ kind: 'error', id: m.id, reason: 'query', message: 'invalid window request' });
        return;
      }
      const marker = m.marks !== undefined ? siteMarker(m.marks) : undefined;
      let ids: WindowIdentities | undefined;
      const window = await buildRequestedWindow(file, layout, m.request, m.depth, signal, undefined, marker, { set: (x) => (ids = x) });
      parentPort?.postMessage({ kind: 'window', id: m.id, window, ...(ids !== undefined ? { ids } : {}) } satisfies AnalysisToHost, transferables(window, ids));
      return;
    }
    if (m.kind === 'sites') {
      await new Promise<void>((resolve) => setImmediate(resolve));
      const profile = await computeSiteProfile(() => file, yielding(file.drawablesInTimeOrder(m.range[0], m.range[1], { signal })), m.range, {
        signal,
        ...(m.lines !== undefined ? { lines: new Set(m.lines) } : {}),
      });
      post({ kind: 'sites', id: m.id, profile });
      return;
    }
    const compiled = compileQuery(toQuery(m.query), file.categories);
    if (!compiled.ok) {
      post({ kind: 'error', id: m.id, reason: 'query', message: compiled.error });
      return;
    }
    if (m.kind === 'count') {
      const r = await countMatches(file, compiled.matcher, {
        signal,
        bins: m.bins,
        ...(m.range ? { range: m.range } : {}),
        onProgress: (p) => {
          const now = Date.now();
          if (now - lastProgress < PROGRESS_INTERVAL_MS) return;
          lastProgress = now;
          post({ kind: 'progress', id: m.id, fraction: p.nodesDone / p.nodesTotal });
        },
      });
      post({ kind: 'count', id: m.id, matches: r.matches, histogram: r.histogram, range: r.range });
      return;
    }
    if (m.kind === 'ordinal') {
      post({ kind: 'ordinal', id: m.id, ordinal: await matchOrdinal(file, compiled.matcher, m.drawable, { signal }) });
      return;
    }
    const r = await findNext(file, compiled.matcher, m.from, m.direction, { signal, wrap: m.wrap });
    post({
      kind: 'find',
      id: m.id,
      wrapped: r.wrapped,
      ...(r.match ? { match: { drawable: r.match.drawable, earliest: r.match.earliest, latest: r.match.latest } } : {}),
    });
  } catch (e) {
    if (signal.aborted) post({ kind: 'error', id: m.id, reason: 'cancelled', message: 'cancelled' });
    else if (isFormatError(e)) post({ kind: 'error', id: m.id, reason: 'format', message: e.message });
    else post({ kind: 'error', id: m.id, reason: 'failed', message: e instanceof Error ? e.message : String(e) });
  } finally {
    running.delete(m.id);
  }
}

parentPort?.on('message', (m: unknown) => {
  if (!isHostToAnalysis(m)) return;
  if (m.kind === 'cancel') {
    running.get(m.id)?.abort(new Error('cancelled'));
    return;
  }
  void handle(m);
});
