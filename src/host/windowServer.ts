/**
 * An editor's window requests answered by the core's WindowServer (the same sequence the browser
 * harness runs: cache, cancel, coarse-then-fine) over its TraceDocument, plus what the last
 * timeline payload was (for tests and the bench).
 */
import type { RequestWindowMessage, WindowFailedMessage, WindowMessage } from '../protocol/webview';
import { wireBytes, type WireWindow } from '../protocol/wire';
import { WindowServer as CoreWindowServer, type WindowDocument, type WindowServerOptions } from '../core/query/windowServer';
import type { TraceDocument } from './traceDocument';

export interface PayloadInfo {
  readonly requestId: number;
  readonly bytes: number;
  readonly lowestDepth: number;
  readonly nodesRead: number;
  readonly buildMs: number;
  readonly cached: boolean;
  readonly states: number;
  readonly shadows: number;
  readonly arrows: number;
  readonly events: number;
}

/** The document as the window server sees it (read at each request: it changes when reopened). */
function windowDocument(doc: TraceDocument): WindowDocument {
  return {
    get generation() {
      return doc.generation;
    },
    get opened() {
      const s = doc.state;
      return s.phase === 'ready' ? s : undefined;
    },
    windows: doc.windows,
    get marksVersion() {
      return doc.marksVersion;
    },
    get siteMarker() {
      return doc.siteMarker;
    },
    get rowIndex() {
      return doc.rowIndex;
    },
  };
}

export class WindowServer extends CoreWindowServer {
  constructor(document: TraceDocument, post: (m: WindowMessage | WindowFailedMessage) => void, options: WindowServerOptions = {}) {
    // VS Code serialises ArrayBuffers in webview messages as binary (copied into the IPC message,
    // not detached), so the cached buffers can be posted as they are.
    super(windowDocument(document), post, options);
  }

  /**
   * Answers a webview's request. Only the fields a webview may set are passed on (`silent` and
   * `pushedKey` belong to the host's own pushes: a page must not make its answers silent).
   */
  serveRequest(m: RequestWindowMessage): Promise<unknown> {
    const r = m.request;
    return this.serve({
      channel: m.channel,
      requestId: m.requestId,
      generation: m.generation,
      request: { t0: r.t0, t1: r.t1, rowStart: r.rowStart, rowEnd: r.rowEnd, mapIndex: r.mapIndex, pixelWidth: r.pixelWidth, visibleSpan: r.visibleSpan },
    });
  }

  get lastPayload(): PayloadInfo | undefined {
    const s = this.lastServed;
    return s === undefined ? undefined : infoOf(s.requestId, s.payload, s.cached);
  }
}

function infoOf(requestId: number, w: WireWindow, cached: boolean): PayloadInfo {
  return {
    requestId,
    bytes: wireBytes(w),
    lowestDepth: w.header.lowestDepth,
    nodesRead: w.header.nodesRead,
    buildMs: w.header.buildMs,
    cached,
    states: w.states.count,
    shadows: w.shadows.count,
    arrows: w.arrows.count,
    events: w.events.count,
  };
}
