/**
 * Canvas painters of the timeline layers. Each takes a 2D context already scaled to CSS pixels
 * and draws straight from the columnar payload (no per-drawable objects): culling by row and
 * pixel range, decimation of sub-pixel states per (row, depth, pixel column), and colour changes
 * only when the category changes.
 */
import { FLAG_SHADOW, PREVIEW_ARROW, PREVIEW_EVENT, PREVIEW_STATE } from '../../src/protocol/wire';
import type { LoadedWindow } from './windowLoader';
import type { Palette } from './theme';
import { TimeScale, formatTime, niceTicks } from './timeScale';
import { nestingInset, rowTop, visibleRows, type RowViewport } from './rowLayout';

type Ctx = CanvasRenderingContext2D;

const ROW_PAD = 2;
const ARROW_HEAD_PX = 6;
const MAX_ARROWS_WITH_HEADS = 20_000;
/** States narrower than this are drawn through the column runs (few wide rects, not many thin ones). */
const COLUMN_RUN_MAX_PX = 4;
/** Column marks store category + offset so that 0 means "nothing" (preview categories are −1…−3). */
const CATEGORY_MARK_OFFSET = 1 << 20;

export function drawGrid(ctx: Ctx, w: number, h: number, scale: TimeScale, rows: RowViewport, p: Palette): void {
  ctx.fillStyle = p.backgroundCss;
  ctx.fillRect(0, 0, w, h);
  const { first, end } = visibleRows(rows);
  ctx.fillStyle = p.rowAlt;
  for (let r = first; r < end; r++) if (r % 2 === 1) ctx.fillRect(0, rowTop(rows, r), w, rows.rowHeight);
  ctx.fillStyle = p.grid;
  for (const t of niceTicks(scale, 90).times) ctx.fillRect(Math.round(scale.timeToPx(t)), 0, 1, h);
}

export function drawAxis(ctx: Ctx, w: number, h: number, scale: TimeScale, p: Palette): void {
  ctx.fillStyle = p.backgroundCss;
  ctx.fillRect(0, 0, w, h);
  const ticks = niceTicks(scale, 90);
  ctx.fillStyle = p.foreground;
  ctx.font = p.font;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  for (const t of ticks.times) {
    const x = Math.round(scale.timeToPx(t));
    ctx.fillRect(x, h - 6, 1, 6);
    ctx.fillText(formatTime(t, ticks.step), x + 3, h / 2 - 2);
  }
  ctx.fillStyle = p.border;
  ctx.fillRect(0, h - 1, w, 1);
}

export function drawLabels(ctx: Ctx, w: number, h: number, rows: RowViewport, labels: readonly string[], p: Palette, hoverRow: number | undefined): void {
  ctx.fillStyle = p.backgroundCss;
  ctx.fillRect(0, 0, w, h);
  const { first, end } = visibleRows(rows);
  ctx.font = p.font;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  for (let r = first; r < end; r++) {
    const y = rowTop(rows, r);
    if (r === hoverRow) {
      ctx.fillStyle = p.selection;
      ctx.fillRect(0, y, w, rows.rowHeight);
    } else if (r % 2 === 1) {
      ctx.fillStyle = p.rowAlt;
      ctx.fillRect(0, y, w, rows.rowHeight);
    }
    ctx.fillStyle = p.foreground;
    ctx.fillText(labels[r] ?? '', w - 8, y + rows.rowHeight / 2, w - 12);
  }
  ctx.fillStyle = p.border;
  ctx.fillRect(w - 1, 0, 1, h);
}

/** A diagonal-stripe pattern marking areas whose data is still loading. */
let stripeCache: { colour: string; pattern: CanvasPattern | null } | undefined;
function loadingPattern(ctx: Ctx, colour: string): CanvasPattern | string {
  if (stripeCache?.colour !== colour) {
    const c = document.createElement('canvas');
    c.width = c.height = 12;
    const g = c.getContext('2d')!;
    g.strokeStyle = colour;
    g.lineWidth = 3;
    g.beginPath();
    g.moveTo(-3, 15);
    g.lineTo(15, -3);
    g.stroke();
    stripeCache = { colour, pattern: ctx.createPattern(c, 'repeat') };
  }
  return stripeCache.pattern ?? colour;
}

export interface DataFrame {
  readonly drawn: number;
  readonly complete: boolean;
}

