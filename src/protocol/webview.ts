/**
 * The host ↔ timeline-webview protocol: every message in one place, split by direction, each with
 * a string-literal `kind` (readable in devtools, importable with `import type` from the webview).
 * Binary data travels only inside `window` messages, as the columnar buffers of wire.ts.
 */
import type { WireWindow } from './wire';
import type { DrawableDescription, DrawableRef } from '../format/query/details';

export type { DrawableRef } from '../format/query/details';

/** What the webview needs to know about a category to draw and label it. */
export interface CategoryInfo {
  readonly index: number;
  readonly name: string;
  readonly topology: 'event' | 'state' | 'arrow';
  readonly rgba: readonly [number, number, number, number];
  readonly width: number;
}

/** One Y-axis view ("Process View", …) as rows: row i is labelled `rows[i]`. */
export interface YMapInfo {
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: readonly string[];
}

/** The requested window: visible span plus what the webview wants fetched around it. */
export interface WindowRequest {
  /** Fetched span, absolute seconds (already quantised + over-fetched by the webview, see windowKey.ts). */
  readonly t0: number;
  readonly t1: number;
  /** Row range [rowStart, rowEnd) in the chosen map. */
  readonly rowStart: number;
  readonly rowEnd: number;
  readonly mapIndex: number;
  /** Canvas width in device-independent pixels of the VISIBLE span (drives the level of detail). */
  readonly pixelWidth: number;
  /** Visible span in seconds (pixelWidth covers this much time). */
  readonly visibleSpan: number;
}

export type WindowChannel = 'main' | 'overview';

/** What one editor shows; persisted by the webview and echoed to the host for tests. */
export interface ViewState {
  readonly t0: number;
  readonly t1: number;
  readonly mapIndex: number;
  readonly scrollRow: number;
}

//#region host → webview

/** The document is (re)loaded: drop every cached window and start over with this generation. */
export interface InitMessage {
  readonly kind: 'init';
  readonly generation: number;
  readonly fileName: string;
  readonly timeRange: readonly [number, number];
  readonly categories: readonly CategoryInfo[];
  readonly yMaps: readonly YMapInfo[];
  /** Index of the Y map to show first (Process View when present). */
  readonly defaultMap: number;
  readonly treeDepth: number;
  readonly warnings: readonly string[];
  /** Restore this state when the webview has none of its own (e.g. a `vscode://` link). */
  readonly initialView?: ViewState;
}

/** The document is not (yet) viewable: opening, converting (with progress 0..1) or failed. */
export interface StatusMessage {
  readonly kind: 'status';
  readonly phase: 'opening' | 'converting' | 'error' | 'unsupported';
  readonly message: string;
  readonly progress?: number;
}

/**
 * Answer to a `requestWindow` with the same id (drop it when the generation or id is stale).
 * `final: false` marks a quick coarse answer (fewer tree levels) that a finer one will replace.
 */
export interface WindowMessage {
  readonly kind: 'window';
  readonly requestId: number;
  readonly generation: number;
  readonly final: boolean;
  readonly payload: WireWindow;
}

/** A `requestWindow` ended without data (cancelled because superseded, or failed). */
export interface WindowFailedMessage {
  readonly kind: 'windowFailed';
  readonly requestId: number;
  readonly generation: number;
  readonly cancelled: boolean;
  readonly message: string;
}

/** A host command for this editor (keybindings/commands routed to the focused editor). */
export interface CommandMessage {
  readonly kind: 'command';
  readonly command: 'zoomIn' | 'zoomOut' | 'home' | 'undoZoom' | 'redoZoom';
}

/** Show this view (a `vscode://` link to an already open trace); recorded in the zoom history. */
export interface ShowViewMessage {
  readonly kind: 'showView';
  readonly view: ViewState;
}

/** A source location the host may open: `siteId` is all the webview can send back. */
export interface SiteRef {
  readonly siteId: number;
  /** For display only (the recorded name and line). */
  readonly file: string;
  readonly line: number;
}

/** The popup contents of a drawable (source locations replaced by site ids). */
export interface DrawableDetails extends Omit<DrawableDescription, 'source'> {
  readonly sources: { readonly start?: SiteRef; readonly end?: SiteRef };
}

/** Answer to `requestDetails` (details undefined: not found, `message` says why). */
export interface DetailsMessage {
  readonly kind: 'details';
  readonly detailsId: number;
  readonly details?: DrawableDetails;
  readonly message?: string;
}

export type HostToWebview = InitMessage | StatusMessage | WindowMessage | WindowFailedMessage | CommandMessage | ShowViewMessage | DetailsMessage;

//#endregion

