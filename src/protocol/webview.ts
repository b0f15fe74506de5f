/**
 * The host ↔ timeline-webview protocol: every message in one place, split by direction, each with
 * a string-literal `kind` (readable in devtools, importable with `import type` from the webview).
 * Binary data travels only inside `window` messages, as the columnar buffers of wire.ts.
 */
import type { WireWindow } from './wire';
import type { DrawableDescription, DrawableRef } from '../core/query/details';
import type { ChainMessage, RequestChainMessage } from './chainMessages';
import type { SearchClosedMessage, SearchCountMessage, SearchForMessage, SearchHit, SearchMessage, SearchResultMessage } from './searchMessages';
import type { TraceDescription } from '../core/query/describe';
import type { WindowRequest } from '../core/query/windowRequest';
import type { FirstViewHint } from '../core/query/windowKey';

export type { DrawableRef } from '../core/query/details';
export type { CategoryInfo, TraceDescription, YMapInfo } from '../core/query/describe';
export type { WindowRequest } from '../core/query/windowRequest';
import type { RowChoice, ViewState } from './viewState';
export { sameView, type RowChoice, type RowSizingState, type ViewState } from './viewState';

export type Rgb = readonly [number, number, number];

export type WindowChannel = 'main' | 'overview';

//#region host → webview

/** The document is (re)loaded: drop every cached window and start over with this generation. */
export interface InitMessage extends TraceDescription {
  readonly kind: 'init';
  readonly generation: number;
  readonly fileName: string;
  /** How long the host took to open the trace (ms), conversion included. */
  readonly openMs?: number;
  /** Restore this state when the webview has none of its own (e.g. a `vscode://` link). */
  readonly initialView?: ViewState;
  /** The rows last chosen for this trace (hidden/moved rows, row height), when the webview has no state of its own. */
  readonly rowChoice?: RowChoice;
  /** This is the preview of a CLOG2 still converting: the trace of its first bytes (its time range ends there). */
  readonly preview?: ConversionPreview;
}

/**
 * What a preview shows: the first `shownBytes` of the `totalBytes` input, converted so far
 * `progress` (0..1). `runEnd`: when the whole run ends (the input's last event record), if known;
 * the time axis then spans the whole run, the part not yet converted marked as such.
 */
export interface ConversionPreview {
  readonly shownBytes: number;
  readonly totalBytes: number;
  readonly progress: number;
  readonly runEnd?: number;
}

/** The `init` message of a described trace (the host adds the generation and the name shown). */
export function initMessage(description: TraceDescription, generation: number, fileName: string, openMs?: number, preview?: ConversionPreview): InitMessage {
  return { kind: 'init', generation, fileName, ...(openMs === undefined ? {} : { openMs }), ...(preview === undefined ? {} : { preview }), ...description };
}

/** The whole-file conversion behind a preview moved on (the finished trace then comes as a new `init`). */
export interface PreviewProgressMessage {
  readonly kind: 'previewProgress';
  readonly generation: number;
  readonly progress: number;
}

/** The document is not (yet) viewable: opening, converting (with progress 0..1) or failed. */
export interface StatusMessage {
  readonly kind: 'status';
  readonly phase: 'opening' | 'converting' | 'error' | 'unsupported';
  readonly message: string;
  readonly progress?: number;
  /** The file is not a trace this editor reads (a `.slog` that is not SLOG-1): offer other editors. */
  readonly offerOtherEditor?: boolean;
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
  /**
   * Set on a window the host sent unasked (requestId 0): the first window predicted from `ready`'s
   * hint, for the webview's request of this key (windowKey.ts keyId); anything else ignores it.
   */
  readonly pushedKey?: string;
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
  readonly command: 'zoomIn' | 'zoomOut' | 'home' | 'undoZoom' | 'redoZoom' | 'find' | 'findNext' | 'findPrevious';
}