/**
 * Draws the loaded payload for the view and hatches what it does not cover. Order (Jumpshot):
 * real states (outermost first), state shadows, arrows, events.
 */
export function drawData(ctx: Ctx, w: number, h: number, scale: TimeScale, rows: RowViewport, loaded: LoadedWindow | undefined, p: Palette): DataFrame {
  ctx.clearRect(0, 0, w, h);
  const { first, end } = visibleRows(rows);
  if (loaded === undefined) {
    ctx.fillStyle = loadingPattern(ctx, p.loading);
    ctx.fillRect(0, 0, w, h);
    return { drawn: 0, complete: false };
  }
  const c = loaded.columns;
  const hd = c.header;
  const x = scale.offsetMapper(hd.baseTime);
  const rowH = rows.rowHeight;
  const boxH = rowH - 2 * ROW_PAD;
  const maxNest = hd.maxNesting;
  let drawn = 0;

  // Wide states are filled directly. Narrow ones (< COLUMN_RUN_MAX_PX) only mark their pixel
  // columns (per visible row, last one wins, as if painted) and are then filled as runs of equal colour,
  // so a dense view costs at most one rectangle per column run instead of one per state. States
  // come sorted by nesting depth, so the columns are flushed whenever the depth changes.
  const visibleCount = Math.max(0, end - first);
  const cols = Math.ceil(w) + 1;
  const column = new Int32Array(visibleCount * cols);
  let columnDepth = -1;
  let columnMarks = 0;
  const flushColumns = (): void => {
    if (columnMarks === 0) return;
    const inset = nestingInset(columnDepth, maxNest, boxH);
    for (let r = 0; r < visibleCount; r++) {
      const y = rowTop(rows, first + r) + ROW_PAD + inset;
      const base = r * cols;
      let c0 = 0;
      while (c0 < cols) {
        const mark = column[base + c0]!;
        if (mark === 0) {
          c0++;
          continue;
        }
        let c1 = c0 + 1;
        while (c1 < cols && column[base + c1] === mark) c1++;
        ctx.fillStyle = p.fill.get(mark - CATEGORY_MARK_OFFSET) ?? p.muted;
        ctx.fillRect(c0, y, c1 - c0, boxH - 2 * inset);
        c0 = c1;
      }
    }
    column.fill(0);
    columnMarks = 0;
    lastCat = Number.NaN;
  };

  const st = c.states;
  let lastCat = Number.NaN;
  for (let i = 0; i < st.start.length; i++) {
    const row = st.row[i]!;
    if (row < first || row >= end) continue;
    let x0 = x(st.start[i]!);
    let x1 = x(st.end[i]!);
    if (x1 < 0 || x0 > w) continue;
    const depth = st.depth[i]!;
    if (depth !== columnDepth) {
      flushColumns();
      columnDepth = depth;
    }
    const category = st.category[i]!;
    if (p.hidden.has(category)) continue;
    const cat = p.siteKey ? p.siteKey(category, st.flags[i]!) : category;
    drawn++;
    if (x1 - x0 < COLUMN_RUN_MAX_PX) {
      const base = (row - first) * cols;
      const c1 = Math.min(cols - 1, Math.max(Math.floor(x0) + 1, Math.round(x1)));
      for (let col = Math.max(0, Math.floor(x0)); col < c1; col++) column[base + col] = cat + CATEGORY_MARK_OFFSET;
      columnMarks++;
      continue;
    }
    if (x0 < -1) x0 = -1;
    if (x1 > w + 1) x1 = w + 1;
    if (cat !== lastCat) {
      ctx.fillStyle = p.fill.get(cat) ?? p.muted;
      lastCat = cat;
    }
    const inset = nestingInset(depth, maxNest, boxH);
    const top = rowTop(rows, row) + ROW_PAD + inset;
    ctx.fillRect(x0, top, x1 - x0, boxH - 2 * inset);
    // The fill is the trace's exact colour; a low-contrast one gets a contrasting border only.
    const edge = p.edge.get(cat);
    if (edge !== undefined && x1 - x0 >= 3) {
      ctx.strokeStyle = edge;
      ctx.lineWidth = 1;
      ctx.strokeRect(Math.round(x0) + 0.5, Math.round(top) + 0.5, Math.max(1, Math.round(x1 - x0) - 1), Math.max(1, Math.round(boxH - 2 * inset) - 1));
    }
  }
  flushColumns();

  // State shadows: a box with one band per category, height ∝ exclusion ratio, largest at the
  // bottom, the stack centred vertically (Jumpshot's CumulativeExclusionRatio).
  const sh = c.shadows;
  const sw = c.shadowWeights;
  const shadowOutline = p.fill.get(PREVIEW_STATE) ?? p.muted;
  for (let i = 0; i < sh.start.length; i++) {
    const row = sh.row[i]!;
    if (row < first || row >= end) continue;
    let x0 = x(sh.start[i]!);
    let x1 = x(sh.end[i]!);
    if (x1 < 0 || x0 > w) continue;
    x0 = Math.max(-1, x0);
    x1 = Math.min(w + 1, Math.max(x1, x0 + 1));
    const inset = nestingInset(sh.depth[i]!, maxNest, boxH);
    const top = rowTop(rows, row) + ROW_PAD + inset;
    const bh = boxH - 2 * inset;
    const from = sh.weightStart[i]!;
    const n = sh.weightCount[i]!;
    let total = 0;
    for (let k = from; k < from + n; k++) total += sw.excl[k]!;
    const scaleBand = total > 1 ? 1 / total : 1;
    let y = top + bh - (bh - Math.min(1, total) * bh) / 2;
    for (let k = from; k < from + n; k++) {
      const band = sw.excl[k]! * scaleBand * bh;
      if (band <= 0) continue;
      // a hidden category leaves its share of the box empty (the others keep their places)
      if (p.hidden.has(sw.category[k]!)) {
        y -= band;
        continue;
      }
      y -= band;
      ctx.fillStyle = p.fill.get(sw.category[k]!) ?? p.muted;
      ctx.fillRect(x0, y, x1 - x0, band);
    }
    if (x1 - x0 >= 3) {
      ctx.strokeStyle = shadowOutline;
      ctx.lineWidth = 1;
      ctx.strokeRect(Math.round(x0) + 0.5, Math.round(top) + 0.5, Math.max(1, Math.round(x1 - x0) - 1), Math.max(1, Math.round(bh) - 1));
    }
    drawn++;
  }

  drawn += drawArrows(ctx, w, h, x, rows, loaded, p);
  drawn += drawEvents(ctx, w, x, rows, first, end, loaded, p);

  // Hatch what the payload does not cover (time or rows) as loading.
  ctx.fillStyle = loadingPattern(ctx, p.loading);
  const cx0 = x(0);
  const cx1 = x(hd.t1 - hd.baseTime);
  let complete = true;
  if (cx0 > 0) {
    ctx.fillRect(0, 0, cx0, h);
    complete = false;
  }
  if (cx1 < w) {
    ctx.fillRect(cx1, 0, w - cx1, h);
    complete = false;
  }
  if (first < hd.rowStart) {
    ctx.fillRect(0, 0, w, rowTop(rows, hd.rowStart));
    complete = false;
  }
  if (end > hd.rowEnd) {
    const y = rowTop(rows, hd.rowEnd);
    ctx.fillRect(0, y, w, h - y);
    complete = false;
  }
  return { drawn, complete };
}

