/**
 * The selected drawable and how it changes: clicks (hit test on the loaded payload), keyboard
 * moves along a row or to the neighbouring row, search hits and framing. A click asks the host
 * for details (a call on the RPC helper; the answer arrives through `onDetails`) and reports a
 * `Pick` for the popup. The selection is
 * mirrored in the root's dataset for UI tests.
 */
import type { DetailsMessage, DrawableRef, SearchHit, WebviewToHost } from '../../src/protocol/webview';
import { RpcChannel } from '../../src/protocol/rpc';
import type { WindowColumns } from '../../src/protocol/wire';
import { hitTest, type Hit } from './hitTest';
import { atTimeOnRow, nextOnRow, refOf, selectionOf, shadowSummaryOf, type Selection, type SelectionMove, type ShadowSummary } from './selection';
import type { TimelineView } from './viewState';
import { rowOfSlot, slotOfRow } from './rowLayout';
import type { WindowLoader } from './windowLoader';

/** A click on a drawable: what the popup shows (details come from the host: `details`). */
export interface Pick {
  readonly selection: Selection;
  /** Set when details were requested from the host. */
  readonly detailsId: number | undefined;
  /** The host's answer, matched to this request by the RPC helper. */
  readonly details: Promise<DetailsMessage> | undefined;
  /** What names the drawable to the host (details, dependence chains); undefined for shadows. */
  readonly ref: DrawableRef | undefined;
  /** Set for shadows (summaries): their ratios are in the payload. */
  readonly shadow: ShadowSummary | undefined;
  /** Position in the plot (CSS px) to place the popup at. */
  readonly x: number;
  readonly y: number;
  /** Ctrl/Cmd+click: go straight to the source; Alt: open it beside. */
  readonly toSource: boolean;
  readonly beside: boolean;
}

export type { SelectionMove } from './selection';

export interface PickingDeps {
  readonly view: TimelineView;
  readonly loader: WindowLoader;
  readonly root: HTMLElement;
  readonly post: (m: WebviewToHost) => void;
  readonly onPick: (p: Pick | undefined) => void;
  readonly hidden: () => ReadonlySet<number>;
  readonly redrawOverlay: () => void;
}

/** Keeps a keyboard-moved popup inside the plot (its width is about this much). */
const POPUP_RIGHT_MARGIN_PX = 20;

export class Picking {
  private selected: Selection | undefined;
  /** Details requests in flight (answered by the host's `details` messages). */
  private readonly detailsCalls = new RpcChannel<DetailsMessage>((f) => new Error(f.message));

  constructor(private readonly d: PickingDeps) {}

  get selection(): Selection | undefined {
    return this.selected;
  }

  /** What is at (x, y) of the plot in the loaded payload, if anything. */
  hitAt(x: number, y: number): { readonly hit: Hit; readonly columns: WindowColumns } | undefined {
    const { view, loader } = this.d;
    const loaded = loader.drawableFor(view.visible());
    if (!loaded || !view.init) return undefined;
    const hit = hitTest(loaded.columns, view.scale().offsetMapper(loaded.columns.header.baseTime), view.rowViewport(), x, y, this.d.hidden());
    return hit ? { hit, columns: loaded.columns } : undefined;
  }

  clear(): void {
    if (this.selected === undefined) return;
    this.selected = undefined;
    this.mirror();
    this.d.onPick(undefined);
    this.d.redrawOverlay();
  }

  /** Selects and frames a search match (it keeps its row; nesting depth unknown: outlined as outermost). */
  showHit(hit: SearchHit): void {
    const { view } = this.d;
    if (!view.init) return;
    const row = hit.row ?? 0;
    this.selected = {
      kind: hit.drawable,
      start: hit.start,
      end: hit.end,
      row,
      toRow: hit.toRow ?? row,
      depth: 0,
      mapIndex: view.mapIndex,
      category: hit.category,
      summary: false,
    };
    this.frame();
    this.mirror();
    this.d.redrawOverlay();
  }

