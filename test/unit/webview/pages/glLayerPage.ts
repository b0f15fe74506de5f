// Browser page of glLayerPixels.test.ts: the data layer (drawData) drawn through canvas2d and
// through the WebGL2 painter (GlPaint), the same scene on two canvases, and how their pixels differ:
// boxes with borders and names at three depths, preview boxes, narrow states as column strips,
// arrows with heads and outlines, events, aggregated rows, the loading hatch, at 1× and 2× device
// pixels.
import { drawData } from '../../../../webview/timeline/drawData';
import { hatchNotConverted } from '../../../../webview/timeline/hatching';
import { GlPaint } from '../../../../webview/timeline/gl/glPaint';
import { TimeScale } from '../../../../webview/timeline/timeScale';
import type { RowViewport } from '../../../../webview/timeline/rowLayout';
import type { LoadedWindow } from '../../../../webview/timeline/windowLoader';
import type { Palette } from '../../../../webview/timeline/theme';
import { testPalette } from './testPalette';
import { edgeDiff } from './edgeDiff';
import type { Paint2D } from '../../../../webview/timeline/paint2d';
import type { InitMessage } from '../../../../src/protocol/webview';
import type { GlDiff } from '../glDiff';
import {
  ARROW_SPEC,
  EVENT_SPEC,
  FLAG_SHADOW,
  PREVIEW_EVENT,
  PREVIEW_STATE,
  SHADOW_SPEC,
  SHADOW_WEIGHT_SPEC,
  STATE_SPEC,
  allocateTable,
  type WindowColumns,
} from '../../../../src/protocol/wire';

const COLOURS = ['#e6194b', '#3cb44b', '#ffe119', '#4363d8', '#f58231', '#911eb4', 'rgba(70, 240, 240, 0.6)', '#fabebe'];
const NAMES = ['MPI_Send', 'MPI_Recv', 'compute', 'MPI_Allreduce', 'MPI_Wait', 'MPI_Bcast', 'io', 'MPI_Barrier'];
const BASE = -1;
/** Premultiplied difference (of 255) above which a pixel counts as different. */
const TOLERANCE = 24;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

interface Scene {
  readonly rows: number;
  readonly rowH: number;
  readonly scroll: number;
  readonly t0: number;
  readonly t1: number;
  readonly narrowPerRow: number;
  /** The payload ends here (the rest of the view is hatched). */
  readonly payloadEnd: number;
}

const SCENES: Record<string, Scene> = {
  boxes: { rows: 14, rowH: 34, scroll: 5.5, t0: 0.1, t1: 0.9, narrowPerRow: 60, payloadEnd: 2 },
  dense: { rows: 40, rowH: 11, scroll: 33, t0: 0, t1: 1.05, narrowPerRow: 2500, payloadEnd: 2 },
  aggregated: { rows: 300, rowH: 1.5, scroll: 0, t0: 0, t1: 1, narrowPerRow: 200, payloadEnd: 2 },
  hatched: { rows: 14, rowH: 25, scroll: 0, t0: 0.5, t1: 1.6, narrowPerRow: 100, payloadEnd: 1.2 },
};

