/**
 * The data layer: states and preview boxes of the loaded payload, then arrows and events
 * (drawArrows.ts), straight from the columnar payload (no per-drawable objects). Rows at least
 * AGGREGATE_BELOW_PX tall draw boxes: nested states as inset boxes (rowLayout.nestingInset), names
 * inside when they fit, a contrasting border; states narrower than COLUMN_RUN_MAX_PX merge into
 * per-pixel-column runs. Thinner rows are aggregated per pixel row (density.ts).
 */
import type { Paint2D } from './paint2d';
import type { LoadedWindow } from './windowLoader';
import type { Palette } from './theme';
import type { OffsetMap, TimeScale } from './timeScale';
import type { Rgb } from './colour';
import { cssRgba } from './colour';
import { AGGREGATE_BELOW_PX, boxHeight, deviceBand, nestingInset, rowPad, visibleRows, visibleSlots, type RowViewport } from './rowLayout';
import { BORDER_MIN_H_PX, BORDER_MIN_W_PX, TextFitter, borderFor, labelFits, textOn } from './drawStyle';
import { drawAggregated } from './drawDensity';
import { hatchUncovered, loadingPattern } from './hatching';
import { drawArrows, drawEvents, type ArrowMode } from './drawArrows';
import { beginPixelLayer } from './eventHeads';
import type { StateRuns } from '../../src/protocol/wire';
import { ColumnStrips, rgbaOf } from './columnStrips';
import { spansInPixels, spansInRange, spansInRun, timeChunks } from './timeChunks';
import { stateRuns } from './stateRuns';
import { drawKeys } from './drawKeys';
import { CATEGORY_MARK_OFFSET, ScanResult, scanRun, scanStates, type ScanFrame } from './stateScan';
import { StateMarks, type MarksFrame } from './stateMarks';
import { PanAnchor } from './panAnchor';
import { drawShadowBoxes } from './drawShadowBoxes';
import { endPhase, phaseClock } from './framePhases';

type Ctx = Paint2D;

/** At most this many names per frame (each fillText costs several µs). */
const MAX_LABELS = 1500;
/** A parent's name goes into its own band above its children when the band is this tall. */
const BAND_LABEL_MIN_PX = 8;
/** Boxes at least this tall show their name near the top (TITLE_OFFSET_PX down), not centred. */
const TITLE_BOX_MIN_PX = 28;
const TITLE_OFFSET_PX = 10;

export interface DataFrame {
  readonly drawn: number;
  readonly complete: boolean;
  /** How arrows were drawn (lines, or summarised as density). */
  readonly arrows: 'lines' | 'density' | 'off';
}

export interface DataOptions {
  /** Category names, for the names inside states. */
  readonly names?: ReadonlyMap<number, string>;
  readonly arrows?: ArrowMode;
  /**
   * Event heads and the arrows' density marks composited as pixels of one layer (eventHeads.ts),
   * not filled as paths: where canvas2d rasterises on the CPU (no GPU), where that is faster; a
   * GPU fills paths for less.
   */
  readonly headPixels?: boolean;
  /**
   * Wide states' boxes painted as pixels of the column strips (stripBoxes.ts), not as fillRects,
   * where canvas2d rasterises on the CPU: the ~20 000 boxes of a zoomed-in dense frame cost ~11
   * ms of raster as rects.
   */
  readonly boxPixels?: boolean;
}

let fitter: TextFitter | undefined;
const strips = new ColumnStrips();
let scanResult: ScanResult | undefined;
/** The states that came into view on a pan (merged into scanResult's list), those that left it, and the kept marks. */
const uncoveredScan = new ScanResult();
const goneScan = new ScanResult();
export const stateMarks = new StateMarks();
const panAnchor = new PanAnchor();
/** Scratch of a run's chunk spans, and the column marks (all 0 between frames; kept to spare the GC). */
const runSpans: number[] = [];
let marksScratch = new Int32Array(0);
/** Wide boxes' colours as pixels by drawing key, direct-mapped (drawBoxes; NaN: empty). */
const RGBA_MEMO_SLOTS = 256;
const rgbaMemoKey = new Float64Array(RGBA_MEMO_SLOTS);
const rgbaMemo = new Uint32Array(RGBA_MEMO_SLOTS);