function drawArrows(ctx: Ctx, w: number, h: number, x: (o: number) => number, rows: RowViewport, loaded: LoadedWindow, p: Palette): number {
  const ar = loaded.columns.arrows;
  const mid = rows.rowHeight / 2;
  let drawn = 0;
  let style = '';
  let width = -1;
  ctx.lineCap = 'round';
  ctx.beginPath();
  const heads: number[] = [];
  const flushHeads = (): void => {
    ctx.stroke();
    ctx.beginPath();
    ctx.fillStyle = style;
    // (no closePath: fill() closes each triangle, and closePath is slow on long paths in Skia)
    for (let k = 0; k < heads.length; k += 4) {
      const hx = heads[k]!;
      const hy = heads[k + 1]!;
      const dx = heads[k + 2]!;
      const dy = heads[k + 3]!;
      ctx.moveTo(hx, hy);
      ctx.lineTo(hx - dx * ARROW_HEAD_PX - dy * ARROW_HEAD_PX * 0.5, hy - dy * ARROW_HEAD_PX + dx * ARROW_HEAD_PX * 0.5);
      ctx.lineTo(hx - dx * ARROW_HEAD_PX + dy * ARROW_HEAD_PX * 0.5, hy - dy * ARROW_HEAD_PX - dx * ARROW_HEAD_PX * 0.5);
    }
    ctx.fill();
    ctx.beginPath();
    heads.length = 0;
  };
  // Heads only while they can be told apart (dense views show the lines only).
  const withHeads = ar.start.length <= MAX_ARROWS_WITH_HEADS;
  const seen = new Set<number>();
  const rowsFirst = Math.floor(rows.scrollPx / rows.rowHeight);
  for (let i = 0; i < ar.start.length; i++) {
    const x0 = x(ar.start[i]!);
    const x1 = x(ar.end[i]!);
    if ((x0 < 0 && x1 < 0) || (x0 > w && x1 > w)) continue;
    if (!withHeads) {
      // dense: arrows with the same rounded ends on the same rows look identical; draw one
      const cx0 = Math.max(-2, Math.min(8189, Math.round(x0))) + 2;
      const cx1 = Math.max(-2, Math.min(8189, Math.round(x1))) + 2;
      const fr = Math.max(-1, Math.min(1022, ar.fromRow[i]! - rowsFirst)) + 1;
      const tr = Math.max(-1, Math.min(1022, ar.toRow[i]! - rowsFirst)) + 1;
      const key = ((cx0 * 8192 + cx1) * 1024 + fr) * 1024 + tr;
      if (seen.has(key)) continue;
      seen.add(key);
    }
    const y0 = rowTop(rows, ar.fromRow[i]!) + mid;
    const y1 = rowTop(rows, ar.toRow[i]!) + mid;
    if ((y0 < 0 && y1 < 0) || (y0 > h && y1 > h)) continue;
    const shadow = (ar.flags[i]! & FLAG_SHADOW) !== 0;
    const cat = shadow ? PREVIEW_ARROW : ar.category[i]!;
    if (p.hidden.has(cat)) continue;
    const s = p.line.get(p.siteKey && !shadow ? p.siteKey(cat, ar.flags[i]!) : cat) ?? p.foreground;
    const lw = shadow ? Math.min(10, 1 + Math.floor(Math.log(Math.max(1, ar.count[i]!)) / Math.log(5))) : 1;
    if (s !== style || lw !== width) {
      if (style !== '') flushHeads();
      style = s;
      width = lw;
      ctx.strokeStyle = s;
      ctx.lineWidth = lw;
    }
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    const len = Math.hypot(x1 - x0, y1 - y0);
    if (withHeads && !shadow && len > 2 * ARROW_HEAD_PX) heads.push(x1, y1, (x1 - x0) / len, (y1 - y0) / len);
    drawn++;
  }
  if (style !== '') flushHeads();
  return drawn;
}

