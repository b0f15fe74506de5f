/**
 * The activity strip under the timeline (layers.ts): per pixel column the share of the counted
 * rows in each state (or code colouring), stacked, and its label saying what is counted.
 */
import type { LoadedWindow } from './windowLoader';
import type { Palette } from './theme';
import type { TimelineElements } from './elements';
import type { TimelineView } from './viewState';
import { slotLookup, visibleRows } from './rowLayout';
import { codeColourKey, UNCOLOURED_KEY } from './codeColour';
import { activityOf } from './activity';

/**
 * Draws the strip into `ctx` (cleared, `h` CSS px tall) from `loaded`: the visible rows, or the
 * rows of a selected region among them (`region`); by code colouring when `mode` says so and
 * there are `colourings`.
 */
export function drawActivityStrip(
  ctx: CanvasRenderingContext2D,
  h: number,
  el: TimelineElements,
  view: TimelineView,
  loaded: LoadedWindow | undefined,
  p: Palette | undefined,
  region: readonly number[] | undefined,
  colourings: number,
  mode: 'states' | 'codes',
): void {
  const init = view.init;
  const label = el.activityLabel;
  if (!init || !p || !loaded) {
    label.textContent = '';
    delete el.root.dataset.activitySource;
    return;
  }
  const rows = view.rowViewport();
  const { first, end } = visibleRows(rows);
  const slotOf = slotLookup(rows);
  // The rows counted: the visible ones, or those of a selected region (rows × time) among them.
  const dense = new Map<number, number>();
  if (region) for (const r of region) if (slotOf(r) >= first && slotOf(r) < end && !dense.has(r)) dense.set(r, dense.size);
  const counted = region
    ? { slotOf: (row: number) => dense.get(row) ?? -1, slots: dense.size }
    : {
        slotOf: (row: number) => {
          const s = slotOf(row);
          return s >= first && s < end ? s - first : -1;
        },
        slots: Math.max(0, end - first),
      };
  const codes = mode === 'codes' && colourings > 0;
  const flags = loaded.columns.states.flags;
  const a = activityOf({
    ...(codes ? { keyOf: (i: number) => codeColourKey(flags[i]!, colourings), previewKey: UNCOLOURED_KEY } : {}),
    columns: loaded.columns,
    map: view.scale().offsetLinear(loaded.columns.header.baseTime),
    width: view.width,
    slotOf: counted.slotOf,
    slots: counted.slots,
    hidden: p.hidden,
  });
  const K = a.categories.length;
  const colW = view.width / a.cols;
  for (let col = 0; col < a.cols; col++) {
    let y = h;
    for (let k = 0; k < K; k++) {
      const v = a.share[col * K + k]!;
      if (v <= 0) continue;
      const bh = v * h;
      ctx.fillStyle = a.categories[k] === UNCOLOURED_KEY ? p.muted : (p.fill.get(a.categories[k]!) ?? p.muted);
      ctx.fillRect(col * colW, y - bh, colW, bh);
      y -= bh;
    }
  }
  label.textContent = `activity${region ? ` · ${a.rows} rows` : ''}${codes ? ' · code colours' : ''} · ${a.source === 'exact' ? 'exact' : 'previews'}`;
  label.title =
    `Share of the ${a.rows} ${region ? 'visible rows of the selected region' : 'visible rows'} ${codes ? 'in states of each code colouring (grey: no colouring; preview boxes carry no sites)' : 'in each state'}, per pixel column; ${
      a.source === 'exact' ? 'exact (every drawable of the window)' : `from the preview boxes (tree depth ${loaded.columns.header.lowestDepth})`
    }` + (colourings > 0 ? `. Click: count by ${codes ? 'state' : 'code colouring'}` : '');
  el.root.dataset.activitySource = a.source;
  el.root.dataset.activityMode = codes ? 'codes' : 'states';
}