function columnMarks(n: number): Int32Array {
  if (marksScratch.length < n) marksScratch = new Int32Array(n);
  const marks = marksScratch.subarray(0, n);
  marks.fill(0);
  return marks;
}
/** Depths of a table's runs (the largest + 1), 0 where one is negative (its marks are not kept). */
function depthsOf(runs: StateRuns): number {
  let most = -1;
  for (let r = 0; r < runs.count; r++) {
    const d = runs.depth[r]!;
    if (d < 0) return 0;
    if (d > most) most = d;
  }
  return most + 1;
}

/**
 * Draws the loaded payload for the view and hatches what it does not cover. Order (Jumpshot):
 * real states (outermost first), state shadows, arrows, events.
 */
export function drawData(
  ctx: Ctx,
  w: number,
  h: number,
  scale: TimeScale,
  rows: RowViewport,
  loaded: LoadedWindow | undefined,
  p: Palette,
  opts: DataOptions = {},
): DataFrame {
  ctx.clearRect(0, 0, w, h);
  if (loaded === undefined) {
    ctx.fillStyle = loadingPattern(ctx, p.loading);
    ctx.fillRect(0, 0, w, h);
    return { drawn: 0, complete: false, arrows: 'off' };
  }
  // drawn at the last frame's shift plus whole pixels while the view pans (panAnchor.ts)
  const map = panAnchor.drawnMap(loaded.columns, scale.offsetLinear(loaded.columns.header.baseTime), w);
  const x = (o: number): number => map.shift + o * map.k;
  const aggregated = rows.rowHeight < AGGREGATE_BELOW_PX;
  // the visible slot of each payload row (index row − rowStart), for the boxes and the events
  const slots = aggregated ? new Int32Array(0) : visibleSlots(rows, loaded.columns.header.rowStart, loaded.columns.header.rowEnd);
  let t = phaseClock();
  let drawn = aggregated
    ? drawAggregated(ctx, w, h, x, rows, loaded, p)
    : drawBoxes(ctx, w, x, map, rows, slots, loaded, p, opts.names, opts.boxPixels === true);
  endPhase('states', t);
  // where canvas2d rasterises on the CPU, arrows' density marks and events' heads are pixels of one layer
  const layer = opts.headPixels === true ? beginPixelLayer(ctx, w, rows.heightPx) : undefined;
  const arrowMode = aggregated && (opts.arrows ?? 'auto') === 'auto' ? 'density' : (opts.arrows ?? 'auto');
  t = phaseClock();
  const arrows = drawArrows(ctx, w, h, x, map, rows, loaded, p, arrowMode, layer);
  endPhase('arrows', t);
  drawn += arrows.drawn;
  t = phaseClock();
  if (!aggregated) drawn += drawEvents(ctx, w, x, map, rows, slots, loaded, p, layer);
  layer?.paint(ctx);
  endPhase('events', t);
  return { drawn, complete: hatchUncovered(ctx, w, h, x, rows, loaded, p), arrows: arrows.mode };
}

