/**
 * The stems of real events (drawArrows.ts drawEvents) as pixel lines: a stem is 1.5 px wide,
 * [col − 0.5, col + 1], so it covers its column and half of the one before (in device pixels: at
 * 2× three whole ones, as its rect covered). Composited here per
 * visible row in the order the events come (within a colour run as one shape, as a path's union;
 * runs source-over) and painted as one strip per row (paintLines.ts), above the
 * heads. A dense frame of the viewport bench drew ~23 000 stems as rects in the events' paths;
 * the strips took its median from 13.8 to 12.3 ms.
 *
 * The heads used to share the path with the stems, and the anti-aliasing of that union
 * under-covered a stem where a head overlapped it (205 of 255 on a stem's own column): heads and
 * stems are now two layers, which dataLayerPixels.test.ts checks against a painter of the two.
 */
import type { Paint2D } from './paint2d';
import { paintLines } from './paintLines';
import { over } from './colour';
import type { EventMarks } from './eventMarks';

type Ctx = Paint2D;

export class EventStems {
  private px = new Uint32Array(0);
  /** The colour run (drawEvents' path per colour) that last covered each pixel; 0: none. */
  private runOf = new Int32Array(0);
  private run = 0;
  private span = new Int32Array(0);
  private rows = 0;
  private cols = 0;

  /** Device pixels per CSS pixel of the frame (the context's scale): stems are composited in device pixels. */
  private scale = 1;

  /** Starts a frame of `rows` visible rows, `width` CSS px wide, drawn at `scale` device pixels per CSS pixel. */
  begin(rows: number, width: number, scale: number): void {
    this.scale = scale > 0 ? scale : 1;
    const cols = Math.max(0, Math.ceil(width * this.scale));
    const n = rows * cols;
    if (this.px.length < n) {
      this.px = new Uint32Array(n);
      this.runOf = new Int32Array(n);
    } else {
      this.px.fill(0, 0, n);
      this.runOf.fill(0, 0, n);
    }
    this.run = 1;
    if (this.span.length < 2 * rows) this.span = new Int32Array(2 * rows);
    for (let r = 0; r < rows; r++) {
      this.span[2 * r] = cols;
      this.span[2 * r + 1] = 0;
    }
    this.rows = rows;
    this.cols = cols;
  }

  /**
   * The stems of `marks` (row, col, colour, run), in order: each a stem of column `col` of visible
   * row `row`, [col − 0.5, col + 1] CSS px, each device pixel covered by the part it overlaps (at
   * scales 1 and 2 every partial cover is a pixel's right half, so a run's union is their maximum).
   */
  addMarks(marks: EventMarks): void {
    const { row, col, rgba, run: runOfMark, count } = marks;
    const k = this.scale;
    const { px, runOf, span, cols } = this;
    let run = this.run;
    let lastMarkRun = Number.NaN;
    for (let m = 0; m < count; m++) {
      if (runOfMark[m] !== lastMarkRun) {
        // another path before: composited over this run's
        lastMarkRun = runOfMark[m]!;
        run++;
      }
      const r = row[m]!;
      const c = col[m]!;
      const colour = rgba[m]!;
      const x0 = (c - 0.5) * k;
      const x1 = (c + 1) * k;
      for (let p = Math.floor(x0); p < x1; p++) {
        const coverage = Math.min(p + 1, x1) - Math.max(p, x0);
        if (p < 0 || p >= cols || !(coverage > 0)) continue;
        const i = r * cols + p;
        // within a run the stems are one shape (a path's union): coverage does not add up
        const dst = px[i]!;
        if (runOf[i] === run) {
          const sa = ((colour >>> 24) / 255) * coverage;
          if (sa > (dst >>> 24) / 255) px[i] = over(colour, coverage, 0);
        } else px[i] = over(colour, coverage, dst);
        runOf[i] = run;
        if (p < span[2 * r]!) span[2 * r] = p;
        if (p + 1 > span[2 * r + 1]!) span[2 * r + 1] = p + 1;
      }
    }
    this.run = run;
  }

  /**
   * Paints the stems: row r's from y = top(r), `height` tall (CSS px; `ctx` scaled by the frame's
   * scale), their ends on the nearest device pixel edges (at least one device row), as the
   * states' boxes are (rowLayout.deviceBand): one image draw a row, no partly covered end rows.
   */
  paint(ctx: Ctx, top: (r: number) => number, height: number): void {
    const k = this.scale;
    const y0 = (r: number): number => Math.round(top(r) * k);
    const y1 = (r: number): number => Math.max(y0(r) + 1, Math.round((top(r) + height) * k));
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    paintLines(ctx, this.px, this.rows, this.cols, this.span, y0, y1);
    ctx.restore();
  }
}
