/**
 * A stand-in for the extension host inside a plain browser page, for the bench and for manual
 * checks of the timeline without VS Code: it fetches a SLOG-2 file (?trace=URL), opens it with the
 * same reader and answers the webview's messages with the same window service as the real host
 * (src/core/query/windowService.ts). Load this script before dist/webview.js.
 */
import { MemorySource } from '../../src/core/bytes/memorySource';
import { Slog2File } from '../../src/core/formats/slog2/slog2File';
import { rowLayoutOf } from '../../src/core/query/rows';
import { buildRequestedWindow, checkRequest, depthFor } from '../../src/core/query/windowService';
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
const opened = (async () => {
  const t = performance.now();
  const bytes = new Uint8Array(await (await fetch(trace)).arrayBuffer());
  const file = await Slog2File.open(new MemorySource(trace, bytes));
  stats.openMs = performance.now() - t;
  return { file, layouts: file.lineIDMaps.map(rowLayoutOf) };
})();

const inflight = new Map<string, AbortController>();
let state: unknown;

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
    case 'requestWindow': {
      inflight.get(m.channel)?.abort(new Error('superseded'));
      const ac = new AbortController();
      inflight.set(m.channel, ac);
      const layout = checkRequest(layouts, m.request);
      if (!layout) return toWebview({ kind: 'windowFailed', requestId: m.requestId, generation: m.generation, cancelled: false, message: 'invalid request' });
      try {
        const t = performance.now();
        const wire = copyWire(await buildRequestedWindow(file, layout, m.request, forcedDepth ?? depthFor(file, m.request), ac.signal));
        stats.requests++;
        stats.buildMs.push(performance.now() - t);
        stats.payloadBytes.push(wireBytes(wire));
        toWebview({ kind: 'window', requestId: m.requestId, generation: m.generation, final: true, payload: wire }, windowBuffers(wire));
      } catch (e) {
        toWebview({ kind: 'windowFailed', requestId: m.requestId, generation: m.generation, cancelled: ac.signal.aborted, message: String(e) });
      }
      return;
    }
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
