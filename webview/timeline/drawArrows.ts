/**
 * Arrows and events of the data layer. Real arrows: the category colour over a contrasting
 * outline, with arrowheads (Jumpshot: white on black, heads 10 × 6 px). Preview arrows
 * (summaries of many messages): thin, width and alpha growing with log5 of their count, never an
 * outline, so they do not bury the states. When arrows are too dense to tell apart (or the rows are
 * aggregated) they are summarised instead: message density per row block × time bin, drawn as
 * small marks on the rows' centre lines.
 */
import type { Paint2D } from './paint2d';
import { FLAG_SHADOW, PREVIEW_ARROW, PREVIEW_EVENT } from '../../src/protocol/wire';
import type { LoadedWindow } from './windowLoader';
import type { Palette } from './theme';
import { cssRgba, type Rgb } from './colour';
import { slotOfRow, visibleRows, type RowViewport } from './rowLayout';
import { HIDDEN_KEY, drawKeys } from './drawKeys';
import { arrowHead, arrowOutline, arrowsToSummarise, previewArrowStyle } from './drawStyle';
import { drawDensity } from './drawArrowDensity';
import { spansInPixels, timeChunks } from './timeChunks';
import type { OffsetMap } from './timeScale';
import { EventStems } from './eventStems';
import { EventMarks } from './eventMarks';
import { beginHeads, type EventHeads } from './eventHeads';
import { rgbaOf } from './columnStrips';

type Ctx = Paint2D;

const stems = new EventStems();
const marks = new EventMarks();
/** auto: lines while they can be told apart, else density. */
export type ArrowMode = 'auto' | 'lines' | 'density' | 'off';

/** Beyond this many arrows in view only the lines are drawn (no heads, no outline). */
const MAX_ARROWS_WITH_HEADS = 20_000;
/** Outlines double the stroking; beyond this many arrows the lines are too dense for them to matter. */
const MAX_ARROWS_WITH_OUTLINE = 3_000;
/** Batch keys of preview arrows (real arrows are keyed by category, always < this). */
const PREVIEW_KEY_BASE = 1 << 30;

export function drawArrows(
  ctx: Ctx,
  w: number,
  h: number,
  x: (o: number) => number,
  map: OffsetMap,
  rows: RowViewport,
  loaded: LoadedWindow,
  p: Palette,
  mode: ArrowMode,
  /** The frame's pixel layer (eventHeads.ts beginPixelLayer), for the density marks; undefined: paths. */
  layer?: EventHeads,
): { readonly drawn: number; readonly mode: 'lines' | 'density' | 'off' } {
  const ar = loaded.columns.arrows;
  if (mode === 'off' || ar.start.length === 0) return { drawn: 0, mode: 'off' };
  const mid = rows.rowHeight / 2;
  const yOf = (row: number): number => {
    const s = slotOfRow(rows, row);
    return s < 0 ? Number.NaN : s * rows.rowHeight - rows.scrollPx + mid;
  };
  const hiddenArrow = (i: number): boolean => p.hidden.has((ar.flags[i]! & FLAG_SHADOW) !== 0 ? PREVIEW_ARROW : ar.category[i]!);
  // culled by chunk (timeChunks.ts)
  const spans = spansInPixels(timeChunks(ar.start, ar.end), map, -2, w + 2);
  if (mode === 'density' || (mode === 'auto' && tooManyInView(ar, map, w, h, spans))) {
    return { drawn: drawDensity(ctx, w, h, map, rows, loaded, p, hiddenArrow, spans, layer), mode: 'density' };
  }
  return { drawn: drawLines(ctx, w, h, x, rows, yOf, loaded, p, hiddenArrow, spans), mode: 'lines' };
}

