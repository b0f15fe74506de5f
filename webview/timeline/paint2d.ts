/**
 * What the data layer's painters (drawData, drawArrows, drawDensity, column strips, event stems)
 * ask of a 2D context: a subset of CanvasRenderingContext2D, so that the same painters draw through
 * a canvas2d context or through the WebGL2 painter (gl/glPaint.ts), in the same order.
 */
export interface Paint2D {
  fillStyle: string | CanvasGradient | CanvasPattern;
  strokeStyle: string | CanvasGradient | CanvasPattern;
  lineWidth: number;
  lineCap: CanvasLineCap;
  globalAlpha: number;
  font: string;
  textAlign: CanvasTextAlign;
  textBaseline: CanvasTextBaseline;
  imageSmoothingEnabled: boolean;
  fillRect(x: number, y: number, w: number, h: number): void;
  clearRect(x: number, y: number, w: number, h: number): void;
  strokeRect(x: number, y: number, w: number, h: number): void;
  beginPath(): void;
  rect(x: number, y: number, w: number, h: number): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  fill(): void;
  stroke(): void;
  fillText(text: string, x: number, y: number, maxWidth?: number): void;
  measureText(text: string): TextMetrics;
  createPattern(image: HTMLCanvasElement, repetition: string | null): CanvasPattern | null;
  drawImage(image: HTMLCanvasElement, dx: number, dy: number, dw: number, dh: number): void;
  save(): void;
  restore(): void;
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void;
  getTransform(): DOMMatrix;
  /**
   * A line of ready pixels (`px[c]`: column c's RGBA bytes as ImageData holds them, read as a
   * little-endian u32; 0 = nothing) filled over columns [c0, c1), one user unit each, from y,
   * `height` tall, without smoothing. A painter with its own path for it (WebGL2) has this; a
   * canvas2d context has not, and the caller fills the line through a pattern.
   */
  pixelLine?(px: Uint32Array, c0: number, c1: number, y: number, height: number): void;
}
