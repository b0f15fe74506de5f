// Browser page of shadowBoxPixels.test.ts: random state shadows (two nesting depths, translucent
// and opaque colours, a hidden category) drawn by drawShadowBoxes (fills grouped per depth and
// colour) and by a plain painter (box after box, band after band, each box's outline and name
// right after it, on the same device-pixel edges), and how their pixels differ.
import { drawShadowBoxes } from '../../../../webview/timeline/drawShadowBoxes';
import { TextFitter, labelFits, textOn, BORDER_MIN_H_PX } from '../../../../webview/timeline/drawStyle';
import { boxHeight, nestingInset, rowPad, type RowViewport } from '../../../../webview/timeline/rowLayout';
import { cssRgba } from '../../../../webview/timeline/colour';
import type { LoadedWindow } from '../../../../webview/timeline/windowLoader';
import type { Palette } from '../../../../webview/timeline/theme';
import type { Paint2D } from '../../../../webview/timeline/paint2d';
import { testPalette } from './testPalette';
import {
  ARROW_SPEC,
  EVENT_SPEC,
  PREVIEW_STATE,
  SHADOW_SPEC,
  SHADOW_WEIGHT_SPEC,
  STATE_SPEC,
  allocateTable,
  type WindowColumns,
} from '../../../../src/protocol/wire';

const COLOURS = ['#e6194b', '#3cb44b', '#ffe119', '#4363d8', '#f58231', 'rgba(70, 240, 240, 0.6)'];
const RGB: [number, number, number][] = [
  [230, 25, 75],
  [60, 180, 75],
  [255, 225, 25],
  [67, 99, 216],
  [245, 130, 49],
  [70, 240, 240],
];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** Rows of back-to-back boxes of random widths and shares, a third with an inner box (depth 1) right after it. */
function shadows(rows: number, seed: number): WindowColumns {
  const rand = rng(seed);
  const boxes: [number, number, number, number, [number, number][]][] = [];
  for (let row = 0; row < rows; row++) {
    let t = rand() * 2;
    while (t < 118) {
      const e = t + (rand() < 0.2 ? rand() * 0.15 : rand() * 9) + 0.01;
      const w: [number, number][] = [];
      for (let cat = 0; cat < COLOURS.length; cat++) if (rand() < 0.75) w.push([cat, rand() * (rand() < 0.4 ? 0.03 : 0.4)]);
      boxes.push([t, e, row, 0, w]);
      if (rand() < 0.3) boxes.push([t + (e - t) * 0.25, t + (e - t) * 0.7, row, 1, [[Math.floor(rand() * COLOURS.length), 0.3 + rand() * 0.7]]]);
      t = rand() < 0.5 ? e : e + rand() * 3;
    }
  }
  return shadowWindow(boxes);
}

/**
 * The plain painter: box after box, band after band (the geometry drawShadowBoxes documents).
 * Returns the device-pixel rectangles (x0, y0, x1, y1) of boxes widened to one pixel: such a box
 * shares its column with the box after it, where the colour drawn last shows.
 */