/** Whether more arrows are in view than can be told apart (drawStyle.summariseArrows); stops counting there. */
function tooManyInView(ar: LoadedWindow['columns']['arrows'], map: OffsetMap, w: number, h: number, spans: readonly number[]): boolean {
  const { start, end } = ar;
  const { shift, k } = map;
  let n = 0;
  const limit = arrowsToSummarise(w, h);
  for (let sp = 0; sp < spans.length; sp += 2) {
    const to = spans[sp + 1]!;
    for (let i = spans[sp]!; i < to; i++) {
      const x0 = shift + start[i]! * k;
      const x1 = shift + end[i]! * k;
      if (!((x0 < 0 && x1 < 0) || (x0 > w && x1 > w)) && ++n >= limit) return true;
    }
  }
  return false;
}

interface Batch {
  readonly colour: string;
  readonly outline: string | undefined;
  readonly width: number;
  readonly alpha: number;
  readonly lines: number[];
  readonly heads: number[];
}

function drawLines(
  ctx: Ctx,
  w: number,
  h: number,
  x: (o: number) => number,
  rows: RowViewport,
  yOf: (row: number) => number,
  loaded: LoadedWindow,
  p: Palette,
  hidden: (i: number) => boolean,
  spans: readonly number[],
): number {
  const ar = loaded.columns.arrows;
  const head = arrowHead(rows.rowHeight);
  const withHeads = ar.start.length <= MAX_ARROWS_WITH_HEADS;
  let maxCount = 1;
  for (let i = 0; i < ar.start.length; i++) if ((ar.flags[i]! & FLAG_SHADOW) !== 0 && ar.count[i]! > maxCount) maxCount = ar.count[i]!;
  const batches = new Map<number, Batch>();
  const withOutline = ar.start.length <= MAX_ARROWS_WITH_OUTLINE;
  const seen = new Set<number>();
  const { first } = visibleRows(rows);
  let drawn = 0;
  for (let sp = 0; sp < spans.length; sp += 2) {
    for (let i = spans[sp]!; i < spans[sp + 1]!; i++) {
      const x0 = x(ar.start[i]!);
      const x1 = x(ar.end[i]!);
      if ((x0 < 0 && x1 < 0) || (x0 > w && x1 > w)) continue;
      if (hidden(i)) continue;
      const y0 = yOf(ar.fromRow[i]!);
      const y1 = yOf(ar.toRow[i]!);
      if (Number.isNaN(y0) || Number.isNaN(y1) || (y0 < 0 && y1 < 0) || (y0 > h && y1 > h)) continue;
      if (!withHeads) {
        // dense: arrows with the same rounded ends on the same rows look identical; draw one
        const cx0 = Math.max(-2, Math.min(8189, Math.round(x0))) + 2;
        const cx1 = Math.max(-2, Math.min(8189, Math.round(x1))) + 2;
        const fr = Math.max(-1, Math.min(1022, Math.round(y0 / Math.max(1, rows.rowHeight)) - first)) + 1;
        const tr = Math.max(-1, Math.min(1022, Math.round(y1 / Math.max(1, rows.rowHeight)) - first)) + 1;
        const key = ((cx0 * 8192 + cx1) * 1024 + fr) * 1024 + tr;
        if (seen.has(key)) continue;
        seen.add(key);
      }
      const shadow = (ar.flags[i]! & FLAG_SHADOW) !== 0;
      const cat = shadow ? PREVIEW_ARROW : p.siteKey ? p.siteKey(ar.category[i]!, ar.flags[i]!) : ar.category[i]!;
      const rgb = p.fillRgb.get(cat) ?? ([200, 200, 200] as Rgb);
      let key: number;
      let width = 1.25;
      let alpha = 1;
      if (shadow) {
        const s = previewArrowStyle(ar.count[i]!, maxCount);
        width = Math.round(s.width * 4) / 4;
        alpha = Math.round(s.alpha * 10) / 10;
        key = PREVIEW_KEY_BASE + width * 400 + alpha * 10;
      } else key = cat;
      let b = batches.get(key);
      if (!b) {
        const outline = !shadow && withHeads && withOutline ? arrowOutline(rgb) : undefined;
        batches.set(key, (b = { colour: cssRgba(rgb), outline, width, alpha, lines: [], heads: [] }));
      }
      b.lines.push(x0, y0, x1, y1);
      const len = Math.hypot(x1 - x0, y1 - y0);
      if (withHeads && !shadow && len > 1.5 * head.length) b.heads.push(x1, y1, (x1 - x0) / len, (y1 - y0) / len);
      drawn++;
    }
  }
  ctx.lineCap = 'round';
  // preview batches first (thin, under the real arrows), then outlines, then colours and heads
  const ordered = [...batches.values()].sort((a, b) => Number(a.outline !== undefined) - Number(b.outline !== undefined));
  for (const b of ordered) {
    ctx.globalAlpha = b.alpha;
    if (b.outline) strokeLines(ctx, b.lines, b.outline, b.width + 2);
    strokeLines(ctx, b.lines, b.colour, b.width);
    if (b.heads.length > 0) fillHeads(ctx, b.heads, b.colour, b.outline, head.length, head.halfWidth);
  }
  ctx.globalAlpha = 1;
  return drawn;
}

