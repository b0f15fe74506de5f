/**
 * Serves one editor's window requests — the one sequence the extension host and the browser
 * harness (bench) both run: stale generations refused, a newer request of a channel cancels the
 * one in flight (its AbortSignal reaches the reader), level of detail from the pixel width,
 * payloads cached under the quantised request plus depth and the site-marks version, and a full
 * answer that reads many nodes preceded by a coarse one (a few upper nodes). Pure: the caller
 * posts the answers.
 */
import type { Slog2File } from '../formats/slog2/slog2File';
import type { SiteMarker } from '../model/siteFlags';
import type { RowLayout } from './rows';
import type { WindowRequest } from './windowRequest';
import type { WireWindow } from './windowColumns';
import { buildRequestedWindow, checkRequest, coarseDepthFor, depthFor, payloadKey, type IndexedRows } from './windowService';
import type { WindowIdentities } from './buildWindow';
import { LruCache } from '../bytes/lruCache';

/** A built payload and, kept on this side, where each of its drawables came from. */
export interface CachedWindow {
  readonly wire: WireWindow;
  readonly ids: WindowIdentities | undefined;
}

/** Payloads whose identities are kept per editor (the webview draws the latest one or two). */
const SENT_KEPT = 8;

/** The two request streams of an editor: the timeline and its overview strip. */
export type WindowStream = 'main' | 'overview';

export interface WindowCall {
  readonly channel: WindowStream;
  readonly requestId: number;
  readonly generation: number;
  readonly request: WindowRequest;
  /** A window sent unasked (see `push`): its answers carry this key. */
  readonly pushedKey?: string;
  /** Built into the cache only, nothing sent (see `push` without a key). */
  readonly silent?: boolean;
}

/** An answer to a call (the protocol's `window` / `windowFailed` messages have this shape). */
export type WindowAnswer =
  | {
      readonly kind: 'window';
      readonly requestId: number;
      readonly generation: number;
      readonly final: boolean;
      readonly payload: WireWindow;
      readonly pushedKey?: string;
    }
  | { readonly kind: 'windowFailed'; readonly requestId: number; readonly generation: number; readonly cancelled: boolean; readonly message: string };

/** What serving needs of an open document (shared by the editors of one document). */
export interface WindowDocument {
  readonly generation: number;
  /** The file and its row layouts once read; undefined while opening, converting or failed. */
  readonly opened: { readonly file: Slog2File; readonly layouts: readonly RowLayout[] } | undefined;
  /** Built payloads by key (shared by the editors of the document). */
  readonly windows: { get(key: string): CachedWindow | undefined; set(key: string, w: CachedWindow): void };
  /** Changes when the site marks change (their flags are in the payload). */
  readonly marksVersion: number;
  readonly siteMarker: SiteMarker | undefined;
  readonly rowIndex: IndexedRows | undefined;
}

export interface WindowServerOptions {
  /**
   * Read this tree depth for the timeline whatever the pixel width (the bench puts every drawable
   * on screen); the overview strip keeps its level of detail, as it has in the editor.
   */
  readonly forcedDepth?: number;
  /**
   * Builds a payload elsewhere (the host: in a worker thread) when it would be long work here, or
   * returns undefined to build it here. A rejection that is not a cancellation is answered as a
   * failed window (a damaged file), except `OffThreadUnavailable`, which builds here instead.
   */
  readonly offThread?: (request: WindowRequest, layout: RowLayout, depth: number, signal: AbortSignal) => Promise<CachedWindow> | undefined;
}

/** The off-thread builder could not run (its worker crashed or was stopped): build here. */
export class OffThreadUnavailable extends Error {
  override readonly name = 'OffThreadUnavailable';
}

export interface ServedPayload {
  readonly requestId: number;
  readonly payload: WireWindow;
  readonly cached: boolean;
}

export class WindowServer {
  private readonly inflight = new Map<WindowStream, { readonly requestId: number; readonly ac: AbortController }>();
  /** The last final payload of the timeline (for tests and the bench). */
  lastServed: ServedPayload | undefined;
  /** The identities of the payloads last sent, by request id and final flag, with their generation. */
  private readonly sent = new LruCache<{ readonly generation: number; readonly ids: WindowIdentities }>(SENT_KEPT);
  /** Settles when the main timeline's request in progress has been answered. */
  private mainBusy: Promise<void> | undefined;
  /** The latest request of each channel (an overview call that waited for the main one may be stale). */
  private readonly latest = new Map<WindowStream, number>();
  /** The first window being pushed (see `push`), until it has been answered. */
  private pushing: { readonly request: WindowRequest; readonly done: Promise<void> } | undefined;