function paintPlain(
  ctx: CanvasRenderingContext2D,
  w: number,
  x: (o: number) => number,
  rows: RowViewport,
  c: WindowColumns,
  p: Palette,
  names: Map<number, string>,
  fit: TextFitter,
): number[] {
  const widened: number[] = [];
  const m = ctx.getTransform();
  const snapX = (v: number): number => (Math.round(v * m.a + m.e) - m.e) / m.a;
  const snapY = (v: number): number => (Math.round(v * m.d + m.f) - m.f) / m.d;
  const sh = c.shadows;
  const sw = c.shadowWeights;
  const rowH = rows.rowHeight;
  const boxH = boxHeight(rowH);
  for (let i = 0; i < sh.start.length; i++) {
    const slot = sh.row[i]!;
    let x0 = x(sh.start[i]!);
    let x1 = x(sh.end[i]!);
    if (x1 < 0 || x0 > w) continue;
    x0 = Math.max(-1, x0);
    const narrow = x1 - x0 < 1;
    x1 = Math.min(w + 1, Math.max(x1, x0 + 1));
    const inset = nestingInset(sh.depth[i]!, c.header.maxNesting, boxH);
    const top = slot * rowH - rows.scrollPx + rowPad(rowH) + inset;
    const bh = boxH - 2 * inset;
    const left = snapX(x0);
    const width = Math.max(snapX(x1) - left, 1 / m.a);
    if (narrow) widened.push(Math.round(left * m.a) - 1, Math.floor(top * m.d), Math.round((left + width) * m.a) + 1, Math.ceil((top + bh) * m.d));
    let total = 0;
    const from = sh.weightStart[i]!;
    const to = from + sh.weightCount[i]!;
    for (let k = from; k < to; k++) total += sw.excl[k]!;
    const scaleBand = total > 1 ? 1 / total : 1;
    let y = top + bh - (bh - Math.min(1, total) * bh) / 2;
    let bottom = snapY(y);
    let biggest = -1;
    let biggestY = 0;
    let biggestH = 0;
    for (let k = from; k < to; k++) {
      const band = sw.excl[k]! * scaleBand * bh;
      if (band <= 0) continue;
      y -= band;
      const bandTop = snapY(y);
      const bandBottom = bottom;
      bottom = bandTop;
      if (p.hidden.has(sw.category[k]!)) continue;
      ctx.fillStyle = p.fill.get(sw.category[k]!)!;
      if (bandBottom > bandTop) ctx.fillRect(left, bandTop, width, bandBottom - bandTop);
      if (band > biggestH) [biggest, biggestY, biggestH] = [sw.category[k]!, y, band];
    }
    if (x1 - x0 >= 3 && bh >= BORDER_MIN_H_PX) {
      ctx.strokeStyle = p.fill.get(PREVIEW_STATE)!;
      ctx.lineWidth = 1;
      ctx.strokeRect(left + 0.5, snapY(top) + 0.5, width - 1, snapY(top + bh) - snapY(top) - 1);
    }
    if (biggest !== -1 && labelFits(Math.min(x1, w) - Math.max(x0, 0), biggestH)) {
      const text = fit.fit(names.get(biggest) ?? '', Math.min(x1, w) - Math.max(x0, 0));
      if (text !== undefined) {
        ctx.fillStyle = cssRgba(textOn(p.fillRgb.get(biggest)!));
        ctx.fillText(text, Math.max(x0, 0) + 3, biggestY + biggestH / 2);
      }
    }
  }
  return widened;
}

function scaledCanvas(w: number, h: number, dpr: number): CanvasRenderingContext2D {
  const c = document.createElement('canvas');
  c.width = w * dpr;
  c.height = h * dpr;
  document.body.appendChild(c);
  const ctx = c.getContext('2d')!;
  ctx.scale(dpr, dpr);
  return ctx;
}

/**
 * Pixels (any channel) differing between the grouped and the plain painter: beside boxes widened
 * to a pixel (`shared`), and elsewhere (`differ`); how many are painted.
 */
