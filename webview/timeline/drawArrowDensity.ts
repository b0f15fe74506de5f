/**
 * Arrows summarised as message density (drawArrows.ts, when too dense to tell apart or the rows
 * are aggregated): per row block × time bin a short bar with a thin contrasting edge on the rows'
 * centre lines, alpha by log density in DENSITY_LEVELS steps. On canvas2d two fills per level
 * (edges, then bars); where canvas2d rasterises on the CPU the marks are composited into the
 * events' pixel layer instead (eventHeads.ts), as the same anti-aliased rects, one mark composed
 * once per sub-pixel offset and stamped (HeadLayer.stamp): the dense bench frame's ~6 000 marks
 * took ~3–4 ms of raster as paths, 1.7 ms as rects in the layer.
 */
import type { Paint2D } from './paint2d';
import { FLAG_SHADOW, PREVIEW_ARROW } from '../../src/protocol/wire';
import type { LoadedWindow } from './windowLoader';
import type { Palette } from './theme';
import { cssRgba, withAlpha, type Rgb } from './colour';
import { slotOfRow, type RowViewport } from './rowLayout';
import { arrowOutline } from './drawStyle';
import { arrowDensity, densityAlpha } from './density';
import type { OffsetMap } from './timeScale';
import type { HeadLayer } from './headLayer';
import { rgbaOf } from './columnStrips';

/** Opacity steps of the density marks (one batched fill per step). */
const DENSITY_LEVELS = 8;

/** The marks' places by level (x, y pairs), and each counted cell's level, kept from frame to frame. */
let places = new Float64Array(0);
let levelOfCell = new Int8Array(0);
/** Levels of the small counts (most cells'), worked out once a frame: a log per cell otherwise. */
const LEVEL_MEMO = 1024;
const levelOfCount = new Int8Array(LEVEL_MEMO);

export function drawDensity(
  ctx: Paint2D,
  w: number,
  h: number,
  map: OffsetMap,
  rows: RowViewport,
  loaded: LoadedWindow,
  p: Palette,
  hidden: (i: number) => boolean,
  spans: readonly number[],
  layer: HeadLayer | undefined,
): number {
  const ar = loaded.columns.arrows;
  // centre of every row of the payload in the viewport (NaN when hidden)
  const hd = loaded.columns.header;
  const rowY = new Float32Array(Math.max(hd.rowEnd, 0)).fill(Number.NaN);
  for (let r = hd.rowStart; r < hd.rowEnd; r++) {
    const s = slotOfRow(rows, r);
    if (s >= 0) rowY[r] = s * rows.rowHeight - rows.scrollPx + rows.rowHeight / 2;
  }
  const d = arrowDensity(ar, map, rowY, w, h, FLAG_SHADOW, p.hidden.size > 0 ? hidden : undefined, spans);
  const rgb = p.fillRgb.get(PREVIEW_ARROW) ?? p.fillRgb.get(firstMessageCategory(loaded)) ?? ([255, 255, 255] as Rgb);
  // a mark per cell counted in (a short bar with a thin contrasting edge), alpha by log density
  // quantised to DENSITY_LEVELS, so the whole summary is two fills per level: the marks' places by
  // level, in buffers kept from frame to frame (arrays grown by push were ~0.4 MB of garbage a
  // dense frame), in cell order within a level.
  const { cells: counted, cellCount } = d;
  if (levelOfCell.length < cellCount) levelOfCell = new Int8Array(counted.length);
  if (places.length < 2 * cellCount) places = new Float64Array(2 * counted.length);
  levelOfCount.fill(-1);
  const levelOf = (n: number): number => Math.min(DENSITY_LEVELS - 1, Math.floor(densityAlpha(n, d.max) * DENSITY_LEVELS));
  const perLevel = new Int32Array(DENSITY_LEVELS + 1);
  for (let q = 0; q < cellCount; q++) {
    const n = d.counts[counted[q]!]!;
    let level: number;
    if (n < LEVEL_MEMO && n === Math.floor(n)) {
      level = levelOfCount[n]!;
      if (level < 0) levelOfCount[n] = level = levelOf(n);
    } else level = levelOf(n);
    levelOfCell[q] = level;
    perLevel[level + 1]!++;
  }
  // where each level's marks start (x, y pairs), then the marks
  for (let l = 0; l < DENSITY_LEVELS; l++) perLevel[l + 1]! += perLevel[l]!;
  const drawn = perLevel[DENSITY_LEVELS]!;
  const next = perLevel.slice(0, DENSITY_LEVELS);
  for (let q = 0; q < cellCount; q++) {
    const cell = counted[q]!;
    const row = Math.floor(cell / d.cols);
    const at = 2 * next[levelOfCell[q]!]!++;
    places[at] = (cell - row * d.cols) * d.binPx + 1;
    places[at + 1] = row * d.blockPx + d.blockPx / 2 - 1.5;
  }
  const outline = arrowOutline(rgb);
  const fill = cssRgba(rgb);
  const styles = [
    [outline, 0.5],
    [fill, 0],
  ] as const;
  for (let level = 0; level < DENSITY_LEVELS; level++) {
    if (perLevel[level + 1] === perLevel[level]) continue;
    const cells = places.subarray(2 * perLevel[level]!, 2 * perLevel[level + 1]!);
    const alpha = (level + 1) / DENSITY_LEVELS;
    if (layer) {
      // a mark is its edge, then its bar: one shape, stamped (the cells' marks do not overlap);
      // each style's alpha times the level's, as canvas2d's globalAlpha scales the paint
      const parts = styles.map(([style, grow]) => {
        const rgba = rgbaOf(style);
        return { x: -grow, y: -grow, w: d.binPx - 2 + 2 * grow, h: 3 + 2 * grow, rgba: withAlpha(rgba, alpha) };
      });
      layer.stamp(cells, parts);
      continue;
    }
    for (const [style, grow] of styles) {
      const bw = d.binPx - 2 + 2 * grow;
      const bh = 3 + 2 * grow;
      ctx.globalAlpha = alpha;
      ctx.fillStyle = style;
      ctx.beginPath();
      for (let k = 0; k < cells.length; k += 2) ctx.rect(cells[k]! - grow, cells[k + 1]! - grow, bw, bh);
      ctx.fill();
    }
  }
  ctx.globalAlpha = 1;
  return drawn;
}

function firstMessageCategory(loaded: LoadedWindow): number {
  const ar = loaded.columns.arrows;
  for (let i = 0; i < ar.start.length; i++) if ((ar.flags[i]! & FLAG_SHADOW) === 0) return ar.category[i]!;
  return PREVIEW_ARROW;
}