  constructor(
    private readonly document: WindowDocument,
    private readonly answer: (a: WindowAnswer) => void,
    private readonly options: WindowServerOptions = {},
  ) {}

  /** Cancels the request `requestId` (or every request of `channel`, or everything). */
  cancel(requestId?: number, channel?: WindowStream): void {
    for (const [ch, f] of this.inflight) {
      if ((requestId === undefined || f.requestId === requestId) && (channel === undefined || ch === channel)) {
        f.ac.abort(new Error('superseded'));
        this.inflight.delete(ch);
      }
    }
  }

  /**
   * Sends the timeline window `request` unasked (request id 0, answers marked `pushedKey`): the
   * first window of a fresh editor, built while `init` travels to the webview, which would ask
   * for it one message round later. The webview's own request for it then waits for this one and
   * is answered from the cache instead of cancelling it. Without a key the window is only built
   * into the cache (the page that will ask for it is still loading: nothing can be sent yet).
   */
  async push(generation: number, request: WindowRequest, pushedKey?: string): Promise<WireWindow | undefined> {
    const call: WindowCall = { channel: 'main', requestId: 0, generation, request, ...(pushedKey !== undefined ? { pushedKey } : { silent: true }) };
    const done = this.serve(call);
    const pushing = { request, done: done.then(() => undefined) };
    this.pushing = pushing;
    try {
      return (await done)?.wire;
    } finally {
      if (this.pushing === pushing) this.pushing = undefined;
    }
  }

  /**
   * Builds only the coarse answer of `request` (a few upper nodes) into the cache and resolves
   * with it: the first page of a wide trace without its row index cannot wait for the full window
   * (seconds), but starts with this one. Undefined when the request has no coarse answer (the full
   * one reads as little), is invalid or stale, or the build failed (the page's own request reports
   * that). The page's request for the same window waits for this build.
   */
  async prebuildCoarse(generation: number, request: WindowRequest): Promise<WireWindow | undefined> {
    const doc = this.document;
    const opened = doc.opened;
    if (opened === undefined || generation !== doc.generation) return undefined;
    const layout = checkRequest(opened.layouts, request);
    if (layout === undefined) return undefined;
    const file = opened.file;
    const depth = this.options.forcedDepth ?? depthFor(file, request);
    const coarse = coarseDepthFor(file, request, depth);
    if (coarse <= depth) return undefined;
    const key = this.cacheKey(request, layout, coarse);
    const cached = doc.windows.get(key);
    if (cached !== undefined) return cached.wire;
    const building = (async (): Promise<WireWindow> => {
      let ids: WindowIdentities | undefined;
      const wire = await buildRequestedWindow(file, layout, request, coarse, undefined, doc.rowIndex, doc.siteMarker, { set: (x) => (ids = x) });
      // Cached before the waiting request resumes (it looks for exactly this key).
      if (doc.generation === generation) doc.windows.set(key, { wire, ids });
      return wire;
    })();
    const pushing = { request, done: building.then(noop, noop) };
    this.pushing = pushing;
    try {
      return await building;
    } catch {
      return undefined;
    } finally {
      if (this.pushing === pushing) this.pushing = undefined;
    }
  }

  /** Answers `call`; resolves with the final window it sent (undefined: cancelled or failed). */
  async serve(call: WindowCall): Promise<CachedWindow | undefined> {
    const pushing = this.pushing;
    if (call.channel === 'main' && call.requestId !== 0 && pushing !== undefined && sameRequest(pushing.request, call.request)) {
      this.latest.set(call.channel, call.requestId);
      await pushing.done;
      // A newer request came while this one waited, and is in flight: the page has dropped this
      // one. Served now, it would cancel the newer one (as any new request cancels the one in
      // flight), whose page then waited for an answer that never came.
      if (this.supersededWhileWaiting(call)) return undefined;
    }
    this.latest.set(call.channel, call.requestId);
    if (call.channel === 'overview') {
      // The timeline first: both are asked for at open, and on a wide trace the overview of every
      // row costs seconds that would otherwise delay the first picture (host thread shared). A
      // macrotask first, so a main request posted right after this one goes ahead of it.
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      while (this.mainBusy !== undefined) await this.mainBusy;
      if (this.supersededWhileWaiting(call)) return undefined;
      return await this.serveNow(call);
    }
    let settle: () => void = () => undefined;
    const busy = new Promise<void>((resolve) => (settle = resolve));
    this.mainBusy = busy;
    try {
      return await this.serveNow(call);
    } finally {
      if (this.mainBusy === busy) this.mainBusy = undefined;
      settle();
    }
  }

