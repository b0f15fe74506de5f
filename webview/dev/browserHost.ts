/**
 * A stand-in for the extension host inside a plain browser page, for the bench and for manual
 * checks of the timeline without VS Code. Load this script before dist/webview.js, with
 * ?trace=URL of a SLOG-2 file. In the page it provides `acquireVsCodeApi` and relays messages;
 * the same script, started again as a dedicated worker, is the host side (harnessHost.ts): it
 * holds the file and builds the payloads, which cross to the page as transferred buffers, as
 * they cross from the extension host to a webview. So the page's heap is the webview's own.
 */
import type { HostToWebview, WebviewToHost } from '../../src/protocol/webview';
import { wireBytes, windowBuffers } from '../../src/protocol/wire';
import { runHarnessHost, type HarnessHostToPage, type PageToHarnessHost } from './harnessHost';

interface HarnessStats {
  openMs: number;
  /** performance.now() when the init message was posted to the webview and when the first `painted` arrived. */
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
    /** Per data frame, its phases (framePhases.ts), beside the frame log. */
    __mpeFramePhases?: number[][];
  }
}

function runPage(script: string): void {
  const stats: HarnessStats = { openMs: 0, initAt: 0, firstPaintAt: 0, requests: 0, payloadBytes: [], buildMs: [], messages: [] };
  window.__harness = stats;
  window.__mpeFrameLog = [];
  window.__mpeFramePhases = [];
  const params = new URLSearchParams(location.search);
  /** ?renderer=webgl2|canvas2d|auto chooses the data layer's painter, as the setting does in the editor. */
  document.body.dataset.renderer = params.get('renderer') ?? 'auto';
  /** ?sync=1: each data frame waits for its pixels before its time is logged (to compare painters). */
  (window as { __mpeFrameSync?: boolean }).__mpeFrameSync = params.get('sync') === '1';
  /** ?heads=paths: event heads and density marks as paths, as where a GPU rasterises (the bench's WebGL2 main-thread figure). */
  (window as { __mpeHeadsAsPaths?: boolean }).__mpeHeadsAsPaths = params.get('heads') === 'paths';
  /** ?heads=js: event heads composed by the JS loop, not the WebAssembly kernel (the bench's baseline for it). */
  (window as { __mpeHeadsInJs?: boolean }).__mpeHeadsInJs = params.get('heads') === 'js';
  /** ?warmup=0: no warm-up of the data layer's code while the view rests (warmUp.ts; the bench's baseline for it). */
  (window as { __mpeNoWarmUp?: boolean }).__mpeNoWarmUp = params.get('warmup') === '0';

  const host = new Worker(script);
  const toHost = (m: PageToHarnessHost): void => host.postMessage(m);
  const toWebview = (m: HostToWebview, transfer: Transferable[] = []): void => window.postMessage(m, '*', transfer);
  host.onmessage = (e: MessageEvent<HarnessHostToPage>): void => {
    const m = e.data;
    if (m.kind === 'opened') {
      stats.openMs = m.openMs;
      return;
    }
    const w = m.message;
    if (w.kind === 'init') stats.initAt = performance.now();
    if (w.kind !== 'window') return toWebview(w);
    if (w.final) {
      stats.requests++;
      stats.buildMs.push(w.payload.header.buildMs);
      stats.payloadBytes.push(wireBytes(w.payload));
    }
    toWebview(w, windowBuffers(w.payload));
  };
  /** ?depth=N forces the tree depth read (the bench uses 0 to put ≥ 200 k real drawables on screen). */
  const forcedDepth = params.has('depth') ? Number(params.get('depth')) : undefined;
  toHost({ kind: 'open', trace: new URL(params.get('trace') ?? 'trace.slog2', location.href).href, ...(forcedDepth !== undefined ? { forcedDepth } : {}) });

  let state: unknown;
  window.acquireVsCodeApi = () => ({
    postMessage: (m: WebviewToHost): void => {
      stats.messages.push(m.kind === 'requestWindow' ? { ...m } : m);
      if (m.kind === 'painted' && stats.firstPaintAt === 0) stats.firstPaintAt = performance.now();
      toHost({ kind: 'webview', message: m });
    },
    getState: () => state,
    setState: (s: unknown) => {
      state = s;
    },
  });
}

if (typeof document === 'undefined') runHarnessHost(globalThis as unknown as Parameters<typeof runHarnessHost>[0]);
else runPage((document.currentScript as HTMLScriptElement).src);