function strokeLines(ctx: Ctx, lines: readonly number[], colour: string, width: number): void {
  ctx.strokeStyle = colour;
  ctx.lineWidth = width;
  ctx.beginPath();
  for (let k = 0; k < lines.length; k += 4) {
    ctx.moveTo(lines[k]!, lines[k + 1]!);
    ctx.lineTo(lines[k + 2]!, lines[k + 3]!);
  }
  ctx.stroke();
}

function fillHeads(ctx: Ctx, heads: readonly number[], colour: string, outline: string | undefined, len: number, half: number): void {
  ctx.beginPath();
  // (no closePath per head: fill() closes each triangle, and closePath is slow on long paths in Skia)
  for (let k = 0; k < heads.length; k += 4) {
    const hx = heads[k]!;
    const hy = heads[k + 1]!;
    const dx = heads[k + 2]!;
    const dy = heads[k + 3]!;
    ctx.moveTo(hx, hy);
    ctx.lineTo(hx - dx * len - dy * half, hy - dy * len + dx * half);
    ctx.lineTo(hx - dx * len + dy * half, hy - dy * len - dx * half);
    ctx.lineTo(hx, hy);
  }
  if (outline) {
    ctx.strokeStyle = outline;
    ctx.lineWidth = 1;
    ctx.stroke();
  }
  ctx.fillStyle = colour;
  ctx.fill();
}

