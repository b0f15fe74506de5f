// Browser page of dataLayerPixels.test.ts: draws a dense synthetic payload with the data layer
// (drawData: chunk culling, draw keys, column strips) and with a plain painter (every state, the
// column runs one fillRect each, as the layer drew before), and reports how their pixels differ.
import { drawData, stateMarks } from '../../../../webview/timeline/drawData';
import { ColumnStrips, rgbaOf } from '../../../../webview/timeline/columnStrips';
import { gridShift } from '../../../../webview/timeline/panAnchor';
import { stateRuns } from '../../../../webview/timeline/stateRuns';
import { TimeScale } from '../../../../webview/timeline/timeScale';
import { WARM_UP_FRAMES, warmUpScale } from '../../../../webview/timeline/warmUp';
import { boxHeight, deviceBand, nestingInset, rowPad, visibleRows, type RowViewport } from '../../../../webview/timeline/rowLayout';
import type { LoadedWindow } from '../../../../webview/timeline/windowLoader';
import type { Palette } from '../../../../webview/timeline/theme';
import { testPalette } from './testPalette';
import { edgeDiff } from './edgeDiff';
import type { PanDiff, PixelDiff } from '../pixelDiff';
import {
  ARROW_SPEC,
  EVENT_SPEC,
  FLAG_SHADOW,
  PREVIEW_EVENT,
  SHADOW_SPEC,
  SHADOW_WEIGHT_SPEC,
  STATE_SPEC,
  allocateTable,
  type WindowColumns,
} from '../../../../src/protocol/wire';

const COLOURS = ['#e6194b', '#3cb44b', '#ffe119', '#4363d8', '#f58231', '#911eb4', 'rgba(70, 240, 240, 0.6)'];
/** Narrower than this a state is drawn through column runs (drawData.ts COLUMN_RUN_MAX_PX). */
const NARROW_PX = 4;
/** The payload's base time and start (offsets are from it): it covers every view the test draws, so nothing is hatched. */
const BASE = -1;
/**
 * Colour rounding allowed (premultiplied, per channel, of 255): a translucent colour filled
 * through a pattern of unpremultiplied bytes rounds differently from the same colour filled
 * solid, twice on a box's partly covered edge line (measured: at most 3 on whole rows, 4.9 on
 * fractional ones). A wrong or missing state differs by tens to 255.
 */
const ROUNDING = 6;
/**
 * Wide boxes as pixels of the strips (stripBoxes.ts): where two boxes' edges share a pixel, the
 * line blends them once, in floats, and stores the result as unpremultiplied bytes; Skia blends
 * each rect's edge into the canvas in premultiplied 8-bit steps (measured: at most 7, in 2 of
 * ~200 000 painted pixels). A missing or shifted box differs by its whole colour.
 */
const BOX_ROUNDING = 8;
/**
 * Events allow more: their heads are stamped from coverage masks of 64 samples a pixel
 * (eventHeads.ts), the reference's paths are anti-aliased by Skia (edges at quarter pixels, 16
 * levels): up to ~20 of 255 on a head's edge pixels. A missing or misplaced head or stem differs
 * by far more.
 */
const HEAD_AA = 24;
/**
 * Density marks composited as pixels: the coverage of a mark's half-pixel edges is exact either
 * way, but Skia blends in 8-bit premultiplied steps with the level's alpha applied to the paint,
 * the layer in unpremultiplied floats, then drawn over the canvas once. A missing or misplaced
 * mark differs by its whole colour.
 */
const DENSITY_AA = 6;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/**
 * States by depth, then row (as payloads come), or by depth, then time (as they came before, and
 * may from an older host): wide outer states at depth 0, dense short ones nested in them.
 */
/**
 * `timeOrdered`: the states of each depth and row follow one another (as a trace's do), so the
 * payload's runs are in time order (StateRuns.timeOrdered) and frames find them by binary search;
 * otherwise depths 1 and 2 hold overlapping states (the runs are scanned by chunks).
 */