function compare(dpr: number, rowH: number, seed: number): { boxes: number; drawn: number; painted: number; differ: number; shared: number; worst: string } {
  const w = 900;
  const rowsN = 12;
  const h = Math.ceil(rowsN * rowH);
  const c = shadows(rowsN, seed);
  const fill = new Map(COLOURS.map((col, i) => [i, col]));
  fill.set(PREVIEW_STATE, '#a0a0a0');
  const p = { ...testPalette(fill, new Map(RGB.map((rgb, i) => [i, rgb]))), hidden: new Set([2]) };
  const names = new Map(COLOURS.map((_, i) => [i, `category ${i}`]));
  const rows: RowViewport = { rowCount: rowsN, rowHeight: rowH, scrollPx: 0, heightPx: h };
  const x = (o: number): number => 0.37 + o * 7.43;
  const a = scaledCanvas(w, h, dpr);
  const b = scaledCanvas(w, h, dpr);
  for (const ctx of [a, b]) {
    ctx.font = p.font;
    ctx.textBaseline = 'middle';
  }
  const drawn = drawShadowBoxes(a, w, x, rows, { columns: c } as LoadedWindow, p, names, new TextFitter((s) => a.measureText(s).width));
  const widened = paintPlain(b, w, x, rows, c, p, names, new TextFitter((s) => b.measureText(s).width));
  const W = w * dpr;
  const beside = new Uint8Array(W * h * dpr);
  for (let k = 0; k < widened.length; k += 4)
    for (let yy = Math.max(0, widened[k + 1]!); yy < Math.min(h * dpr, widened[k + 3]!); yy++)
      for (let xx = Math.max(0, widened[k]!); xx < Math.min(W, widened[k + 2]!); xx++) beside[yy * W + xx] = 1;
  const pa = a.getImageData(0, 0, w * dpr, h * dpr).data;
  const pb = b.getImageData(0, 0, w * dpr, h * dpr).data;
  let painted = 0;
  let differ = 0;
  let shared = 0;
  let worst = '';
  for (let i = 0; i < pa.length; i += 4) {
    if (pb[i + 3]! > 0) painted++;
    if (pa[i] !== pb[i] || pa[i + 1] !== pb[i + 1] || pa[i + 2] !== pb[i + 2] || pa[i + 3] !== pb[i + 3]) {
      if (beside[i / 4] === 1) {
        shared++;
        continue;
      }
      differ++;
      if (worst === '') worst = `(${(i / 4) % (w * dpr)}, ${Math.floor(i / 4 / (w * dpr))}): ${[...pa.slice(i, i + 4)]} against ${[...pb.slice(i, i + 4)]}`;
    }
  }
  return { boxes: c.shadows.start.length, drawn, painted, differ, shared, worst };
}

// ---- recorded drawing, for shadowBoxes.test.ts ----

interface Op {
  readonly op: string;
  readonly style?: string;
  readonly args: readonly number[];
  readonly text?: string;
}

/** A Paint2D that records (shadowBoxes.test.ts) fills, rects, strokes and texts under the transform (a, e; d, f). */
function recorder(a: number, e: number, d: number, f: number): { ctx: Paint2D; ops: Op[] } {
  const ops: Op[] = [];
  let fillStyle = '';
  const ctx = {
    get fillStyle() {
      return fillStyle;
    },
    set fillStyle(s: string) {
      fillStyle = s;
      ops.push({ op: 'fillStyle', style: s, args: [] });
    },
    set strokeStyle(s: string) {
      ops.push({ op: 'strokeStyle', style: s, args: [] });
    },
    lineWidth: 1,
    font: '12px sans-serif',
    fillRect: (...args: number[]) => ops.push({ op: 'fillRect', style: fillStyle, args }),
    beginPath: () => ops.push({ op: 'beginPath', args: [] }),
    rect: (...args: number[]) => ops.push({ op: 'rect', args }),
    stroke: () => ops.push({ op: 'stroke', args: [] }),
    strokeRect: (...args: number[]) => ops.push({ op: 'strokeRect', args }),
    fillText: (text: string, ...args: number[]) => ops.push({ op: 'fillText', style: fillStyle, args, text }),
    measureText: (s: string) => ({ width: 7 * s.length }),
    getTransform: () => ({ a, b: 0, c: 0, d, e, f }),
  };
  return { ctx: ctx as unknown as Paint2D, ops };
}

const REC_COLOURS = ['#e6194b', '#3cb44b', '#ffe119', '#4363d8', '#f58231'];