export function drawEvents(
  ctx: Ctx,
  w: number,
  x: (o: number) => number,
  map: OffsetMap,
  rows: RowViewport,
  /** The visible slot of each payload row (rowLayout.visibleSlots). */
  slots: Int32Array,
  loaded: LoadedWindow,
  p: Palette,
  /** The frame's pixel layer (beginPixelLayer) for the heads, drawn here under the stems; undefined: a path per colour run. */
  layer?: EventHeads,
): number {
  const ev = loaded.columns.events;
  const { first, end } = visibleRows(rows);
  const rowH = rows.rowHeight;
  const tri = Math.max(2.5, Math.min(5, rowH / 6));
  let drawn = 0;
  // Real events: a stem and a small triangle on top (heads batched into one path per colour run).
  let style = '';
  let styleRgba = 0;
  const lastCol = new Float64Array(Math.max(0, end - first)).fill(-Infinity);
  // culled by chunk (timeChunks.ts); a marker reaches a few px beside its time
  const spans = spansInPixels(timeChunks(ev.start, ev.end, ev.time), map, -8, w + 8);
  const rowStart = loaded.columns.header.rowStart;
  const keys = drawKeys(p, ev.category, ev.flags);
  const { shift, k } = map;
  const { time, row, flags } = ev;
  const scroll = rows.scrollPx;
  const nSlots = slots.length;
  let lastKey = Number.NaN;
  // stems as pixel lines (eventStems.ts), painted after the heads; the heads composited as pixels
  // too (eventHeads.ts) or filled as a path per colour run
  const scale = ctx.getTransform().a;
  // the heads' pixels, kept from the last frame while the view only pans (eventHeads.ts)
  const heads =
    layer === undefined
      ? undefined
      : beginHeads({ payload: ev, palette: p, width: w, heightPx: rows.heightPx, scale, slots, first, end, scrollPx: scroll, rowHeight: rowH, k, shift });
  stems.begin(Math.max(0, end - first), w, scale);
  marks.begin();
  // written here, not through a call per event (eventMarks.ts)
  let { xe: markX, top: markTop, row: markRow, col: markCol, rgba: markRgba, run: markRun } = marks;
  let n = 0;
  let run = 0;
  ctx.beginPath();
  for (let sp = 0; sp < spans.length; sp += 2) {
    const to = spans[sp + 1]!;
    for (let i = spans[sp]!; i < to; i++) {
      const r = row[i]! - rowStart;
      const slot = r >= 0 && r < nSlots ? slots[r]! : -1;
      if (slot < 0) continue;
      const top = slot * rowH - scroll;
      if ((flags[i]! & FLAG_SHADOW) !== 0) {
        const x0 = Math.max(-1, x(ev.start[i]!));
        const x1 = Math.min(w + 1, x(ev.end[i]!));
        if (x1 < 0 || x0 > w) continue;
        ctx.fillStyle = p.fill.get(PREVIEW_EVENT) ?? p.muted;
        ctx.fillRect(x0, top + rowH - 5, Math.max(1, x1 - x0), 2);
        ctx.fillRect(x(ev.time[i]!) - 1, top + 3, 2, rowH - 6);
        drawn++;
        continue;
      }
      const key = keys[i]!;
      if (key === HIDDEN_KEY) continue;
      const xe = shift + time[i]! * k;
      // every head that reaches into the view (the same heads, wherever the view pans)
      if (xe < -tri - 1 || xe > w + tri + 1) continue;
      // Math.round in integers where xe ≥ −0.5 (almost every head; it is a call per event)
      const col = xe >= -0.5 ? (xe + 0.5) | 0 : Math.round(xe);
      if (lastCol[slot - first] === col) continue;
      lastCol[slot - first] = col;
      if (key !== lastKey) {
        // the colour by key, looked up when the key changes (events of a run share it)
        lastKey = key;
        const s = p.line.get(key) ?? p.foreground;
        if (s !== style) {
          if (heads === undefined) fillHeadPath(ctx, style);
          style = s;
          styleRgba = rgbaOf(s);
          run++;
        }
      }
      if (n === markX.length) {
        marks.count = n;
        marks.grow();
        ({ xe: markX, top: markTop, row: markRow, col: markCol, rgba: markRgba, run: markRun } = marks);
      }
      markX[n] = xe;
      markTop[n] = top + 1;
      markRow[n] = slot - first;
      markCol[n] = col;
      markRgba[n] = styleRgba;
      markRun[n] = run;
      n++;
      if (heads === undefined) {
        ctx.moveTo(xe - tri, top + 1);
        ctx.lineTo(xe + tri, top + 1);
        ctx.lineTo(xe, top + 1 + tri * 1.4);
      }
      drawn++;
    }
  }
  marks.count = n;
  stems.addMarks(marks);
  if (heads === undefined) fillHeadPath(ctx, style);
  else {
    heads.addMarks(marks, tri);
    layer?.paintWith(heads, ctx);
  }
  stems.paint(ctx, (r) => (first + r) * rowH - scroll + 2, rowH - 4);
  return drawn;
}

/** Fills a colour run's heads (a path of triangles) in the run's colour; starts the next path. */
function fillHeadPath(ctx: Ctx, style: string): void {
  if (style !== '') {
    ctx.fillStyle = style;
    ctx.fill();
  }
  ctx.beginPath();
}