function payload(sc: Scene, seed: number): WindowColumns {
  const rand = rng(seed);
  const states: { s: number; e: number; row: number; depth: number; cat: number }[] = [];
  for (let r = 0; r < sc.rows; r++) {
    for (let k = 0; k < 4; k++) {
      const s = k * 0.25 + 0.01 + rand() * 0.02;
      const e = s + 0.15 + rand() * 0.08;
      states.push({ s, e, row: r, depth: 0, cat: (r + k) % 8 });
      states.push({ s: s + 0.02, e: s + 0.09 + rand() * 0.03, row: r, depth: 1, cat: (r + k + 3) % 8 });
      states.push({ s: s + 0.03, e: s + 0.05, row: r, depth: 2, cat: (r + k + 5) % 8 });
    }
    for (let k = 0; k < sc.narrowPerRow; k++) {
      const s = rand();
      states.push({ s, e: s + rand() * 0.002, row: r, depth: 1 + (k % 2), cat: Math.floor(rand() * 8) });
    }
  }
  states.sort((a, b) => a.depth - b.depth || a.row - b.row || a.s - b.s);
  const st = allocateTable(STATE_SPEC, states.length);
  states.forEach((d, i) => {
    st.start[i] = d.s - BASE;
    st.end[i] = d.e - BASE;
    st.row[i] = d.row;
    st.depth[i] = d.depth;
    st.category[i] = d.cat;
  });
  // preview boxes with three categories each, in the last part of each row
  const sh = allocateTable(SHADOW_SPEC, sc.rows);
  const sw = allocateTable(SHADOW_WEIGHT_SPEC, sc.rows * 3);
  for (let r = 0; r < sc.rows; r++) {
    sh.start[r] = 0.93 - BASE;
    sh.end[r] = 0.99 - BASE;
    sh.row[r] = r;
    sh.weightStart[r] = 3 * r;
    sh.weightCount[r] = 3;
    for (let k = 0; k < 3; k++) {
      sw.category[3 * r + k] = (r + k) % 8;
      sw.excl[3 * r + k] = [0.5, 0.3, 0.15][k]!;
    }
  }
  const nArrows = 40;
  const ar = allocateTable(ARROW_SPEC, nArrows);
  for (let i = 0; i < nArrows; i++) {
    const s = rand() * 0.9;
    ar.start[i] = s - BASE;
    ar.end[i] = s + 0.01 + rand() * 0.08 - BASE;
    ar.fromRow[i] = Math.floor(rand() * sc.rows);
    ar.toRow[i] = Math.floor(rand() * sc.rows);
    ar.category[i] = 8;
  }
  const nEvents = 120;
  const ev = allocateTable(EVENT_SPEC, nEvents);
  for (let i = 0; i < nEvents; i++) {
    const t = rand();
    ev.time[i] = ev.start[i] = ev.end[i] = t - BASE;
    ev.row[i] = Math.floor(rand() * sc.rows);
    ev.category[i] = i % 10 === 0 ? PREVIEW_EVENT : 9;
    if (i % 10 === 0) {
      ev.start[i] = t - 0.01 - BASE;
      ev.end[i] = t + 0.01 - BASE;
      ev.flags[i] = FLAG_SHADOW;
    }
  }
  return {
    header: {
      baseTime: BASE,
      t0: BASE,
      t1: sc.payloadEnd,
      rowStart: 0,
      rowEnd: sc.rows,
      mapIndex: 0,
      lowestDepth: 0,
      maxNesting: 2,
      truncated: false,
      nodesRead: 0,
      buildMs: 0,
    },
    states: st,
    shadows: sh,
    shadowWeights: sw,
    arrows: ar,
    events: ev,
  };
}

function palette(): Palette {
  const fill = new Map(COLOURS.map((c, i) => [i, c]));
  fill.set(8, '#ffffff');
  fill.set(9, '#ffff00');
  fill.set(PREVIEW_EVENT, '#a0a0a0');
  fill.set(PREVIEW_STATE, '#c0c0c0');
  const fillRgb = new Map(
    COLOURS.map((c, i) => [i, [1, 3, 5].map((k) => parseInt(c.startsWith('#') ? c.slice(k, k + 2) : 'c0', 16)) as [number, number, number]]),
  );
  return testPalette(fill, fillRgb, '#505050');
}

function canvasOf(w: number, h: number): HTMLCanvasElement {
  const c = document.createElement('canvas');
  c.width = w;
  c.height = h;
  document.body.appendChild(c);
  return c;
}

/**
 * Draws `name` at `dpr` through canvas2d and WebGL2 (`shiftGl`: a planted error, px) and compares;
 * `headPixels`: both with event heads and density marks as pixel layers (where either rasterises on the CPU).
 */
