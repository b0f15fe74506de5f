/**
 * The drawing state of the WebGL2 painter (glPaint.ts): the 2D context's attributes it honours,
 * the transform (scale and translation), and save()/restore(), as a 2D context keeps them.
 */
import type { Paint2D } from '../paint2d';

/** The drawing state save() keeps: the context's attributes, and the transform. */
export interface State extends Pick<
  Paint2D,
  'fillStyle' | 'strokeStyle' | 'lineWidth' | 'lineCap' | 'globalAlpha' | 'font' | 'textAlign' | 'textBaseline' | 'imageSmoothingEnabled'
> {
  /** Scale and translation (no rotation: the painters never rotate). */
  sx: number;
  sy: number;
  tx: number;
  ty: number;
}

/** A 2D context's state, for a painter that draws it another way (GlPaint reads `s`). */
export class PaintState {
  protected s: State = {
    fillStyle: '#000000',
    strokeStyle: '#000000',
    lineWidth: 1,
    lineCap: 'butt',
    globalAlpha: 1,
    font: '10px sans-serif',
    textAlign: 'start',
    textBaseline: 'alphabetic',
    imageSmoothingEnabled: true,
    sx: 1,
    sy: 1,
    tx: 0,
    ty: 0,
  };
  private readonly stack: State[] = [];

  get fillStyle(): string | CanvasGradient | CanvasPattern {
    return this.s.fillStyle;
  }
  set fillStyle(v: string | CanvasGradient | CanvasPattern) {
    this.s.fillStyle = v;
  }
  get strokeStyle(): string | CanvasGradient | CanvasPattern {
    return this.s.strokeStyle;
  }
  set strokeStyle(v: string | CanvasGradient | CanvasPattern) {
    this.s.strokeStyle = v;
  }
  get lineWidth(): number {
    return this.s.lineWidth;
  }
  set lineWidth(v: number) {
    if (v > 0 && Number.isFinite(v)) this.s.lineWidth = v;
  }
  get lineCap(): CanvasLineCap {
    return this.s.lineCap;
  }
  set lineCap(v: CanvasLineCap) {
    this.s.lineCap = v;
  }
  get globalAlpha(): number {
    return this.s.globalAlpha;
  }
  set globalAlpha(v: number) {
    if (v >= 0 && v <= 1) this.s.globalAlpha = v;
  }
  get font(): string {
    return this.s.font;
  }
  set font(v: string) {
    this.s.font = v;
  }
  get textAlign(): CanvasTextAlign {
    return this.s.textAlign;
  }
  set textAlign(v: CanvasTextAlign) {
    this.s.textAlign = v;
  }
  get textBaseline(): CanvasTextBaseline {
    return this.s.textBaseline;
  }
  set textBaseline(v: CanvasTextBaseline) {
    this.s.textBaseline = v;
  }
  get imageSmoothingEnabled(): boolean {
    return this.s.imageSmoothingEnabled;
  }
  set imageSmoothingEnabled(v: boolean) {
    this.s.imageSmoothingEnabled = v;
  }

  save(): void {
    this.stack.push({ ...this.s });
  }
  restore(): void {
    const s = this.stack.pop();
    if (s) this.s = s;
  }
  setTransform(a: number, _b: number, _c: number, d: number, e: number, f: number): void {
    Object.assign(this.s, { sx: a, sy: d, tx: e, ty: f });
  }
  getTransform(): DOMMatrix {
    return new DOMMatrix([this.s.sx, 0, 0, this.s.sy, this.s.tx, this.s.ty]);
  }
}