/**
 * Show this view: a `vscode://` link to an already open trace (recorded in the zoom history), or,
 * with `syncSeq`, the other editor of a comparison moved (not recorded; row scroll included). The
 * host numbers its syncs to one editor 1, 2, …; the webview reports the last it applied.
 */
export interface ShowViewMessage {
  readonly kind: 'showView';
  readonly view: ViewState;
  readonly syncSeq?: number;
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
  /** When the state waited (wait-state analysis): the sentence, and where the rank waited for is. */
  readonly waiting?: { readonly text: string; readonly goToLabel: string; readonly goTo: SearchHit };
}

/** Answer to `requestDetails` (details undefined: not found, `message` says why). */
export interface DetailsMessage {
  readonly kind: 'details';
  readonly detailsId: number;
  readonly details?: DrawableDetails;
  readonly message?: string;
}

/** The colours the user picked per category name (this workspace); sent after `init` and on change. */
export interface CategoryColoursMessage {
  readonly kind: 'categoryColours';
  readonly colours: { readonly [name: string]: Rgb };
}

/** From the statistics panel: highlight a category (undefined: none), show a row, select and frame a drawable. */
export interface LinkMessage {
  readonly kind: 'link';
  readonly highlightCategory?: number | null;
  readonly revealRow?: number;
  readonly reveal?: SearchHit;
}

/**
 * The trace's site marks changed (sent after `init` too): windows carry new flag bits
 * (FLAG_SITE_MATCH, colouring index), so the webview reloads them; `highlight` (a `file:line`
 * list) greys out what did not come from those sites; `colourings[i]` is colour index i + 1.
 */
export interface SiteMarksMessage {
  readonly kind: 'siteMarks';
  readonly highlight?: string;
  readonly colourings: readonly { readonly sites: string; readonly rgb: Rgb }[];
}

/**
 * The wait-state analysis drawn over the timeline, per Y map (index = map index): `waits` and
 * `path` are flat (row, t0, t1) triples — the waiting part of states, the critical path's segments.
 */
export interface AnalysisOverlayMessage {
  readonly kind: 'analysisOverlay';
  readonly generation: number;
  readonly byMap: readonly { readonly waits: readonly number[]; readonly path: readonly number[] }[];
}

/**
 * A comparison links this editor with another (`linked`); `time` is the other editor's cursor,
 * put on this editor's time axis (absent: the pointer is not over the other timeline).
 */
export interface PeerCursorMessage {
  readonly kind: 'peerCursor';
  readonly linked: boolean;
  readonly time?: number;
  /** The other run's name, shown beside its cursor line. */
  readonly label?: string;
}

/**
 * A window embedded in the page (see BootMessage): the final answer to the request the page will
 * make for `pushedKey`, its column buffers as base64 text.
 */
export interface EmbeddedWindowMessage {
  readonly kind: 'embeddedWindow';
  readonly generation: number;
  readonly pushedKey: string;
  /** False: the coarse answer (a few upper nodes); the page asks for the full window. */
  readonly final: boolean;
  readonly payload: EmbeddedWindow;
}

/** A wire window whose buffers are base64 text (JSON has no binary); without its chunk bounds (the page computes them). */
export type EmbeddedWindow = { readonly header: WireWindow['header'] } & {
  readonly [T in Exclude<keyof WireWindow, 'header' | 'chunks'>]-?: { readonly count: number; readonly buffers: { readonly [field: string]: string } };
};

/**
 * What a page can start with, embedded in its HTML as JSON (`<script type="application/json"
 * id="boot">`): the first `init` and what comes with it, and the first window when the host
 * could build it in time. The page hands them to its listeners as if posted, then says `ready`
 * with `booted`.
 */
export type BootMessage = CategoryColoursMessage | InitMessage | SiteMarksMessage | EmbeddedWindowMessage;

export type HostToWebview =
  | ChainMessage
  | PeerCursorMessage
  | AnalysisOverlayMessage
  | LinkMessage
  | SiteMarksMessage
  | SearchForMessage
  | SearchResultMessage
  | SearchCountMessage
  | CategoryColoursMessage
  | InitMessage
  | StatusMessage
  | PreviewProgressMessage
  | WindowMessage
  | WindowFailedMessage
  | CommandMessage
  | ShowViewMessage
  | DetailsMessage;