function payload(rows: number, perRow: number, seed: number, byRow = true, timeOrdered = false): WindowColumns {
  const rand = rng(seed);
  const list: { s: number; e: number; row: number; depth: number; cat: number }[] = [];
  for (let r = 0; timeOrdered && r < rows; r++) {
    for (let k = 0; k < 4; k++) list.push({ s: k * 0.25 + 0.01, e: k * 0.25 + 0.2 + rand() * 0.04, row: r, depth: 0, cat: (r + k) % 3 });
    for (const depth of [1, 2]) {
      // narrow and wide, back to back or apart, over the whole payload
      let t = rand() * 0.001;
      for (let k = 0; k < perRow / 2 && t < 1.02; k++) {
        const length = rand() < 0.9 ? rand() * 0.0008 : rand() * 0.01;
        list.push({ s: t, e: t + length, row: r, depth, cat: 3 + Math.floor(rand() * 4) });
        t += length + (rand() < 0.3 ? 0 : rand() * 0.0005);
      }
    }
  }
  for (let r = 0; !timeOrdered && r < rows; r++) {
    for (let k = 0; k < 4; k++) list.push({ s: k * 0.25 + 0.01, e: k * 0.25 + 0.2 + rand() * 0.04, row: r, depth: 0, cat: (r + k) % 3 });
    // back to back (boxes sharing their edge pixels): wide in the whole view, and zoomed in
    for (const [from, each] of [
      [0.5, 0.0107],
      [0.305, 0.00053],
    ] as const) {
      for (let k = 0; k < 6; k++) list.push({ s: from + k * each, e: from + (k + 1) * each, row: r, depth: 1, cat: 3 + ((r + k) % 4) });
    }
    for (let k = 0; k < perRow; k++) {
      const s = rand();
      const depth = 1 + (k % 2);
      list.push({ s, e: s + (rand() < 0.9 ? rand() * 0.002 : rand() * 0.02), row: r, depth, cat: 3 + Math.floor(rand() * 4) });
    }
  }
  list.sort((a, b) => a.depth - b.depth || (byRow ? a.row - b.row : 0) || a.s - b.s);
  const st = allocateTable(STATE_SPEC, list.length);
  list.forEach((d, i) => {
    st.start[i] = d.s - BASE;
    st.end[i] = d.e - BASE;
    st.row[i] = d.row;
    st.depth[i] = d.depth;
    st.category[i] = d.cat;
  });
  return {
    header: {
      baseTime: BASE,
      t0: BASE,
      t1: 2,
      rowStart: 0,
      rowEnd: rows,
      mapIndex: 0,
      lowestDepth: 0,
      maxNesting: 2,
      truncated: false,
      nodesRead: 0,
      buildMs: 0,
    },
    states: st,
    shadows: allocateTable(SHADOW_SPEC, 0),
    shadowWeights: allocateTable(SHADOW_WEIGHT_SPEC, 0),
    arrows: allocateTable(ARROW_SPEC, 0),
    events: allocateTable(EVENT_SPEC, 0),
  };
}

function palette(): Palette {
  const fill = new Map(COLOURS.map((c, i) => [i, c]));
  return testPalette(fill);
}

/**
 * The plain painter, as the data layer drew before culling and strips: every state; per depth the
 * wide ones one fillRect each, then the narrow ones as marks per pixel column (the last one wins)
 * filled one fillRect per run of equal marks.
 */
function paintPlain(ctx: CanvasRenderingContext2D, w: number, scale: Pick<TimeScale, 'offsetMapper'>, rows: RowViewport, c: WindowColumns, p: Palette): void {
  const x = scale.offsetMapper(c.header.baseTime);
  const { first, end } = visibleRows(rows);
  const rowH = rows.rowHeight;
  const boxH = boxHeight(rowH);
  const st = c.states;
  const cols = Math.ceil(w) + 1;
  // a box's edges on whole device rows, as the layer draws them (rowLayout.deviceBand)
  const device = ctx.getTransform();
  const fillBox = (x0: number, w: number, slot: number, depth: number): void => {
    const inset = nestingInset(depth, c.header.maxNesting, boxH);
    const [top, bottom] = deviceBand(device, slot * rowH - rows.scrollPx + rowPad(rowH) + inset, boxH - 2 * inset, [0, 0]);
    ctx.fillRect(x0, top, w, bottom - top);
  };
  for (let depth = 0; depth <= c.header.maxNesting; depth++) {
    const marks = new Int32Array(rows.rowCount * cols).fill(-1);
    for (let i = 0; i < st.start.length; i++) {
      const slot = st.row[i]!;
      if (st.depth[i] !== depth || slot < first || slot >= end) continue;
      const x0 = x(st.start[i]!);
      const x1 = x(st.end[i]!);
      if (x1 < 0 || x0 > w) continue;
      if (x1 - x0 < NARROW_PX) {
        const c1 = Math.min(cols - 1, Math.max(Math.floor(x0) + 1, Math.round(x1)));
        for (let col = Math.max(0, Math.floor(x0)); col < c1; col++) marks[slot * cols + col] = st.category[i]!;
        continue;
      }
      ctx.fillStyle = p.fill.get(st.category[i]!)!;
      fillBox(Math.max(-1, x0), Math.min(w + 1, x1) - Math.max(-1, x0), slot, depth);
    }
    for (let slot = first; slot < end; slot++) {
      for (let c0 = 0; c0 < cols;) {
        const m = marks[slot * cols + c0]!;
        let c1 = c0 + 1;
        while (c1 < cols && marks[slot * cols + c1] === m) c1++;
        if (m >= 0) {
          ctx.fillStyle = p.fill.get(m)!;
          fillBox(c0, c1 - c0, slot, depth);
        }
        c0 = c1;
      }
    }
  }
}

