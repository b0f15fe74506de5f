/**
 * The host side of the browser harness (webview/dev/browserHost.ts), run in a dedicated worker
 * as the extension host runs in its own process: it fetches the SLOG-2 file, opens it with the
 * same reader and answers the webview's messages with the same window server as the real host
 * (src/core/query/windowServer.ts: cache, cancel, coarse-then-fine). Keeping the whole file out of
 * the page lets the page's heap be measured as the webview's own.
 */
import { MemorySource } from '../../src/core/bytes/memorySource';
import { Slog2File } from '../../src/core/formats/slog2/slog2File';
import { rowLayoutOf, type RowLayout } from '../../src/core/query/rows';
import { WindowServer, type CachedWindow, type WindowAnswer } from '../../src/core/query/windowServer';
import { LruCache } from '../../src/core/bytes/lruCache';
import { describeTrace } from '../../src/core/query/describe';
import { initMessage, type HostToWebview, type WebviewToHost } from '../../src/protocol/webview';
import { copyWire, windowBuffers } from '../../src/protocol/wire';

/** What the page asks the host side: open this trace, then the webview's messages. */
export type PageToHarnessHost = { kind: 'open'; trace: string; forcedDepth?: number } | { kind: 'webview'; message: WebviewToHost };

/** What the host side answers: the file's open time, then messages for the webview. */
export type HarnessHostToPage = { kind: 'opened'; openMs: number } | { kind: 'webview'; message: HostToWebview };

/** A dedicated worker's global scope, as far as the harness uses it (the DOM lib lacks its type). */
interface WorkerScope {
  postMessage(m: HarnessHostToPage, transfer: Transferable[]): void;
  onmessage: ((e: MessageEvent<PageToHarnessHost>) => void) | null;
}

interface Opened {
  file: Slog2File;
  layouts: RowLayout[];
  trace: string;
  server: WindowServer;
}

/** Payloads as the host caches them (same size as the host's per-document cache). */
const WINDOW_CACHE_ENTRIES = 48;

export function runHarnessHost(scope: WorkerScope): void {
  const toPage = (m: HostToWebview, transfer: Transferable[] = []): void => scope.postMessage({ kind: 'webview', message: m }, transfer);
  /** Posts an answer; a payload is copied first (the cache keeps its buffers, the copy is transferred). */
  const answer = (a: WindowAnswer): void => {
    if (a.kind === 'windowFailed') return toPage(a);
    const wire = copyWire(a.payload);
    toPage({ ...a, payload: wire }, windowBuffers(wire));
  };
  let ready: Promise<Opened> | undefined;
  const open = async (trace: string, forcedDepth: number | undefined): Promise<Opened> => {
    const t = performance.now();
    const bytes = new Uint8Array(await (await fetch(trace)).arrayBuffer());
    const file = await Slog2File.open(new MemorySource(trace, bytes));
    const layouts = file.lineIDMaps.map(rowLayoutOf);
    scope.postMessage({ kind: 'opened', openMs: performance.now() - t }, []);
    const doc = {
      generation: 1,
      opened: { file, layouts },
      windows: new LruCache<CachedWindow>(WINDOW_CACHE_ENTRIES),
      marksVersion: 0,
      siteMarker: undefined,
      rowIndex: undefined,
    };
    return { file, layouts, trace, server: new WindowServer(doc, answer, forcedDepth !== undefined ? { forcedDepth } : {}) };
  };
  const handle = async (m: WebviewToHost): Promise<void> => {
    if (!ready) return;
    const { file, layouts, trace, server } = await ready;
    switch (m.kind) {
      case 'ready':
        toPage(initMessage(describeTrace(file, layouts), 1, trace));
        return;
      case 'requestWindow':
        await server.serve(m);
        return;
      case 'cancelWindow':
        return server.cancel(m.requestId);
      default:
        return;
    }
  };
  scope.onmessage = (e): void => {
    const m = e.data;
    if (m.kind === 'open') ready = open(m.trace, m.forcedDepth);
    else void handle(m.message);
  };
}
