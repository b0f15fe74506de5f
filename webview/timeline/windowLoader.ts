/**
 * Keeps one request stream (the timeline or the overview strip) fed: the view's quantised key
 * decides whether anything must be fetched (small pans reuse the loaded payload); a new key
 * cancels the request in flight; only the answer to the LATEST request of the CURRENT generation
 * is accepted (stale answers are dropped). The last accepted payload stays drawable while a newer
 * one loads; what it does not cover is drawn as loading. Pure: no DOM, testable under node.
 */
import { markOpenStage } from './openTimings';
import { covers, keyId, requestOf, type VisibleWindow, type WindowKey } from '../../src/core/query/windowKey';
import type { CancelWindowMessage, RequestWindowMessage, WindowChannel, WindowFailedMessage, WindowMessage } from '../../src/protocol/webview';
import { decodeWindow, type WindowColumns } from '../../src/protocol/wire';
import { adoptChunks } from './timeChunks';
import { RpcChannel } from '../../src/protocol/rpc';

export interface LoadedWindow {
  readonly requestId: number;
  readonly keyId: string;
  readonly key: WindowKey;
  readonly columns: WindowColumns;
  readonly drawables: number;
  /** False for a coarse first answer still being refined. */
  readonly final: boolean;
}

/**
 * An exact payload serves views down to 2^-6 of its key's span: its times are float32 offsets from
 * its start (2^-24 of its span apart at most), a fiftieth of a pixel with 1200 pixels over 2^-6.
 */
const EXACT_ZOOM_LEVELS = 6;

/** Request ids are unique across the loaders of a webview (the host answers on one channel). */
let nextRequestId = 1;

/** The one stream of window requests: a newer request supersedes (and cancels) the older one. */
const STREAM = 'window';

/** The request in flight: its id and what it asks for. */
interface Pending {
  readonly requestId: number;
  readonly keyId: string;
  readonly key: WindowKey;
}

export class WindowLoader {
  private generation = -1;
  private pending: Pending | undefined;
  private failedKey: string | undefined;
  /** A pushed window that came before any request (see receivePushed). */
  private pushed: (Omit<LoadedWindow, 'key'> & { readonly generation: number }) | undefined;
  loaded: LoadedWindow | undefined;
  lastError: string | undefined;
  /**
   * The requests in flight (at most one): ids, superseding with the peer told, stale answers
   * dropped. A coarse answer is the call's progress, the final one its answer.
   */
  private readonly calls: RpcChannel<WindowMessage, WindowMessage>;

  constructor(
    private readonly channel: WindowChannel,
    private readonly send: (m: RequestWindowMessage | CancelWindowMessage) => void,
  ) {
    this.calls = new RpcChannel<WindowMessage, WindowMessage>(
      (f) => new Error(f.message),
      (requestId) => this.send({ kind: 'cancelWindow', requestId }),
      () => nextRequestId++,
    );
  }

  /** Drops the request in flight (the host is told) and forgets it. */
  private cancelPending(): void {
    const pending = this.pending;
    if (pending === undefined) return;
    this.pending = undefined;
    this.send({ kind: 'cancelWindow', requestId: pending.requestId });
    this.calls.fail(pending.requestId, { reason: 'cancelled', message: 'cancelled' });
  }

  /**
   * A new document generation: everything loaded so far is invalid. `keepDrawn`: the last payload
   * stays drawable (fetched again) until the new generation's first answer replaces it.
   */
  reset(generation: number, keepDrawn = false): void {
    this.cancelPending();
    this.generation = generation;
    this.loaded = keepDrawn && this.loaded !== undefined ? { ...this.loaded, keyId: '' } : undefined;
    this.failedKey = undefined;
    this.lastError = undefined;
    this.pushed = undefined;
  }

  /** What is loaded stays drawn but is fetched again (the host's site marks changed its flags). */
  invalidate(): void {
    this.cancelPending();
    this.failedKey = undefined;
    if (this.loaded) this.loaded = { ...this.loaded, keyId: '' };
  }

  get loading(): boolean {
    return this.pending !== undefined;
  }

