/**
 * Keeps one request stream (the timeline or the overview strip) fed: the view's quantised key
 * decides whether anything must be fetched (small pans reuse the loaded payload); a new key
 * cancels the request in flight; only the answer to the LATEST request of the CURRENT generation
 * is accepted (stale answers are dropped). The last accepted payload stays drawable while a newer
 * one loads; what it does not cover is drawn as loading. Pure: no DOM, testable under node.
 */
import { covers, keyId, keySpan, windowKeyFor, type VisibleWindow, type WindowKey } from '../../src/core/query/windowKey';
import type { CancelWindowMessage, RequestWindowMessage, WindowChannel, WindowFailedMessage, WindowMessage } from '../../src/protocol/webview';
import { decodeWindow, type WindowColumns } from '../../src/protocol/wire';

export interface LoadedWindow {
  readonly requestId: number;
  readonly keyId: string;
  readonly key: WindowKey;
  readonly columns: WindowColumns;
  readonly drawables: number;
  /** False for a coarse first answer still being refined. */
  readonly final: boolean;
}

let nextRequestId = 1;

export class WindowLoader {
  private generation = -1;
  private pending: { readonly requestId: number; readonly keyId: string; readonly key: WindowKey } | undefined;
  private failedKey: string | undefined;
  loaded: LoadedWindow | undefined;
  lastError: string | undefined;

  constructor(
    private readonly channel: WindowChannel,
    private readonly send: (m: RequestWindowMessage | CancelWindowMessage) => void,
  ) {}

  /** A new document generation: everything loaded so far is invalid. */
  reset(generation: number): void {
    if (this.pending) this.send({ kind: 'cancelWindow', requestId: this.pending.requestId });
    this.generation = generation;
    this.pending = undefined;
    this.loaded = undefined;
    this.failedKey = undefined;
    this.lastError = undefined;
  }

  /** What is loaded stays drawn but is fetched again (the host's site marks changed its flags). */
  invalidate(): void {
    if (this.pending) this.send({ kind: 'cancelWindow', requestId: this.pending.requestId });
    this.pending = undefined;
    this.failedKey = undefined;
    if (this.loaded) this.loaded = { ...this.loaded, keyId: '' };
  }

  get loading(): boolean {
    return this.pending !== undefined;
  }

  /** Requests the window for `v` unless it is loaded, loading or failed; true if a request was sent. */
  update(v: VisibleWindow): boolean {
    if (this.generation < 0 || v.pixelWidth <= 0 || !(v.t1 > v.t0)) return false;
    const key = windowKeyFor(v);
    const id = keyId(key);
    if (this.loaded?.keyId === id || this.pending?.keyId === id || this.failedKey === id) return false;
    if (this.pending) this.send({ kind: 'cancelWindow', requestId: this.pending.requestId });
    const requestId = nextRequestId++;
    this.pending = { requestId, keyId: id, key };
    const [t0, t1] = keySpan(key);
    this.send({
      kind: 'requestWindow',
      channel: this.channel,
      requestId,
      generation: this.generation,
      request: { t0, t1, rowStart: key.rowStart, rowEnd: key.rowEnd, mapIndex: key.mapIndex, pixelWidth: v.pixelWidth, visibleSpan: v.t1 - v.t0 },
    });
    return true;
  }

  /**
   * Accepts an answer to the latest request; returns false (and drops it) when stale. A coarse
   * answer (`final: false`) is drawn at once but the request stays pending for the final one.
   */
  receive(m: WindowMessage): boolean {
    if (m.generation !== this.generation || this.pending?.requestId !== m.requestId) return false;
    const columns = decodeWindow(m.payload);
    const drawables = columns.states.start.length + columns.shadows.start.length + columns.arrows.start.length + columns.events.time.length;
    this.loaded = { requestId: m.requestId, keyId: this.pending.keyId, key: this.pending.key, columns, drawables, final: m.final };
    if (m.final) this.pending = undefined;
    this.lastError = undefined;
    return true;
  }

  failed(m: WindowFailedMessage): boolean {
    if (this.pending?.requestId !== m.requestId) return false;
    if (!m.cancelled) {
      this.failedKey = this.pending.keyId;
      this.lastError = m.message;
    }
    this.pending = undefined;
    return true;
  }

  /** The payload to draw for `v` (same Y map), or undefined. */
  drawableFor(v: Pick<VisibleWindow, 'mapIndex'>): LoadedWindow | undefined {
    return this.loaded !== undefined && this.loaded.key.mapIndex === v.mapIndex ? this.loaded : undefined;
  }

  /** True when the loaded payload covers the whole visible window (nothing to draw as loading). */
  complete(v: VisibleWindow): boolean {
    const l = this.drawableFor(v);
    if (!l) return false;
    const h = l.columns.header;
    return covers({ t0: h.t0, t1: h.t1, rowStart: h.rowStart, rowEnd: h.rowEnd }, v);
  }
}