  /** True (and `call` answered as superseded) when a newer request of its channel came while it waited. */
  private supersededWhileWaiting(call: WindowCall): boolean {
    if (this.latest.get(call.channel) === call.requestId) return false;
    this.answer({ kind: 'windowFailed', requestId: call.requestId, generation: call.generation, cancelled: true, message: 'superseded' });
    return true;
  }

  /** A built payload's key in the document's cache: the request's rows and span, its depth, the site-marks version. */
  private cacheKey(r: WindowRequest, layout: RowLayout, depth: number): string {
    return `${this.document.marksVersion}|${payloadKey(r, Math.min(r.rowEnd, layout.labels.length), depth)}`;
  }

  private async serveNow(call: WindowCall): Promise<CachedWindow | undefined> {
    const doc = this.document;
    const fail = (message: string, cancelled: boolean): undefined => {
      if (call.silent !== true) this.answer({ kind: 'windowFailed', requestId: call.requestId, generation: call.generation, cancelled, message });
      return undefined;
    };
    const opened = doc.opened;
    if (opened === undefined || call.generation !== doc.generation) return fail('stale generation', true);
    const r = call.request;
    const layout = checkRequest(opened.layouts, r);
    if (layout === undefined) return fail('invalid window request', false);
    this.cancel(undefined, call.channel);
    const ac = new AbortController();
    this.inflight.set(call.channel, { requestId: call.requestId, ac });

    const file = opened.file;
    const depth = (call.channel === 'main' ? this.options.forcedDepth : undefined) ?? depthFor(file, r);
    const marker = doc.siteMarker;
    const key = this.cacheKey(r, layout, depth);
    let entry = doc.windows.get(key);
    const cached = entry !== undefined;
    const build = async (d: number): Promise<CachedWindow> => {
      const elsewhere = this.options.offThread?.(r, layout, d, ac.signal);
      if (elsewhere !== undefined) {
        try {
          return await elsewhere;
        } catch (e) {
          if (!(e instanceof OffThreadUnavailable) || ac.signal.aborted) throw e;
        }
      }
      let ids: WindowIdentities | undefined;
      const wire = await buildRequestedWindow(file, layout, r, d, ac.signal, doc.rowIndex, marker, { set: (x) => (ids = x) });
      return { wire, ids };
    };
    try {
      if (entry === undefined) {
        // A full answer that reads many nodes is preceded by a coarse one (a few upper nodes), so
        // something correct is on screen within tens of milliseconds.
        const coarse = coarseDepthFor(file, r, depth);
        if (coarse > depth) {
          const coarseKey = this.cacheKey(r, layout, coarse);
          let quick = doc.windows.get(coarseKey);
          if (quick === undefined) {
            quick = await build(coarse);
            doc.windows.set(coarseKey, quick);
          }
          if (ac.signal.aborted || call.generation !== doc.generation) return fail('cancelled', true);
          this.send(call, false, quick);
        }
        entry = await build(depth);
        doc.windows.set(key, entry);
      }
    } catch (e) {
      if (ac.signal.aborted) return fail('cancelled', true);
      return fail(e instanceof Error ? e.message : String(e), false);
    } finally {
      if (this.inflight.get(call.channel)?.ac === ac) this.inflight.delete(call.channel);
    }
    if (ac.signal.aborted || call.generation !== doc.generation) return fail('cancelled', true);
    if (call.channel === 'main' && call.silent !== true) this.lastServed = { requestId: call.requestId, payload: entry.wire, cached };
    this.send(call, true, entry);
    return entry;
  }

  private send(call: WindowCall, final: boolean, w: CachedWindow): void {
    if (call.silent === true) return;
    if (w.ids !== undefined) this.sent.set(`${call.requestId}|${final}`, { generation: call.generation, ids: w.ids });
    this.answer({
      kind: 'window',
      requestId: call.requestId,
      generation: call.generation,
      final,
      payload: w.wire,
      ...(call.pushedKey !== undefined ? { pushedKey: call.pushedKey } : {}),
    });
  }

  /** Where the drawables of a payload this server sent came from (undefined: unknown or stale). */
  identitiesOf(requestId: number, final: boolean, generation: number): WindowIdentities | undefined {
    const s = this.sent.get(`${requestId}|${final}`);
    return s !== undefined && s.generation === generation ? s.ids : undefined;
  }
}

function noop(): void {}

/** Same fetched span and rows (the level of detail may differ by a pixel of width: then its own build follows). */
function sameRequest(a: WindowRequest, b: WindowRequest): boolean {
  return a.t0 === b.t0 && a.t1 === b.t1 && a.rowStart === b.rowStart && a.rowEnd === b.rowEnd && a.mapIndex === b.mapIndex;
}