//#endregion

//#region webview → host

/** The webview script runs and can receive messages (handshake; the host answers with `init`). */
export interface ReadyMessage {
  readonly kind: 'ready';
  /**
   * Sent by a webview with no saved view: the host pushes the first timeline window it will ask
   * for (unless the page came with its init), and builds it ahead for the next page of this size.
   */
  readonly firstView?: FirstViewHint;
  /**
   * The generation of the `init` the page came with (embedded in its HTML, see `bootMessages`): the
   * host sends no init of that generation again.
   */
  readonly booted?: number;
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

/**
 * The view state changed (persisted by the webview itself; the host keeps it for tests and links).
 * `moved`: it changed on its own since the last report (not only by a sync or a resize); a
 * comparison mirrors only such reports. `syncSeq`: the last sync applied (0: none).
 */
export interface ViewStateMessage {
  readonly kind: 'viewState';
  readonly state: ViewState;
  readonly moved: boolean;
  readonly syncSeq: number;
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

/** The legend's colour of category `name` changed (`rgb` absent: back to the file's colour). */
export interface SetCategoryColourMessage {
  readonly kind: 'setCategoryColour';
  readonly name: string;
  readonly rgb?: Rgb;
}

/** The time range selected in the timeline (Ctrl/Cmd+drag), or none; the statistics panel follows it. */
export interface SelectRangeMessage {
  readonly kind: 'selectRange';
  readonly range?: readonly [number, number];
  /** A region (Ctrl/Cmd+Shift+drag): the rows of Y map `mapIndex` it covers; absent: all rows. */
  readonly rows?: readonly number[];
  readonly mapIndex?: number;
}

/** The legend's hidden categories changed (kept by the host for bookmarks and links). */
export interface LegendStateMessage {
  readonly kind: 'legendState';
  readonly hidden: readonly number[];
}

export const TOOLBAR_COMMANDS = ['addBookmark', 'goToBookmark', 'copyViewLink', 'removeTraceColourings'] as const;
export type ToolbarCommand = (typeof TOOLBAR_COMMANDS)[number];

/** The status's "Open With…" / "Open as Text" buttons (a file this editor does not read). */
export interface OpenOtherEditorMessage {
  readonly kind: 'openOtherEditor';
  readonly how: 'pick' | 'text';
}

/** A toolbar button that runs one of the extension's commands (only these). */
export interface RunCommandMessage {
  readonly kind: 'runCommand';
  readonly command: ToolbarCommand;
}

/** While linked in a comparison: the time under the pointer (absent: the pointer left the timeline). */
export interface CursorMessage {
  readonly kind: 'cursor';
  readonly time?: number;
}

export type WebviewToHost =
  | CursorMessage
  | OpenOtherEditorMessage
  | LegendStateMessage
  | RunCommandMessage
  | SelectRangeMessage
  | SearchMessage
  | SearchClosedMessage
  | SetCategoryColourMessage
  | ReadyMessage
  | RequestWindowMessage
  | CancelWindowMessage
  | ViewStateMessage
  | PaintedMessage
  | RequestDetailsMessage
  | RequestChainMessage
  | OpenSourceMessage;

//#endregion

/** Exhaustiveness guard for `switch (msg.kind)`. */
export function assertUnreachable(x: never): never {
  throw new Error(`unexpected message ${JSON.stringify(x)}`);
}

export { isRgb, isRowFields, isWebviewToHost } from './webviewGuard';
export type { ChainInfo, ChainMessage, ChainNodeInfo, RequestChainMessage } from './chainMessages';
export type {
  SearchClosedMessage,
  SearchCountMessage,
  SearchForMessage,
  SearchHit,
  SearchMessage,
  SearchModeName,
  SearchRequestQuery,
  SearchResultMessage,
} from './searchMessages';