/** Shadows: [start, end, row, depth, weights as (category, exclusive ratio) pairs]. */
function shadowWindow(shadows: readonly (readonly [number, number, number, number, readonly (readonly [number, number])[]])[]): WindowColumns {
  const sh = allocateTable(SHADOW_SPEC, shadows.length);
  const sw = allocateTable(
    SHADOW_WEIGHT_SPEC,
    shadows.reduce((n, s) => n + s[4].length, 0),
  );
  let k = 0;
  shadows.forEach(([start, end, row, depth, weights], i) => {
    sh.start[i] = start;
    sh.end[i] = end;
    sh.row[i] = row;
    sh.depth[i] = depth;
    sh.count[i] = 1;
    sh.weightStart[i] = k;
    sh.weightCount[i] = weights.length;
    for (const [category, excl] of weights) {
      sw.category[k] = category;
      sw.excl[k] = excl;
      sw.incl[k] = excl;
      k++;
    }
  });
  const maxNesting = Math.max(0, ...shadows.map((s) => s[3]));
  const t1 = Math.max(1, ...shadows.map((s) => s[1]));
  const rowEnd = Math.max(0, ...shadows.map((s) => s[2])) + 1;
  return {
    header: { baseTime: 0, t0: 0, t1, rowStart: 0, rowEnd, mapIndex: 0, lowestDepth: 1, maxNesting, truncated: false, nodesRead: 0, buildMs: 0 },
    states: allocateTable(STATE_SPEC, 0),
    shadows: sh,
    shadowWeights: sw,
    arrows: allocateTable(ARROW_SPEC, 0),
    events: allocateTable(EVENT_SPEC, 0),
  };
}

function drawRecorded(c: WindowColumns, a: number, f: number, hidden: ReadonlySet<number>, rows: RowViewport): { ops: Op[]; drawn: number } {
  const { ctx, ops } = recorder(a, 0.5 * a, a, f);
  const fill = new Map(REC_COLOURS.map((col, i) => [i, col]));
  fill.set(PREVIEW_STATE, '#777777');
  const p = { ...testPalette(fill), hidden };
  const names = new Map(REC_COLOURS.map((_, i) => [i, `category ${i}`]));
  const x = (o: number): number => 3.3 + o * 9.71;
  const drawn = drawShadowBoxes(ctx, 900, x, rows, { columns: c } as LoadedWindow, p, names, new TextFitter((s) => 7 * s.length));
  return { ops, drawn };
}

/** Random shadows: three rows, depths 0–1, up to five categories of random shares. */
function randomShadows(seed: number): WindowColumns {
  const rand = rng(seed);
  const list: [number, number, number, number, [number, number][]][] = [];
  for (let row = 0; row < 3; row++) {
    let t = rand() * 3;
    while (t < 90) {
      const end = t + rand() * 8 + 0.01;
      const weights: [number, number][] = [];
      for (let cat = 0; cat < 5; cat++) if (rand() < 0.7) weights.push([cat, rand() * (rand() < 0.3 ? 0.02 : 0.5)]);
      list.push([t, end, row, 0, weights]);
      if (rand() < 0.3) list.push([t + (end - t) * 0.2, t + (end - t) * 0.6, row, 1, [[(row + 1) % 5, 0.6]]]);
      t = end + rand() * 2;
    }
  }
  return shadowWindow(list);
}

/** What shadowBoxes.test.ts asks drawn through the recorder: random shadows (a seed) or the given ones. */
interface RecordRequest {
  readonly seed?: number;
  readonly shadows?: readonly (readonly [number, number, number, number, readonly (readonly [number, number])[]])[];
  readonly a: number;
  readonly f: number;
  readonly hidden: readonly number[];
  readonly rows: RowViewport;
}

function record(r: RecordRequest): { ops: Op[]; drawn: number } {
  const c = r.seed !== undefined ? randomShadows(r.seed) : shadowWindow(r.shadows ?? []);
  return drawRecorded(c, r.a, r.f, new Set(r.hidden), r.rows);
}

(window as unknown as { recordShadowBoxes: typeof record }).recordShadowBoxes = record;
(window as unknown as { compareShadowBoxes: typeof compare }).compareShadowBoxes = compare;
document.body.dataset.ready = 'true';