function drawBoxes(
  ctx: Ctx,
  w: number,
  x: (o: number) => number,
  map: OffsetMap,
  rows: RowViewport,
  slotOfRow: Int32Array,
  loaded: LoadedWindow,
  p: Palette,
  names: ReadonlyMap<number, string> | undefined,
  boxPixels: boolean,
): number {
  const c = loaded.columns;
  const { first, end } = visibleRows(rows);
  const { shift, k: pxPerOffset } = map;
  // wide boxes into the strips' lines (painted per depth with the marks), where the context takes them
  const boxesAsPixels = boxPixels && strips.takesBoxes(ctx);
  const rowH = rows.rowHeight;
  const pad = rowPad(rowH);
  const boxH = boxHeight(rowH);
  const maxNest = c.header.maxNesting;
  const top0 = pad - rows.scrollPx;
  const insets = Array.from({ length: maxNest + 2 }, (_, d) => nestingInset(d, maxNest, boxH));
  // boxes' edges on whole device rows (rowLayout.deviceBand)
  const device = ctx.getTransform();
  const edges: [number, number] = [0, 0];
  const fit = (fitter ??= new TextFitter((s) => ctx.measureText(s).width));
  ctx.font = p.font;
  fit.setFont(p.font);
  const borders = new Map<number, string>();
  const borderOf = (cat: number, rgb: Rgb | undefined): string => {
    let b = borders.get(cat);
    if (b === undefined) borders.set(cat, (b = rgb ? cssRgba(borderFor(rgb), 0.9) : p.border));
    return b;
  };
  let labels = 0;
  const pending: number[] = []; // x0, x1, y, cat, font px per name of the current depth
  const pendingBorders = new Map<string, number[]>(); // colour → x, y, w, h of the current depth
  const fontPx = parseFloat(p.font) || 12;
  const fontRest = p.font.replace(/^\s*[\d.]+px/, '');
  let currentFont = fontPx;

  // Narrow states only mark their pixel columns (per visible slot, last one wins, as if
  // painted) and are then filled as runs of equal colour: a dense view costs at most one
  // rectangle per column run. States come sorted by depth, so marks are flushed per depth.
  const visibleCount = Math.max(0, end - first);
  const cols = Math.ceil(w) + 1;
  const st = c.states;
  const keys = drawKeys(p, st.category, st.flags);
  const runs = stateRuns(st);
  // a pan keeps the last frame's marks and wide lists (stateMarks.ts), where the table has runs
  const depths = runs === undefined ? 0 : depthsOf(runs);
  const kept = depths > 0 && StateMarks.keeps(depths, visibleCount, cols);
  const mf: MarksFrame | undefined = kept
    ? stateMarks.begin({ table: st, keys, runs: runs!, slots: slotOfRow, first, visible: visibleCount, cols, width: w, depths, k: pxPerOffset, shift })
    : undefined;
  let column = kept ? new Int32Array(0) : columnMarks(visibleCount * cols);
  const scan = (scanResult ??= new ScanResult());
  scan.drawn = 0;
  scan.marks = 0;
  let columnDepth = -1;
  let lastCat = Number.NaN;
  let lastRgba = 0;
  // a key's fill as a pixel, remembered for this frame: neighbouring boxes mostly differ in
  // colour, and each change was two map lookups (~20 000 boxes in a zoomed-in dense frame)
  rgbaMemoKey.fill(Number.NaN);
  const boxRgba = (key: number): number => {
    const slot = key & (RGBA_MEMO_SLOTS - 1);
    if (rgbaMemoKey[slot] === key) return rgbaMemo[slot]!;
    const rgba = rgbaOf(p.fill.get(key) ?? p.muted);
    rgbaMemoKey[slot] = key;
    rgbaMemo[slot] = rgba;
    return rgba;
  };
  const flushDepth = (): void => {
    const marked = kept ? columnDepth >= 0 && stateMarks.isMarked(columnDepth) : scan.marks > 0;
    if (marked || strips.boxCount > 0) {
      const inset = insets[Math.min(columnDepth, maxNest + 1)] ?? 0;
      const colourOf = (mark: number): string => p.fill.get(mark - CATEGORY_MARK_OFFSET) ?? p.muted;
      const t = phaseClock();
      const bh = boxH - 2 * inset;
      const stripTop = (r: number): number => deviceBand(device, (first + r) * rowH + top0 + inset, bh, edges)[0];
      const stripBottom = (r: number): number => deviceBand(device, (first + r) * rowH + top0 + inset, bh, edges)[1];
      strips.paint(ctx, column, visibleCount, cols, colourOf, stripTop, stripBottom);
      endPhase('strips', t);
      // kept marks stay for the next frame (stateMarks.ts)
      if (!kept && scan.marks > 0) column.fill(0);
      scan.marks = 0;
    }
    // borders of this depth, one path per colour
    for (const [colour, rects] of pendingBorders) {
      if (rects.length === 0) continue;
      ctx.strokeStyle = colour;
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let k = 0; k < rects.length; k += 4) ctx.rect(rects[k]!, rects[k + 1]!, rects[k + 2]!, rects[k + 3]!);
      ctx.stroke();
      rects.length = 0;
    }
    // names of this depth, before the next depth paints over what it covers
    for (let k = 0; k < pending.length; k += 5) {
      const cat = pending[k + 3]!;
      const size = pending[k + 4]!;
      if (size !== currentFont) {
        ctx.font = `${size}px${fontRest}`;
        fit.setFont(ctx.font);
        currentFont = size;
      }
      const text = fit.fit(names?.get(cat) ?? '', pending[k + 1]! - pending[k]!);
      if (text === undefined) continue;
      const rgb = p.fillRgb.get(cat);
      ctx.fillStyle = rgb ? cssRgba(textOn(rgb)) : p.foreground;
      ctx.fillText(text, pending[k]! + 3, pending[k + 2]!);
    }
    pending.length = 0;
    lastCat = Number.NaN;
  };
  const restoreFont = (): void => {
    if (currentFont === fontPx) return;
    ctx.font = p.font;
    fit.setFont(p.font);
    currentFont = fontPx;
  };

  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  // Per frame, a payload's states are culled by chunk (timeChunks.ts), and scanned by stateScan.ts
  // (rows through a table of the visible slots, times mapped inline): a dense payload has over a
  // million states. The wide ones it lists are drawn here as boxes, in table order.
  // one literal: every frame object of the scans has the one shape
  const scanFrame = (marks: Int32Array, at: number): ScanFrame => ({
    keys,
    rowStart: c.header.rowStart,
    slotOfRow,
    shift: at,
    pxPerOffset,
    width: w,
    firstSlot: first,
    cols,
    column: marks,
  });
  let frame = scanFrame(column, shift);
  const drawWide = (): void => {
    if (scan.wideCount === 0) return;
    // a call's boxes are of one depth, and (by row) of one row: its band worked out once a row
    const depth = columnDepth;
    const inset = insets[Math.min(depth, maxNest + 1)] ?? 0;
    const insetBox = boxH - 2 * inset;
    const nameBand = depth < maxNest ? (insets[depth + 1] ?? 0) - inset : 0;
    let bandSlot = -1;
    let top = 0;
    let bh = 0;
    for (let k = 0; k < scan.wideCount; k++) {
      const i = scan.wide[k]!;
      const slot = scan.wideSlot[k]!;
      const key = keys[i]!;
      const x0 = Math.max(-1, scan.wideX[2 * k]!);
      const x1 = Math.min(w + 1, scan.wideX[2 * k + 1]!);
      if (key !== lastCat) {
        if (boxesAsPixels) lastRgba = boxRgba(key);
        else ctx.fillStyle = p.fill.get(key) ?? p.muted;
        lastCat = key;
      }
      if (slot !== bandSlot) {
        deviceBand(device, slot * rowH + top0 + inset, insetBox, edges);
        top = edges[0];
        bh = edges[1] - edges[0];
        bandSlot = slot;
      }
      if (boxesAsPixels) strips.addBox(slot - first, x0, x1, lastRgba);
      else ctx.fillRect(x0, top, x1 - x0, bh);
      if (x1 - x0 >= BORDER_MIN_W_PX && bh >= BORDER_MIN_H_PX) {
        const cat = st.category[i]!;
        const colour = borderOf(cat, p.fillRgb.get(cat));
        let rects = pendingBorders.get(colour);
        if (!rects) pendingBorders.set(colour, (rects = []));
        rects.push(Math.round(x0) + 0.5, Math.round(top) + 0.5, Math.max(1, Math.round(x1 - x0) - 1), Math.max(1, Math.round(bh) - 1));
      }
      if (names && labels < MAX_LABELS && labelFits(Math.min(x1, w) - Math.max(x0, 0), bh)) {
        // a parent's name in its own band (above its children), in a smaller font if need be;
        // tall boxes carry their name as a title at the top, so their centre shows the pure fill
        const inBand = nameBand >= BAND_LABEL_MIN_PX;
        const size = inBand ? Math.min(fontPx, Math.floor(nameBand)) : fontPx;
        const y = inBand ? top + nameBand / 2 : bh >= TITLE_BOX_MIN_PX ? top + TITLE_OFFSET_PX : top + bh / 2;
        pending.push(Math.max(x0, 0), Math.min(x1, w), y, st.category[i]!, size);
        labels++;
      }
    }
    scan.wideCount = 0;
  };
  const chunks = timeChunks(st.start, st.end);
  if (runs !== undefined) {
    // ordered by depth and row (the builder's order): only the runs of shown rows are scanned
    const pan = mf?.kind === 'pan' ? mf : undefined;
    const toOffset = (px: number): number => (px - shift) / pxPerOffset;
    // a pan scans the columns it uncovered (states seen before: in [dx, w + dx] now), and where
    // states left the view, in the last frame's pixels (to count those not in [−dx, w − dx] then)
    const [u0, u1] = pan ? stateMarks.uncovered(pan.dx) : [0, 0];
    const [o0, o1] = pan ? [toOffset(u0 - 1), toOffset(u1 + 1)] : [toOffset(-1), toOffset(w + 1)];
    const goneFrame = pan && scanFrame(column, pan.shiftBefore);
    const [g0, g1] = pan ? (pan.dx > 0 ? [w - pan.dx - 1, w + 1] : [-1, 1 - pan.dx]) : [0, 0];
    uncoveredScan.drawn = 0;
    goneScan.drawn = 0;
    // a run's states over a time range: by binary search where each run is in time order
    const spansOf = runs.timeOrdered
      ? (from: number, to: number, t0: number, t1: number): number[] => spansInRun(st.start, st.end, from, to, t0, t1, runSpans)
      : (from: number, to: number, t0: number, t1: number): number[] => spansInRange(chunks, from, to, t0, t1, runSpans);
    const rowStart = c.header.rowStart;
    for (let r = 0; r < runs.count; r++) {
      const pr = runs.row[r]! - rowStart;
      const slot = pr >= 0 && pr < slotOfRow.length ? slotOfRow[pr]! : -1;
      if (slot < 0) continue;
      if (runs.depth[r] !== columnDepth) {
        // another depth: this depth's marks, borders and names first
        flushDepth();
        columnDepth = runs.depth[r]!;
        if (kept) frame = scanFrame((column = stateMarks.marksOf(columnDepth, mf!)), shift);
      }
      const spans = spansOf(runs.from[r]!, runs.to[r]!, o0, o1);
      if (pan) {
        stateMarks.keptWide(r, st, slot, scan);
        uncoveredScan.wideCount = 0;
        uncoveredScan.marks = 0;
        for (let sp = 0; sp < spans.length; sp += 2) scanRun(st, spans[sp]!, spans[sp + 1]!, slot, frame, uncoveredScan, u0, u1, pan.dx, w + pan.dx);
        scan.mergeWide(uncoveredScan);
        if (uncoveredScan.marks > 0) stateMarks.setMarked(columnDepth);
        const left = spansOf(runs.from[r]!, runs.to[r]!, (g0 - pan.shiftBefore) / pxPerOffset, (g1 - pan.shiftBefore) / pxPerOffset);
        goneScan.wideCount = 0;
        for (let sp = 0; sp < left.length; sp += 2) scanRun(st, left[sp]!, left[sp + 1]!, slot, goneFrame!, goneScan, 0, 0, -pan.dx, w - pan.dx);
      } else {
        for (let sp = 0; sp < spans.length; sp += 2) scanRun(st, spans[sp]!, spans[sp + 1]!, slot, frame, scan, 0, cols - 1, Infinity, -Infinity);
        if (kept && scan.marks > 0) stateMarks.setMarked(columnDepth);
      }
      if (kept) stateMarks.recordWide(r, scan);
      drawWide();
    }
    if (pan) scan.drawn = pan.drawnBefore + uncoveredScan.drawn - goneScan.drawn;
    if (kept) stateMarks.end(scan.drawn);
  } else {
    const spans = spansInPixels(chunks, map, -1, w + 1);
    for (let sp = 0; sp < spans.length; sp += 2) {
      const to = spans[sp + 1]!;
      for (let i = spans[sp]!; i < to;) {
        i = scanStates(st, i, to, columnDepth, frame, scan);
        drawWide();
        if (i < to) {
          // the first visible state of another depth: this depth's marks, borders and names first
          flushDepth();
          columnDepth = st.depth[i]!;
        }
      }
    }
  }
  flushDepth();
  restoreFont();
  return scan.drawn + drawShadowBoxes(ctx, w, x, rows, loaded, p, names, fit);
}