/**
 * The column strips alone (columnStrips.ts) with rows whose top and bottom fall inside device rows
 * (drawData gives it whole ones; the strips take any): wide boxes (addBox) and marks painted into
 * lines, three a row, against a painter of each row's boxes as fillRects in the order added, then
 * its marks as one fillRect per run, at the same fractional edges.
 */
function compareStrips(dpr: number): Omit<PixelDiff, 'states' | 'drawn'> {
  const w = 300;
  const h = 80;
  const slots = 6;
  const cols = w + 1;
  const rand = rng(11);
  const top = (r: number): number => r * 12.7 + 1.3;
  const bottom = (r: number): number => top(r) + 9.45;
  const a = scaledCanvas(w, h, dpr);
  const b = scaledCanvas(w, h, dpr);
  const strips = new ColumnStrips();
  if (!strips.takesBoxes(a)) throw new Error('the strips do not take boxes on this canvas');
  const marks = new Int32Array(slots * cols);
  const colourOf = (mark: number): string => COLOURS[mark % COLOURS.length]!;
  for (let r = 0; r < slots; r++) {
    for (let x = rand() * 3; x < w;) {
      const x1 = x + 4 + rand() * 30;
      const colour = COLOURS[Math.floor(rand() * COLOURS.length)]!;
      strips.addBox(r, x, x1, rgbaOf(colour));
      b.fillStyle = colour;
      b.fillRect(x, top(r), x1 - x, bottom(r) - top(r));
      x = x1 + (rand() < 0.5 ? 0 : rand() * 10);
    }
    for (let c = 0; c < cols; c++) if (rand() < 0.3) marks[r * cols + c] = 1 + Math.floor(rand() * 6);
    for (let c0 = 0; c0 < cols;) {
      const m = marks[r * cols + c0]!;
      let c1 = c0 + 1;
      while (c1 < cols && marks[r * cols + c1] === m) c1++;
      if (m !== 0) {
        b.fillStyle = colourOf(m);
        b.fillRect(c0, top(r), c1 - c0, bottom(r) - top(r));
      }
      c0 = c1;
    }
  }
  strips.paint(a, marks, slots, cols, colourOf, top, bottom);
  return diffOf(a, b, w * dpr, h * dpr, BOX_ROUNDING);
}

function canvas(w: number, h: number): CanvasRenderingContext2D {
  const c = document.createElement('canvas');
  c.width = w;
  c.height = h;
  document.body.appendChild(c);
  return c.getContext('2d')!;
}

/** A canvas of `w` × `h` CSS px at `dpr` device pixels per CSS pixel, its context scaled to CSS px. */
function scaledCanvas(w: number, h: number, dpr: number): CanvasRenderingContext2D {
  const c = canvas(w * dpr, h * dpr);
  c.setTransform(dpr, 0, 0, dpr, 0, 0);
  return c;
}

function loadedWindow(columns: WindowColumns, drawables: number): LoadedWindow {
  return { requestId: 1, keyId: 'k', key: {}, columns, drawables, final: true } as unknown as LoadedWindow;
}