  /** Frames the selected drawable (F), with a margin of a fifth of its span on each side. */
  frame(): void {
    const s = this.selected;
    if (!s) return;
    const { view } = this.d;
    const span = Math.max(s.end - s.start, (view.window.t1 - view.window.t0) * 1e-6, 1e-9);
    if (s.mapIndex !== view.mapIndex) view.setMap(s.mapIndex);
    view.setWindow({ t0: s.start - span / 5, t1: s.end + span / 5 });
    view.revealRow(s.row);
  }

  /** Selects what is at (x, y) of the plot and reports it (a click). */
  pickAt(x: number, y: number, toSource: boolean, beside: boolean): void {
    if (!this.d.loader.drawableFor(this.d.view.visible()) || !this.d.view.init) return;
    const found = this.hitAt(x, y);
    if (!found) return this.clear();
    this.select(found.hit, found.columns, x, y, toSource, beside);
  }

  /**
   * Keyboard moves of the selection: next/previous drawable on its row (`.` / `,`), the drawable
   * at the same time on the row above/below (Alt+↑/↓), an arrow's other end (E).
   */
  move(move: SelectionMove): boolean {
    const { view } = this.d;
    const s = this.selected;
    const loaded = this.d.loader.drawableFor(view.visible());
    if (!s || !loaded || s.mapIndex !== view.mapIndex) return false;
    const c = loaded.columns;
    if (move === 'otherEnd') {
      if (s.kind !== 'arrow') return false;
      view.bringIntoView(s.end);
      view.revealRow(s.toRow);
      return true;
    }
    // up/down: the neighbouring shown row (rows may be hidden or moved)
    const rows = view.rowViewport();
    const slot = slotOfRow(rows, s.row) + (move === 'down' ? 1 : -1);
    const neighbour = slot >= 0 && slot < rows.rowCount ? rowOfSlot(rows, slot) : -1;
    if ((move === 'up' || move === 'down') && neighbour < 0) return false;
    const hit = move === 'next' || move === 'previous' ? nextOnRow(c, s, move === 'next' ? 1 : -1) : atTimeOnRow(c, s, neighbour);
    if (!hit) return false;
    const next = selectionOf(hit, c, view.mapIndex);
    view.bringIntoView(next.start, next.end);
    view.revealRow(next.row);
    const x = view.scale().timeToPx(next.start);
    const g = view.rowGeometry(next.row);
    const y = g.top + g.height;
    this.select(hit, c, Math.max(0, Math.min(view.width - POPUP_RIGHT_MARGIN_PX, x)), Math.max(0, y), false, false);
    return true;
  }

  private select(hit: Hit, c: WindowColumns, x: number, y: number, toSource: boolean, beside: boolean): void {
    const { view } = this.d;
    if (!view.init) return;
    this.selected = selectionOf(hit, c, view.mapIndex);
    this.mirror();
    // The payload the hit is in, so the host can resolve the row to its drawable exactly.
    const loaded = this.d.loader.drawableFor(view.visible());
    const ref = refOf(hit, c, view.mapIndex, loaded?.columns === c ? { requestId: loaded.requestId, final: loaded.final } : undefined);
    let detailsId: number | undefined;
    let details: Promise<DetailsMessage> | undefined;
    if (ref) {
      const generation = view.init.generation;
      details = this.detailsCalls.call((id) => {
        detailsId = id;
        this.d.post({ kind: 'requestDetails', detailsId: id, generation, ref });
      });
      details.catch(() => undefined); // dropped with the document: nobody waits for it
    }
    const shadow = hit.kind === 'shadow' ? shadowSummaryOf(hit.index, c) : undefined;
    this.d.onPick({ selection: this.selected, detailsId, details, ref, shadow, x, y, toSource, beside });
    this.d.redrawOverlay();
  }

  /** The host's answer to a details request (a stale one is dropped). */
  onDetails(m: DetailsMessage): void {
    this.detailsCalls.answer(m.detailsId, m);
  }

  /** The selection in the root's dataset (read by UI tests). */
  private mirror(): void {
    const ds = this.d.root.dataset;
    if (this.selected) {
      ds.selStart = String(this.selected.start);
      ds.selEnd = String(this.selected.end);
      ds.selRow = String(this.selected.row);
    } else {
      delete ds.selStart;
      delete ds.selEnd;
      delete ds.selRow;
    }
  }
}
