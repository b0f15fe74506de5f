/**
 * Answers one editor's window requests. The level of detail comes from the pixel width (node
 * budget → lowest tree depth); built payloads are cached on the document under the quantised
 * request plus the chosen depth, so other editors and revisits hit the cache. A newer request
 * cancels the one in flight (its AbortSignal goes into the reader's query); stale generations
 * are refused.
 */
import type { RequestWindowMessage, WindowChannel, WindowFailedMessage, WindowMessage } from '../protocol/webview';
import { wireBytes, type WireWindow } from '../protocol/wire';
import { buildRequestedWindow, checkRequest, coarseDepthFor, depthFor, payloadKey } from '../core/query/windowService';
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
  private readonly inflight = new Map<WindowChannel, { readonly requestId: number; readonly ac: AbortController }>();
  lastPayload: PayloadInfo | undefined;

  constructor(
    private readonly document: TraceDocument,
    private readonly post: (m: WindowMessage | WindowFailedMessage) => void,
  ) {}

  /** Cancels the request `requestId` (or every request of `channel`, or everything). */
  cancel(requestId?: number, channel?: WindowChannel): void {
    for (const [ch, f] of this.inflight) {
      if ((requestId === undefined || f.requestId === requestId) && (channel === undefined || ch === channel)) {
        f.ac.abort(new Error('superseded'));
        this.inflight.delete(ch);
      }
    }
  }

  async serve(msg: RequestWindowMessage): Promise<void> {
    const doc = this.document;
    const state = doc.state;
    const fail = (message: string, cancelled: boolean): void =>
      this.post({ kind: 'windowFailed', requestId: msg.requestId, generation: msg.generation, cancelled, message });
    if (state.phase !== 'ready' || msg.generation !== doc.generation) return fail('stale generation', true);
    const r = msg.request;
    const layout = checkRequest(state.layouts, r);
    if (layout === undefined) return fail('invalid window request', false);
    this.cancel(undefined, msg.channel);
    const ac = new AbortController();
    this.inflight.set(msg.channel, { requestId: msg.requestId, ac });

    const file = state.file;
    const depth = depthFor(file, r);
    const rowEnd = Math.min(r.rowEnd, layout.labels.length);
    const marks = `${doc.marksVersion}|`;
    const marker = doc.siteMarker;
    const key = marks + payloadKey(r, rowEnd, depth);
    let wire = doc.windows.get(key);
    const cached = wire !== undefined;
    try {
      if (wire === undefined) {
        // A full answer that reads many nodes is preceded by a coarse one (a few upper nodes), so
        // something correct is on screen within tens of milliseconds.
        const coarse = coarseDepthFor(file, r, depth);
        if (coarse > depth) {
          const coarseKey = marks + payloadKey(r, rowEnd, coarse);
          let quick = doc.windows.get(coarseKey);
          if (quick === undefined) {
            quick = await buildRequestedWindow(file, layout, r, coarse, ac.signal, doc.rowIndex, marker);
            doc.windows.set(coarseKey, quick);
          }
          if (ac.signal.aborted || msg.generation !== doc.generation) return fail('cancelled', true);
          this.post({ kind: 'window', requestId: msg.requestId, generation: msg.generation, final: false, payload: quick });
        }
        wire = await buildRequestedWindow(file, layout, r, depth, ac.signal, doc.rowIndex, marker);
        doc.windows.set(key, wire);
      }
    } catch (e) {
      if (ac.signal.aborted) return fail('cancelled', true);
      return fail(e instanceof Error ? e.message : String(e), false);
    } finally {
      if (this.inflight.get(msg.channel)?.ac === ac) this.inflight.delete(msg.channel);
    }
    if (ac.signal.aborted || msg.generation !== doc.generation) return fail('cancelled', true);
    if (msg.channel === 'main') this.lastPayload = infoOf(msg.requestId, wire, cached);
    // VS Code serialises ArrayBuffers in webview messages as binary (copied into the IPC message,
    // not detached), so the cached buffers can be posted as they are.
    this.post({ kind: 'window', requestId: msg.requestId, generation: msg.generation, final: true, payload: wire });
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