function compare(t0: number, t1: number, rowH: number, seed: number, byRow: boolean, dpr = 1, boxPixels = false): PixelDiff {
  const w = 600;
  const h = 400;
  const rows: RowViewport = { rowCount: 40, rowHeight: rowH, scrollPx: rowH * 3, heightPx: h };
  const c = payload(40, 3000, seed, byRow);
  const p = palette();
  const scale = new TimeScale(t0, t1, w);
  const a = scaledCanvas(w, h, dpr);
  const b = scaledCanvas(w, h, dpr);
  const frame = drawData(a, w, h, scale, rows, loadedWindow(c, c.states.start.length), p, { boxPixels });
  paintPlain(b, w, scale, rows, c, p);
  return { ...diffOf(a, b, w * dpr, h * dpr, boxPixels ? BOX_ROUNDING : ROUNDING), states: c.states.start.length, drawn: frame.drawn };
}

/**
 * A pan sequence at one scale (whole CSS px each, both ways, one past the view's width): each
 * frame drawn by drawData from the kept marks (stateMarks.ts) against the plain painter, and at
 * checkpoints (a few pans apart) against drawData's full scan of the same view, pixel for pixel
 * and drawn count. With `warmUpAt`, the idle warm-up's frames (warmUp.ts: other scales and
 * shifts, into a canvas of their own) are drawn before that step's, as the timeline draws them
 * while the view rests: the frames after must be the same.
 */
function comparePans(rowH: number, dpr: number, boxPixels: boolean, warmUpAt = -1, timeOrdered = false): PanDiff {
  const w = 600;
  const h = 400;
  const rows: RowViewport = { rowCount: 40, rowHeight: rowH, scrollPx: rowH * 3, heightPx: h };
  const c = payload(40, 3000, 11, true, timeOrdered);
  // from step RECOLOUR on, each category takes the next one's colour (the legend's colour
  // change): the kept marks stay (the keys are the categories), their colours are this frame's
  const RECOLOUR = 9;
  const recoloured = testPalette(new Map(COLOURS.map((_, i) => [i, COLOURS[(i + 1) % COLOURS.length]!])));
  const loaded = loadedWindow(c, c.states.start.length);
  const span = 0.5;
  let t0 = 0.2;
  const a = scaledCanvas(w, h, dpr);
  const b = scaledCanvas(w, h, dpr);
  const f = scaledCanvas(w, h, dpr);
  stateMarks.forget();
  const pannedBefore = stateMarks.panned;
  const moves = [0, 8, 8, -3, 1, -40, 0, 150, -7, 8, -8, 299, -1, -520, 5, 650, 3, -2];
  let painted = Infinity;
  let differ = 0;
  let worst = '';
  let mismatches = '';
  let warmUpPanned = 0;
  for (const [i, dx] of moves.entries()) {
    const p = i < RECOLOUR ? palette() : recoloured;
    if (i === warmUpAt) {
      // at the last frame's view (the timeline warms while the view rests), into a scratch canvas
      const at = new TimeScale(t0, t0 + span, w);
      const scratch = scaledCanvas(w, h, dpr);
      const before = stateMarks.panned;
      for (let step = 0; step < WARM_UP_FRAMES; step++) drawData(scratch, w, h, warmUpScale(step, at), rows, loaded, p, { boxPixels });
      warmUpPanned = stateMarks.panned - before;
    }
    t0 -= (dx * span) / w;
    const scale = new TimeScale(t0, t0 + span, w);
    const frame = drawData(a, w, h, scale, rows, loaded, p, { boxPixels });
    b.clearRect(0, 0, w, h);
    // states where drawData places them when it keeps their marks: the shift on its grid
    const onGrid = {
      offsetMapper: (base: number) => {
        const { shift, k } = scale.offsetLinear(base);
        const at = gridShift(shift);
        return (o: number) => at + o * k;
      },
    };
    paintPlain(b, w, onGrid, rows, c, p);
    const d = diffOf(a, b, w * dpr, h * dpr, boxPixels ? BOX_ROUNDING : ROUNDING);
    painted = Math.min(painted, d.painted);
    if (d.differ > differ) {
      differ = d.differ;
      worst = `step ${i} (moved ${dx} px): max delta ${d.maxDelta.toFixed(1)}`;
    }
    if (i % 5 === 4 || i === moves.length - 1) {
      stateMarks.forget();
      const full = drawData(f, w, h, scale, rows, loaded, p, { boxPixels });
      const e = diffOf(a, f, w * dpr, h * dpr, 1);
      if (full.drawn !== frame.drawn || e.differ > 0)
        mismatches += `step ${i}: drawn ${frame.drawn} (full scan ${full.drawn}), ${e.differ} pixels differ (max delta ${e.maxDelta.toFixed(1)}); `;
    }
  }
  const timeOrderedRuns = stateRuns(c.states)?.timeOrdered ?? false;
  return { steps: moves.length, panned: stateMarks.panned - pannedBefore - warmUpPanned, warmUpPanned, painted, differ, worst, mismatches, timeOrderedRuns };
}