//#region webview → host

/** The webview script runs and can receive messages (handshake; the host answers with `init`). */
export interface ReadyMessage {
  readonly kind: 'ready';
}

/** Fetch this window; a newer request supersedes (and cancels) older ones of the same editor. */
export interface RequestWindowMessage {
  readonly kind: 'requestWindow';
  /** Independent request streams: the timeline itself and the overview strip (each cancels only its own). */
  readonly channel: WindowChannel;
  readonly requestId: number;
  readonly generation: number;
  readonly request: WindowRequest;
}

/** The webview no longer needs this request (view moved on). */
export interface CancelWindowMessage {
  readonly kind: 'cancelWindow';
  readonly requestId: number;
}

/** The view state changed (persisted by the webview itself; the host keeps it for tests/links). */
export interface ViewStateMessage {
  readonly kind: 'viewState';
  readonly state: ViewState;
}

/** A frame with data was drawn (first paint and after each new payload; for tests and the bench). */
export interface PaintedMessage {
  readonly kind: 'painted';
  readonly generation: number;
  readonly drawables: number;
  readonly frameMs: number;
}

/** The full details of one drawable (the click popup); answered by `details` with the same id. */
export interface RequestDetailsMessage {
  readonly kind: 'requestDetails';
  readonly detailsId: number;
  readonly generation: number;
  readonly ref: DrawableRef;
}

/** Open the source location `siteId` (from a `details` answer) in a text editor. */
export interface OpenSourceMessage {
  readonly kind: 'openSource';
  readonly siteId: number;
  readonly beside: boolean;
}

export type WebviewToHost =
  | ReadyMessage
  | RequestWindowMessage
  | CancelWindowMessage
  | ViewStateMessage
  | PaintedMessage
  | RequestDetailsMessage
  | OpenSourceMessage;

//#endregion

/** Exhaustiveness guard for `switch (msg.kind)`. */
export function assertUnreachable(x: never): never {
  throw new Error(`unexpected message ${JSON.stringify(x)}`);
}

/** Structural check of a message from the other side (it crosses a trust boundary as `unknown`). */
export function isWebviewToHost(x: unknown): x is WebviewToHost {
  if (typeof x !== 'object' || x === null) return false;
  const kind = (x as { kind?: unknown }).kind;
  switch (kind) {
    case 'ready':
      return true;
    case 'requestWindow': {
      const m = x as { requestId?: unknown; generation?: unknown; request?: unknown; channel?: unknown };
      if (typeof m.requestId !== 'number' || typeof m.generation !== 'number' || (m.channel !== 'main' && m.channel !== 'overview')) return false;
      const r = m.request as Record<string, unknown> | undefined;
      return (
        typeof r === 'object' &&
        r !== null &&
        ['t0', 't1', 'rowStart', 'rowEnd', 'mapIndex', 'pixelWidth', 'visibleSpan'].every((k) => typeof r[k] === 'number' && Number.isFinite(r[k]))
      );
    }
    case 'cancelWindow':
      return typeof (x as { requestId?: unknown }).requestId === 'number';
    case 'viewState': {
      const s = (x as { state?: Record<string, unknown> }).state;
      return typeof s === 'object' && s !== null && ['t0', 't1', 'mapIndex', 'scrollRow'].every((k) => typeof s[k] === 'number');
    }
    case 'painted': {
      const m = x as { drawables?: unknown; frameMs?: unknown; generation?: unknown };
      return typeof m.drawables === 'number' && typeof m.frameMs === 'number' && typeof m.generation === 'number';
    }
    case 'requestDetails': {
      const m = x as { detailsId?: unknown; generation?: unknown; ref?: unknown };
      return isCount(m.detailsId) && typeof m.generation === 'number' && isDrawableRef(m.ref);
    }
    case 'openSource': {
      const m = x as { siteId?: unknown; beside?: unknown };
      return isCount(m.siteId) && typeof m.beside === 'boolean';
    }
    default:
      return false;
  }
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function isDrawableRef(x: unknown): x is DrawableRef {
  if (typeof x !== 'object' || x === null) return false;
  const r = x as Record<string, unknown>;
  if (r.drawable !== 'state' && r.drawable !== 'arrow' && r.drawable !== 'event') return false;
  if (![r.mapIndex, r.row, r.toRow, r.lowestDepth].every(isCount)) return false;
  if (typeof r.category !== 'number' || !Number.isSafeInteger(r.category)) return false;
  if (![r.start, r.end, r.tolerance].every((v) => typeof v === 'number' && Number.isFinite(v))) return false;
  return (r.tolerance as number) >= 0 && (r.tolerance as number) <= 1;
}
