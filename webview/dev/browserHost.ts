/**
 * A stand-in for the extension host inside a plain browser page, for the bench and for manual
 * checks of the timeline without VS Code: it fetches a SLOG-2 file (?trace=URL), opens it with the
 * same reader and answers the webview's messages with the same window server as the real host
 * (src/core/query/windowServer.ts: cache, cancel, coarse-then-fine). Load this script before
 * dist/webview.js.
 */
import { MemorySource } from '../../src/core/bytes/memorySource';
import { Slog2File } from '../../src/core/formats/slog2/slog2File';
import { rowLayoutOf } from '../../src/core/query/rows';
import { WindowServer, type CachedWindow, type WindowAnswer } from '../../src/core/query/windowServer';
import { LruCache } from '../../src/core/bytes/lruCache';
import { describeTrace } from '../../src/core/query/describe';
import { initMessage, type HostToWebview, type WebviewToHost } from '../../src/protocol/webview';
import { copyWire, wireBytes, windowBuffers } from '../../src/protocol/wire';

interface HarnessStats {
  openMs: number;
  /** performance.now() when the init message was sent and when the first `painted` arrived. */
  initAt: number;
  firstPaintAt: number;
  requests: number;
  payloadBytes: number[];
  buildMs: number[];
  messages: WebviewToHost[];
}

declare global {
  interface Window {
    acquireVsCodeApi: () => { postMessage(m: WebviewToHost): void; getState(): unknown; setState(s: unknown): void };
    __harness: HarnessStats;
    __mpeFrameLog?: number[];
  }
}

const stats: HarnessStats = { openMs: 0, initAt: 0, firstPaintAt: 0, requests: 0, payloadBytes: [], buildMs: [], messages: [] };
window.__harness = stats;
window.__mpeFrameLog = [];

const params = new URLSearchParams(location.search);
const trace = params.get('trace') ?? 'trace.slog2';
/** ?depth=N forces the tree depth read (the bench uses 0 to put ≥ 200 k real drawables on screen). */
const forcedDepth = params.has('depth') ? Number(params.get('depth')) : undefined;
/** ?renderer=webgl2|canvas2d|auto chooses the data layer's painter, as the setting does in the editor. */
document.body.dataset.renderer = params.get('renderer') ?? 'auto';
/** ?sync=1: each data frame waits for its pixels before its time is logged (to compare painters). */
(window as { __mpeFrameSync?: boolean }).__mpeFrameSync = params.get('sync') === '1';
const opened = (async () => {
  const t = performance.now();
  const bytes = new Uint8Array(await (await fetch(trace)).arrayBuffer());
  const file = await Slog2File.open(new MemorySource(trace, bytes));
  stats.openMs = performance.now() - t;
  return { file, layouts: file.lineIDMaps.map(rowLayoutOf) };
})();

let state: unknown;

/** Payloads as the host caches them (same size as the host's per-document cache). */
const WINDOW_CACHE_ENTRIES = 48;

const server = opened.then(({ file, layouts }) => {
  const doc = {
    generation: 1,
    opened: { file, layouts },
    windows: new LruCache<CachedWindow>(WINDOW_CACHE_ENTRIES),
    marksVersion: 0,
    siteMarker: undefined,
    rowIndex: undefined,
  };
  return new WindowServer(doc, answer, forcedDepth !== undefined ? { forcedDepth } : {});
});

/** Posts an answer; a payload is copied first (the cache keeps its buffers, the copy is transferred). */
function answer(a: WindowAnswer): void {
  if (a.kind === 'windowFailed') return toWebview(a);
  const wire = copyWire(a.payload);
  if (a.final) {
    stats.requests++;
    stats.buildMs.push(a.payload.header.buildMs);
    stats.payloadBytes.push(wireBytes(wire));
  }
  toWebview({ ...a, payload: wire }, windowBuffers(wire));
}

function toWebview(m: HostToWebview, transfer: Transferable[] = []): void {
  window.postMessage(m, '*', transfer);
}

async function handle(m: WebviewToHost): Promise<void> {
  stats.messages.push(m.kind === 'requestWindow' ? { ...m } : m);
  const { file, layouts } = await opened;
  switch (m.kind) {
    case 'ready':
      stats.initAt = performance.now();
      toWebview(initMessage(describeTrace(file, layouts), 1, trace));
      return;
    case 'painted':
      if (stats.firstPaintAt === 0) stats.firstPaintAt = performance.now();
      return;
    case 'requestWindow':
      await (await server).serve(m);
      return;
    case 'cancelWindow':
      return (await server).cancel(m.requestId);
    default:
      return;
  }
}

window.acquireVsCodeApi = () => ({
  postMessage: (m: WebviewToHost) => void handle(m),
  getState: () => state,
  setState: (s: unknown) => {
    state = s;
  },
});