/**
 * Two real events of one colour with a preview event between them (its own fillRects), one row:
 * the RGB at the second real event's stem. The run's path was filled in the preview's colour.
 */
function eventRunColour(): number[] {
  const c = payload(0, 0, 1);
  const ev = allocateTable(EVENT_SPEC, 3);
  ev.time.set([0.1 - BASE, 0.5 - BASE, 0.9 - BASE]);
  ev.start.set([0.1 - BASE, 0.4 - BASE, 0.9 - BASE]);
  ev.end.set([0.1 - BASE, 0.6 - BASE, 0.9 - BASE]);
  ev.category.set([1, PREVIEW_EVENT, 1]);
  ev.flags.set([0, FLAG_SHADOW, 0]);
  const columns = { ...c, header: { ...c.header, rowEnd: 1 }, events: ev };
  const p = palette();
  const fill = new Map(p.fill).set(PREVIEW_EVENT, '#808080');
  const g = canvas(100, 20);
  const loaded = { requestId: 1, keyId: 'k', key: {}, columns, drawables: 3, final: true } as unknown as LoadedWindow;
  drawData(g, 100, 20, new TimeScale(0, 1, 100), { rowCount: 1, rowHeight: 20, scrollPx: 0, heightPx: 20 }, loaded, { ...p, fill }, {});
  return [...g.getImageData(90, 12, 1, 1).data.slice(0, 3)];
}

/**
 * Dense real events (`colours` colours, in runs of random length, on 30 rows) drawn by drawData and
 * by the painter the layer used before: per colour run one path of every event's stem (a 1.5 px rect)
 * and head (a triangle), filled; an event in the column its row drew last is skipped, as there.
 */
function compareEvents(colours: number, rowH: number, scroll: number, n: number, dpr: number, headPixels: boolean): PixelDiff {
  const w = 600;
  const h = 400;
  const rand = rng(5);
  const list: { t: number; row: number; cat: number }[] = [];
  let cat = 0;
  for (let i = 0; i < n; i++) {
    if (rand() < 0.1) cat = Math.floor(rand() * colours);
    list.push({ t: rand(), row: Math.floor(rand() * 30), cat });
  }
  const ev = allocateTable(EVENT_SPEC, n);
  list.forEach((e, i) => {
    ev.time[i] = ev.start[i] = ev.end[i] = e.t - BASE;
    ev.row[i] = e.row;
    ev.category[i] = e.cat;
  });
  const base = payload(0, 0, 1);
  const columns = { ...base, header: { ...base.header, rowEnd: 30 }, events: ev };
  const p = palette();
  const rows: RowViewport = { rowCount: 30, rowHeight: rowH, scrollPx: scroll, heightPx: h };
  const scale = new TimeScale(0, 1, w);
  // at `dpr` device pixels per CSS pixel, as the layer's context is scaled
  const a = scaledCanvas(w, h, dpr);
  const b = scaledCanvas(w, h, dpr);
  const loaded = loadedWindow(columns, n);
  const frame = drawData(a, w, h, scale, rows, loaded, p, { headPixels });
  // the reference: every head, then every stem, each a path per colour run (stems above heads)
  const x = scale.offsetMapper(BASE);
  const tri = Math.max(2.5, Math.min(5, rowH / 6));
  const { first, end } = visibleRows(rows);
  for (const part of ['heads', 'stems'] as const) {
    const lastCol = new Map<number, number>();
    let style = '';
    b.beginPath();
    for (let i = 0; i < n; i++) {
      const slot = ev.row[i]!;
      if (slot < first || slot >= end) continue;
      const xe = x(ev.time[i]!);
      if (xe < -4 || xe > w + 4) continue;
      const col = Math.round(xe);
      if (lastCol.get(slot) === col) continue;
      lastCol.set(slot, col);
      const s = p.line.get(ev.category[i]!)!;
      if (s !== style) {
        if (style !== '') b.fill();
        b.beginPath();
        style = b.fillStyle = s;
      }
      const top = slot * rowH - rows.scrollPx;
      if (part === 'stems') {
        // on whole device rows, as the layer paints them (eventStems.ts)
        const [t0, t1] = deviceBand(b.getTransform(), top + 2, rowH - 4, [0, 0]);
        b.rect(col - 0.5, t0, 1.5, t1 - t0);
      } else {
        b.moveTo(xe - tri, top + 1);
        b.lineTo(xe + tri, top + 1);
        b.lineTo(xe, top + 1 + tri * 1.4);
      }
    }
    if (style !== '') b.fill();
  }
  return { ...diffOf(a, b, w * dpr, h * dpr, HEAD_AA), states: n, drawn: frame.drawn };
}