/** Scene `name` (500 × 360 CSS px) and what draws it into a painter at `dpr`, `dx` px to the right; returns drawables drawn. */
function sceneOf(name: string, dpr: number, headPixels: boolean): { w: number; h: number; draw: (g: Paint2D, dx: number) => number } {
  const sc = SCENES[name]!;
  const w = 500;
  const h = 360;
  const c = payload(sc, 3);
  const p = palette();
  const names = new Map(NAMES.map((n, i) => [i, n]));
  const rows: RowViewport = { rowCount: sc.rows, rowHeight: sc.rowH, scrollPx: sc.scroll, heightPx: h };
  const scale = new TimeScale(sc.t0, sc.t1, w);
  const loaded = { requestId: 1, keyId: 'k', key: {}, columns: c, drawables: c.states.start.length, final: true } as unknown as LoadedWindow;
  const init = { timeRange: [BASE, sc.payloadEnd], preview: { shownBytes: 1, totalBytes: 2, progress: 0.5, runEnd: 3 } } as unknown as InitMessage;
  const draw = (g: Paint2D, dx: number): number => {
    g.setTransform(dpr, 0, 0, dpr, dx * dpr, 0);
    const frame = drawData(g, w, h, scale, rows, loaded, p, { names, headPixels });
    hatchNotConverted(g, init, scale, w, h, p);
    return frame.drawn;
  };
  return { w, h, draw };
}

function compareGl(name: string, dpr: number, shiftGl = 0, headPixels = false): GlDiff {
  const { w, h, draw } = sceneOf(name, dpr, headPixels);
  const a = canvasOf(w * dpr, h * dpr);
  const drawn = draw(a.getContext('2d')!, 0);
  const b = canvasOf(w * dpr, h * dpr);
  const gl = b.getContext('webgl2', { alpha: true, premultipliedAlpha: true, antialias: false, preserveDrawingBuffer: true })!;
  const paint = new GlPaint(b, gl);
  draw(paint, shiftGl);
  paint.present();
  const copy = canvasOf(w * dpr, h * dpr).getContext('2d')!;
  copy.drawImage(b, 0, 0);
  const da = a.getContext('2d')!.getImageData(0, 0, w * dpr, h * dpr).data;
  const db = copy.getImageData(0, 0, w * dpr, h * dpr).data;
  // for a person looking into a failure: both pictures and the differing pixels (red: off any edge)
  const mask = copy.createImageData(w * dpr, h * dpr);
  const result = { ...edgeDiff(db, da, w * dpr, h * dpr, TOLERANCE, mask.data), drawn, instances: paint.instances };
  const maskCanvas = canvasOf(w * dpr, h * dpr);
  maskCanvas.getContext('2d')!.putImageData(mask, 0, 0);
  (window as unknown as { lastGlPictures: string[] }).lastGlPictures = [a.toDataURL(), b.toDataURL(), maskCanvas.toDataURL()];
  return result;
}

/**
 * Draws `name` at `dpr` through WebGL2 twice, pixel lines split into stretches and whole; the
 * pixels that differ (any byte) and the instances each drew.
 */
function compareGlSplit(name: string, dpr: number, headPixels = false): { differ: number; split: number; whole: number } {
  const { w, h, draw } = sceneOf(name, dpr, headPixels);
  const picture = (split: boolean): { px: Uint8ClampedArray; instances: number } => {
    const b = canvasOf(Math.round(w * dpr), Math.round(h * dpr));
    const gl = b.getContext('webgl2', { alpha: true, premultipliedAlpha: true, antialias: false, preserveDrawingBuffer: true })!;
    const paint = new GlPaint(b, gl);
    paint.splitLines = split;
    draw(paint, 0);
    paint.present();
    const copy = canvasOf(b.width, b.height).getContext('2d')!;
    copy.drawImage(b, 0, 0);
    return { px: copy.getImageData(0, 0, b.width, b.height).data, instances: paint.instances };
  };
  const a = picture(true);
  const b = picture(false);
  let differ = 0;
  for (let i = 0; i < a.px.length; i += 4)
    if (a.px[i] !== b.px[i] || a.px[i + 1] !== b.px[i + 1] || a.px[i + 2] !== b.px[i + 2] || a.px[i + 3] !== b.px[i + 3]) differ++;
  return { differ, split: a.instances, whole: b.instances };
}

(window as unknown as { compareGl: typeof compareGl }).compareGl = compareGl;
(window as unknown as { compareGlSplit: typeof compareGlSplit }).compareGlSplit = compareGlSplit;
document.body.dataset.ready = 'true';
