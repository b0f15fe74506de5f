/**
 * The shared cursor of a comparison (TraceVis §4.2): while two timelines are linked, this one reports
 * the time under its pointer (at most once per frame, only when it changed) and draws the other
 * run's cursor, already put on this timeline's time axis by the host, as a dashed line.
 */
import type { PeerCursorMessage, WebviewToHost } from '../../src/protocol/webview';
import type { TimeScale } from './timeScale';

/** What drawing the cursor needs of a canvas context and of the palette (DOM-free, for unit tests). */
interface CursorCanvas {
  save(): void;
  restore(): void;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  stroke(): void;
  setLineDash(segments: number[]): void;
  fillRect(x: number, y: number, w: number, h: number): void;
  fillText(text: string, x: number, y: number): void;
  measureText(text: string): { readonly width: number };
  strokeStyle: unknown;
  fillStyle: unknown;
  lineWidth: number;
  font: string;
  textBaseline: string;
  textAlign: string;
}

interface CursorPalette {
  readonly foreground: string;
  readonly backgroundCss: string;
  readonly font: string;
}

/** The element whose data attributes tell tests where the cursor is. */
interface DataHolder {
  readonly dataset: Record<string, string | undefined>;
}

export class PeerCursor {
  private linked = false;
  /** The other run's cursor time (this timeline's axis) and name. */
  private time: number | undefined;
  private label = '';
  private pending = false;
  private sent: number | undefined;

  constructor(
    private readonly post: (m: WebviewToHost) => void,
    private readonly root: DataHolder,
    private readonly schedule: (cb: () => void) => void,
  ) {}

  /** The host linked or unlinked this timeline, or moved the other cursor. */
  set(m: PeerCursorMessage): void {
    this.linked = m.linked;
    this.time = m.linked ? m.time : undefined;
    this.label = m.label ?? '';
    if (!m.linked) this.sent = undefined;
    this.root.dataset.peerLinked = String(m.linked);
  }

  /** The pointer moved or the view moved under it: report the time under the pointer (next frame). */
  report(timeAt: () => number | undefined): void {
    if (!this.linked || this.pending) return;
    this.pending = true;
    this.schedule(() => {
      this.pending = false;
      if (!this.linked) return;
      const t = timeAt();
      if (t === this.sent) return;
      this.sent = t;
      this.post(t === undefined ? { kind: 'cursor' } : { kind: 'cursor', time: t });
    });
  }

  /** Draws the other run's cursor (dashed, with its name at the top); records its x for tests. */
  draw(ctx: CursorCanvas, w: number, h: number, scale: TimeScale, p: CursorPalette): void {
    const t = this.time;
    const x = t === undefined ? undefined : Math.round(scale.timeToPx(t));
    if (x === undefined || x < 0 || x > w) {
      delete this.root.dataset.peerCursorX;
      return;
    }
    this.root.dataset.peerCursorX = String(x);
    ctx.save();
    ctx.strokeStyle = p.foreground;
    ctx.lineWidth = 1;
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(x + 0.5, 0);
    ctx.lineTo(x + 0.5, h);
    ctx.stroke();
    if (this.label) {
      ctx.font = p.font;
      ctx.textBaseline = 'top';
      const tw = ctx.measureText(this.label).width;
      const lx = x + 4 + tw + 6 <= w ? x + 4 : x - tw - 10;
      ctx.fillStyle = p.backgroundCss;
      ctx.fillRect(lx, 2, tw + 6, 16);
      ctx.fillStyle = p.foreground;
      ctx.textAlign = 'left';
      ctx.fillText(this.label, lx + 3, 4);
    }
    ctx.restore();
  }
}