/** Pixels of `a` and `b` that differ by more than `tolerance` (premultiplied, of 255). */
/**
 * Dense arrows summarised as density marks, composited as pixels of the events' layer (where
 * canvas2d rasterises on the CPU) against the same marks filled as paths; over states, so the
 * marks blend over something, and with events, whose heads go over them in the same layer.
 */
function compareDensity(rowH: number, dpr: number, events: boolean): PixelDiff {
  const w = 600;
  const h = 400;
  const rand = rng(11);
  const n = 20000;
  const ar = allocateTable(ARROW_SPEC, n);
  for (let i = 0; i < n; i++) {
    const t = rand();
    ar.start[i] = t - BASE;
    ar.end[i] = t + rand() * 0.02 - BASE;
    ar.fromRow[i] = Math.floor(rand() * 40);
    ar.toRow[i] = Math.floor(rand() * 40);
    ar.category[i] = 3;
  }
  const ev = allocateTable(EVENT_SPEC, events ? 2000 : 0);
  for (let i = 0; i < ev.time.length; i++) {
    ev.time[i] = ev.start[i] = ev.end[i] = rand() - BASE;
    ev.row[i] = Math.floor(rand() * 40);
    ev.category[i] = i % 2;
  }
  const base = payload(40, 200, 3);
  const columns = { ...base, arrows: ar, events: ev };
  const p = palette();
  const rows: RowViewport = { rowCount: 40, rowHeight: rowH, scrollPx: 0, heightPx: h };
  const scale = new TimeScale(0, 1, w);
  const a = scaledCanvas(w, h, dpr);
  const b = scaledCanvas(w, h, dpr);
  const loaded = loadedWindow(columns, n);
  const frame = drawData(a, w, h, scale, rows, loaded, p, { arrows: 'density', headPixels: true });
  // the reference: the marks as paths; the heads (when any) as pixels in both
  drawData(b, w, h, scale, rows, { ...loaded, columns: { ...columns, events: allocateTable(EVENT_SPEC, 0) } } as LoadedWindow, p, { arrows: 'density' });
  if (events) {
    const only = { ...loaded, columns: { ...columns, states: allocateTable(STATE_SPEC, 0), arrows: allocateTable(ARROW_SPEC, 0) } } as LoadedWindow;
    const c = scaledCanvas(w, h, dpr);
    drawData(c, w, h, scale, rows, only, p, { headPixels: true });
    b.save();
    b.setTransform(1, 0, 0, 1, 0, 0);
    b.drawImage(c.canvas, 0, 0);
    b.restore();
  }
  return { ...diffOf(a, b, w * dpr, h * dpr, DENSITY_AA), states: n, drawn: frame.drawn };
}

function diffOf(a: CanvasRenderingContext2D, b: CanvasRenderingContext2D, w: number, h: number, tolerance: number): Omit<PixelDiff, 'states' | 'drawn'> {
  return edgeDiff(a.getImageData(0, 0, w, h).data, b.getImageData(0, 0, w, h).data, w, h, tolerance);
}

(window as unknown as { compareDataLayer: typeof compare }).compareDataLayer = compare;
(window as unknown as { compareStrips: typeof compareStrips }).compareStrips = compareStrips;
(window as unknown as { compareEvents: typeof compareEvents }).compareEvents = compareEvents;
(window as unknown as { comparePans: typeof comparePans }).comparePans = comparePans;
(window as unknown as { compareDensity: typeof compareDensity }).compareDensity = compareDensity;
(window as unknown as { eventRunColour: typeof eventRunColour }).eventRunColour = eventRunColour;
document.body.dataset.ready = 'true';