function drawEvents(ctx: Ctx, w: number, x: (o: number) => number, rows: RowViewport, first: number, end: number, loaded: LoadedWindow, p: Palette): number {
  const ev = loaded.columns.events;
  let drawn = 0;
  // Real events: a stem and a small triangle on top, batched into one path per colour run.
  let style = '';
  const lastCol = new Float64Array(Math.max(0, end - first)).fill(-Infinity);
  ctx.beginPath();
  for (let i = 0; i < ev.time.length; i++) {
    const row = ev.row[i]!;
    if (row < first || row >= end) continue;
    const top = rowTop(rows, row);
    if ((ev.flags[i]! & FLAG_SHADOW) !== 0) {
      const x0 = Math.max(-1, x(ev.start[i]!));
      const x1 = Math.min(w + 1, x(ev.end[i]!));
      if (x1 < 0 || x0 > w) continue;
      ctx.fillStyle = p.fill.get(PREVIEW_EVENT) ?? p.muted;
      ctx.fillRect(x0, top + rows.rowHeight - 5, Math.max(1, x1 - x0), 2);
      ctx.fillRect(x(ev.time[i]!) - 1, top + 3, 2, rows.rowHeight - 6);
      drawn++;
      continue;
    }
    if (p.hidden.has(ev.category[i]!)) continue;
    const xe = x(ev.time[i]!);
    if (xe < -4 || xe > w + 4) continue;
    const col = Math.round(xe);
    if (lastCol[row - first] === col) continue;
    lastCol[row - first] = col;
    const s = p.line.get(p.siteKey ? p.siteKey(ev.category[i]!, ev.flags[i]!) : ev.category[i]!) ?? p.foreground;
    if (s !== style) {
      if (style !== '') ctx.fill();
      ctx.beginPath();
      style = s;
      ctx.fillStyle = s;
    }
    ctx.rect(col - 0.5, top + 2, 1.5, rows.rowHeight - 4);
    ctx.moveTo(xe - 3.5, top + 1);
    ctx.lineTo(xe + 3.5, top + 1);
    ctx.lineTo(xe, top + 6);
    drawn++;
  }
  if (style !== '') ctx.fill();
  return drawn;
}