  /** Requests the window for `v` unless it is loaded, loading or failed; true if a request was sent. */
  update(v: VisibleWindow): boolean {
    if (this.generation < 0 || v.pixelWidth <= 0 || !(v.t1 > v.t0)) return false;
    const { key, request } = requestOf(v);
    const id = keyId(key);
    if (this.loaded?.keyId === id || this.pending?.keyId === id || this.failedKey === id) return false;
    if (this.servesExactly(v, key)) {
      // what was asked for a view since left is not needed any more
      this.cancelPending();
      return false;
    }
    const pushed = this.pushed;
    this.pushed = undefined;
    if (pushed !== undefined && pushed.keyId === id && pushed.generation === this.generation) {
      // The host's first window arrived before the view asked for it.
      this.loaded = { ...pushed, key };
      if (pushed.final) return false;
    }
    const generation = this.generation;
    const reply = this.calls.call(
      (requestId) => {
        this.pending = { requestId, keyId: id, key };
        markOpenStage(`request-${this.channel}`, `rows ${key.rowStart}-${key.rowEnd}`);
        this.send({
          kind: 'requestWindow',
          channel: this.channel,
          requestId,
          generation,
          request,
        });
      },
      { key: STREAM },
    );
    reply.catch(() => undefined); // superseded or cancelled: the newer request is what counts
    return true;
  }

  /**
   * Whether the loaded payload is exact for `v` (key `key`): final, every real drawable of its
   * span and rows (depth 0, not cut short), covering the view, whose span is at most
   * EXACT_ZOOM_LEVELS powers of two finer than the payload's (its times are float32 offsets).
   * Zooming in on exact data then asks the host for nothing: the payload has all of it.
   */
  private servesExactly(v: VisibleWindow, key: WindowKey): boolean {
    const l = this.loaded;
    if (l === undefined || l.keyId === '' || !l.final || l.key.mapIndex !== key.mapIndex || key.level < l.key.level - EXACT_ZOOM_LEVELS) return false;
    const h = l.columns.header;
    return h.lowestDepth === 0 && !h.truncated && covers(h, v);
  }

  /**
   * Accepts an answer to the latest request; returns false (and drops it) when stale. A coarse
   * answer (`final: false`) is drawn at once but the request stays pending for the final one.
   */
  receive(m: WindowMessage): boolean {
    if (m.pushedKey !== undefined) return this.receivePushed(m, m.pushedKey);
    const p = this.pending;
    if (m.generation !== this.generation || p === undefined || p.requestId !== m.requestId || !this.calls.has(m.requestId)) return false;
    this.answerPending(p, m, decoded(m));
    return true;
  }

  /** Loads `window` as the answer (final) or progress (coarse) of the pending request `p`. */
  private answerPending(p: Pending, m: WindowMessage, window: Pick<LoadedWindow, 'columns' | 'drawables'>): void {
    this.loaded = { requestId: p.requestId, keyId: p.keyId, key: p.key, ...window, final: m.final };
    this.lastError = undefined;
    if (m.final) {
      this.pending = undefined;
      this.calls.answer(p.requestId, m);
    } else this.calls.progress(p.requestId, m);
  }

  /**
   * A window the host sent unasked (the first one of a fresh view): the answer to the request in
   * flight when that is for the same key (the request is then withdrawn), kept for `update` when
   * nothing was asked yet, dropped otherwise.
   */
  private receivePushed(m: WindowMessage, pushedKey: string): boolean {
    if (m.generation !== this.generation) return false;
    const p = this.pending;
    if (p === undefined) {
      if (this.loaded === undefined || this.loaded.keyId === '')
        this.pushed = { requestId: 0, keyId: pushedKey, generation: m.generation, ...decoded(m), final: m.final };
      return false;
    }
    if (p.keyId !== pushedKey || !this.calls.has(p.requestId)) return false;
    this.answerPending(p, m, decoded(m));
    if (m.final) this.send({ kind: 'cancelWindow', requestId: p.requestId });
    return true;
  }

  failed(m: WindowFailedMessage): boolean {
    const p = this.pending;
    if (p === undefined || p.requestId !== m.requestId || !this.calls.has(m.requestId)) return false;
    if (!m.cancelled) {
      this.failedKey = p.keyId;
      this.lastError = m.message;
    }
    this.pending = undefined;
    this.calls.fail(m.requestId, { reason: m.cancelled ? 'cancelled' : 'failed', message: m.message });
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

/** A received window's columns and drawable count. */
function decoded(m: WindowMessage): Pick<LoadedWindow, 'columns' | 'drawables'> {
  const columns = decodeWindow(m.payload);
  adoptChunks(columns);
  return { columns, drawables: columns.states.start.length + columns.shadows.start.length + columns.arrows.start.length + columns.events.time.length };
}
