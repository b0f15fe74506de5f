/**
 * What a new timeline page starts with (BootMessage, embedded in its HTML): the first `init` and
 * what comes with it, and the first window when it can be built in time. The page then needs no
 * `ready` → `init` round (100–300 ms through code-server) nor a request round before its first
 * paint.
 */
import type { BootMessage, CategoryColoursMessage, InitMessage, SiteMarksMessage } from '../protocol/webview';
import type { WireWindow } from '../protocol/wire';
import { DEFAULT_FIRST_VIEW, isFirstViewHint, keyId, predictFirstWindow, requestOf, type FirstViewHint } from '../core/query/windowKey';
import type { WindowRequest } from '../core/query/windowRequest';
import { embedWindow } from './embedWindow';

/** How long a new page waits for its document to open, to start with the init. */
export const BOOT_WAIT_MS = 500;
/**
 * How long it waits for its first window (with the row index tens of ms warm, 100-260 ms in a
 * busy editor). A page started without it asks once its script runs (110-350 ms after its
 * document starts) and waits for the answer through code-server: waiting here is cheaper.
 */
const BOOT_WINDOW_WAIT_MS = 300;

/** The plot size of the last fresh page (the next page is most likely the same size). */
let lastFirstView: FirstViewHint | undefined;

/** Where the last plot size is kept between sessions (the extension's global state). */
export interface FirstViewStore {
  get(): unknown;
  update(hint: FirstViewHint): void;
}

let store: FirstViewStore | undefined;

/**
 * Keeps the last plot size in `s` from now on and starts from the one it holds: without it the
 * first page after VS Code starts had no size to build its window for, booted without one and
 * asked for it, a message round through code-server (70–150 ms for a small SLOG-2 in e2e step 10,
 * 234 and 255 ms in two runs of the step that opens a 3 GB CLOG2).
 */
export function keepFirstViewIn(s: FirstViewStore): void {
  store = s;
  const kept = s.get();
  lastFirstView = isFirstViewHint(kept) ? kept : undefined;
}

export function rememberFirstView(hint: FirstViewHint): void {
  const before = lastFirstView;
  lastFirstView = hint;
  const same = before !== undefined && (Object.keys(hint) as (keyof FirstViewHint)[]).every((k) => before[k] === hint[k]);
  if (!same) store?.update(hint);
}

export interface BootParts {
  readonly init: InitMessage;
  readonly colours: CategoryColoursMessage;
  readonly marks: SiteMarksMessage;
  /** The page shows the default view (no remembered rows, no view to show): its first window is predictable. */
  readonly defaultView: boolean;
  /** Its first window builds in tens of ms (row index, or few rows): worth waiting for. */
  readonly quick: boolean;
  /** Builds a window into the cache without sending it (the page's request then waits for it). */
  readonly build: (request: WindowRequest) => Promise<WireWindow | undefined>;
  /** Builds only the coarse answer of a window into the cache (see WindowServer.prebuildCoarse). */
  readonly buildCoarse: (request: WindowRequest) => Promise<WireWindow | undefined>;
  /** The document's generation now (a reload while building makes the window stale). */
  readonly generation: () => number;
}

/**
 * The boot messages: with the first window (predicted with the last page's plot size, or
 * DEFAULT_FIRST_VIEW's when no page has told one) when it is
 * built within BOOT_WINDOW_WAIT_MS; a window not ready by then goes on building for the request.
 * When the full window is not quick (a wide trace before its row index), its coarse answer is
 * embedded instead, and the page asks for the full one.
 */
export async function bootMessages(p: BootParts): Promise<BootMessage[]> {
  const m = p.init;
  const boot: BootMessage[] = [p.colours, m, p.marks];
  const hint = lastFirstView ?? DEFAULT_FIRST_VIEW;
  const rows = m.yMaps[m.defaultMap]?.rows.length ?? 0;
  if (!p.defaultView || rows === 0) return boot;
  const { key, request } = requestOf(predictFirstWindow(hint, m.timeRange, rows, m.defaultMap));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), BOOT_WINDOW_WAIT_MS)));
  const wire = await Promise.race([p.quick ? p.build(request) : p.buildCoarse(request), timeout]);
  clearTimeout(timer);
  if (wire !== undefined && p.generation() === m.generation) {
    boot.push({ kind: 'embeddedWindow', generation: m.generation, pushedKey: keyId(key), final: p.quick, payload: embedWindow(wire) });
  }
  return boot;
}
