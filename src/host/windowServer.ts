/**
 * Answers one editor's window requests. The level of detail comes from the pixel width (node
 * budget → lowest tree depth); built payloads are cached on the document under the quantised
 * request plus the chosen depth, so other editors and revisits hit the cache. A newer request
 * cancels the one in flight (its AbortSignal goes into the reader's query); stale generations
 * are refused.
 */
import type { WindowFailedMessage, WindowMessage, RequestWindowMessage } from '../protocol/webview';
import { encodeWindow, wireBytes, type WireWindow } from '../protocol/wire';
import { buildWindow } from '../format/query/buildWindow';
import { nodeBudget } from '../format/query/lod';
import { chooseLowestDepth } from '../format/slog2/levelOfDetail';
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

export class WindowServer {
  private inflight: { readonly requestId: number; readonly ac: AbortController } | undefined;
  lastPayload: PayloadInfo | undefined;

  constructor(
    private readonly document: TraceDocument,
    private readonly post: (m: WindowMessage | WindowFailedMessage) => void,
  ) {}

  cancel(requestId?: number): void {
    if (this.inflight !== undefined && (requestId === undefined || this.inflight.requestId === requestId)) {
      this.inflight.ac.abort(new Error('superseded'));
      this.inflight = undefined;
    }
  }

  async serve(msg: RequestWindowMessage): Promise<void> {
    const doc = this.document;
    const state = doc.state;
    const fail = (message: string, cancelled: boolean): void =>
      this.post({ kind: 'windowFailed', requestId: msg.requestId, generation: msg.generation, cancelled, message });
    if (state.phase !== 'ready' || msg.generation !== doc.generation) return fail('stale generation', true);
    const r = msg.request;
    const layout = state.layouts[r.mapIndex];
    if (layout === undefined || !(r.t0 < r.t1) || r.rowStart < 0 || r.rowEnd < r.rowStart || r.pixelWidth <= 0) return fail('invalid window request', false);
    this.cancel();
    const ac = new AbortController();
    this.inflight = { requestId: msg.requestId, ac };

    const file = state.file;
    const rowEnd = Math.min(r.rowEnd, layout.labels.length);
    const depth = chooseLowestDepth(file, r.t0, r.t1, nodeBudget(r.pixelWidth, r.visibleSpan, r.t1 - r.t0));
    const key = `${r.mapIndex}|${r.t0}|${r.t1}|${r.rowStart}|${rowEnd}|${depth}`;
    let wire = doc.windows.get(key);
    const cached = wire !== undefined;
    try {
      if (wire === undefined) {
        const columns = await buildWindow(
          file,
          { t0: r.t0, t1: r.t1, rowStart: r.rowStart, rowEnd, mapIndex: r.mapIndex, lowestDepth: depth, rowOfLine: layout.rowOfLine },
          ac.signal,
        );
        wire = encodeWindow(columns);
        doc.windows.set(key, wire);
      }
    } catch (e) {
      if (ac.signal.aborted) return fail('cancelled', true);
      return fail(e instanceof Error ? e.message : String(e), false);
    } finally {
      if (this.inflight?.ac === ac) this.inflight = undefined;
    }
    if (ac.signal.aborted || msg.generation !== doc.generation) return fail('cancelled', true);
    this.lastPayload = infoOf(msg.requestId, wire, cached);
    // VS Code serialises ArrayBuffers in webview messages as binary (copied into the IPC message,
    // not detached), so the cached buffers can be posted as they are.
    this.post({ kind: 'window', requestId: msg.requestId, generation: msg.generation, payload: wire });
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