/** The whole-trace overview: rows squeezed into the strip height, shadows in their dominant colour. */
export function drawOverviewData(ctx: Ctx, w: number, h: number, scale: TimeScale, rowCount: number, loaded: LoadedWindow | undefined, p: Palette): void {
  ctx.fillStyle = p.backgroundCss;
  ctx.fillRect(0, 0, w, h);
  if (!loaded || rowCount === 0) {
    ctx.fillStyle = loadingPattern(ctx, p.loading);
    ctx.fillRect(0, 0, w, h);
    return;
  }
  const c = loaded.columns;
  const x = scale.offsetMapper(c.header.baseTime);
  const rh = h / rowCount;
  const bandH = Math.max(1, rh);
  const st = c.states;
  for (let i = 0; i < st.start.length; i++) {
    if (st.depth[i]! > 0 && rh < 3) continue;
    const x0 = x(st.start[i]!);
    const x1 = x(st.end[i]!);
    if (p.hidden.has(st.category[i]!)) continue;
    ctx.fillStyle = p.fill.get(p.siteKey ? p.siteKey(st.category[i]!, st.flags[i]!) : st.category[i]!) ?? p.muted;
    ctx.fillRect(x0, st.row[i]! * rh, Math.max(1, x1 - x0), bandH);
  }
  const sh = c.shadows;
  for (let i = 0; i < sh.start.length; i++) {
    const n = sh.weightCount[i]!;
    if (n === 0) continue;
    const x0 = x(sh.start[i]!);
    const x1 = x(sh.end[i]!);
    ctx.fillStyle = p.fill.get(c.shadowWeights.category[sh.weightStart[i]!]!) ?? p.muted;
    ctx.fillRect(x0, sh.row[i]! * rh, Math.max(1, x1 - x0), bandH);
  }
}

/** Hover line with its time, the drag-select rectangle and the loading note. */
export function drawOverlay(
  ctx: Ctx,
  w: number,
  h: number,
  scale: TimeScale,
  p: Palette,
  hoverX: number | undefined,
  select: readonly [number, number] | undefined,
  note: string | undefined,
): void {
  ctx.clearRect(0, 0, w, h);
  ctx.font = p.font;
  if (select) {
    const [a, b] = select[0] < select[1] ? select : [select[1], select[0]];
    ctx.fillStyle = p.selection;
    ctx.fillRect(a, 0, b - a, h);
    ctx.fillStyle = p.accent;
    ctx.fillRect(a, 0, 1, h);
    ctx.fillRect(b, 0, 1, h);
    ctx.fillStyle = p.foreground;
    ctx.textBaseline = 'top';
    ctx.textAlign = 'left';
    const d = scale.pxToTime(b) - scale.pxToTime(a);
    ctx.fillText(`Δ ${formatTime(d, d / 10)}`, b + 4, 4);
  }
  if (hoverX !== undefined) {
    ctx.fillStyle = p.accent;
    ctx.fillRect(Math.round(hoverX), 0, 1, h);
    const ticks = niceTicks(scale, 90);
    const label = formatTime(scale.pxToTime(hoverX), ticks.step, ticks.step / 100);
    ctx.textBaseline = 'top';
    const tw = ctx.measureText(label).width;
    const lx = hoverX + 6 + tw > w ? hoverX - 6 - tw : hoverX + 6;
    ctx.fillStyle = p.backgroundCss;
    ctx.fillRect(lx - 2, 2, tw + 4, 16);
    ctx.fillStyle = p.foreground;
    ctx.textAlign = 'left';
    ctx.fillText(label, lx, 4);
  }
  if (note) {
    ctx.textBaseline = 'bottom';
    ctx.textAlign = 'right';
    const tw = ctx.measureText(note).width;
    ctx.fillStyle = p.backgroundCss;
    ctx.fillRect(w - tw - 12, h - 20, tw + 10, 18);
    ctx.fillStyle = p.muted;
    ctx.fillText(note, w - 7, h - 5);
  }
}
