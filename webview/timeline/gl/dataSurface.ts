/**
 * The data layer's canvas and its painter: WebGL2 (GlPaint) when the renderer choice says so,
 * else canvas2d. A lost WebGL2 context (driver reset, GPU process crash, too many contexts) is not
 * waited for: a fresh canvas takes the old one's place with canvas2d, and the layer is drawn again.
 */
import type { Paint2D } from '../paint2d';
import { GlPaint } from './glPaint';
import { chooseRenderer, fallbackChoice, rendererSetting, type RendererChoice } from './rendererChoice';

export class DataSurface {
  private canvas: HTMLCanvasElement;
  private gl: GlPaint | undefined;
  private choice: RendererChoice;

  constructor(
    canvas: HTMLCanvasElement,
    private readonly root: HTMLElement,
    private readonly redraw: () => void,
    setting = rendererSetting(document.body.dataset.renderer),
  ) {
    this.canvas = canvas;
    this.choice = chooseRenderer(setting, glRendererName);
    if (this.choice.kind === 'webgl2') this.startGl();
    this.record();
  }

  /**
   * The painter rasterises on the CPU here (canvas2d without a GPU, or WebGL2 forced on software
   * GL), where the event heads and density marks are composited as pixels (drawData's
   * `headPixels`). A harness may ask for paths as where a GPU rasterises (`__mpeHeadsAsPaths`).
   */
  get cpuRaster(): boolean {
    if ((globalThis as { __mpeHeadsAsPaths?: boolean }).__mpeHeadsAsPaths === true) return false;
    return this.choice.cpuRaster;
  }

  /** Whether the painter is WebGL2 (else canvas2d). */
  get usesGl(): boolean {
    return this.gl !== undefined;
  }

  /** The canvas shown (sized by the layers). */
  get element(): HTMLCanvasElement {
    return this.canvas;
  }

  /** The painter, scaled to CSS pixels. */
  painter(): Paint2D {
    const dpr = window.devicePixelRatio || 1;
    const p: Paint2D = this.gl ?? this.canvas.getContext('2d')!;
    p.setTransform(dpr, 0, 0, dpr, 0, 0);
    return p;
  }

  /**
   * The frame is drawn: a GL painter draws what it holds. A harness (the bench) may ask to wait
   * until the pixels are there (`__mpeFrameSync`), by reading one back: both painters rasterise
   * after the call otherwise, and the frame times would not compare.
   */
  present(): void {
    this.gl?.present();
    if ((globalThis as { __mpeFrameSync?: boolean }).__mpeFrameSync !== true) return;
    if (this.gl) this.gl.readPixel();
    else this.canvas.getContext('2d')!.getImageData(0, 0, 1, 1);
  }

  private startGl(): void {
    const gl = this.canvas.getContext('webgl2', { alpha: true, premultipliedAlpha: true, antialias: false, preserveDrawingBuffer: true });
    try {
      if (!gl) throw new Error('no WebGL2 context');
      this.gl = new GlPaint(this.canvas, gl);
    } catch (e) {
      this.fallBack(`WebGL2 failed: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    this.canvas.addEventListener('webglcontextlost', () => this.fallBack('WebGL2 context lost'), { once: true });
  }

  /** Canvas2d on a fresh canvas in the old one's place (a canvas keeps its first kind of context). */
  private fallBack(reason: string): void {
    const old = this.canvas;
    const fresh = document.createElement('canvas');
    fresh.className = old.className;
    fresh.style.cssText = old.style.cssText;
    fresh.width = old.width;
    fresh.height = old.height;
    old.after(fresh);
    old.style.display = 'none';
    this.canvas = fresh;
    this.gl = undefined;
    this.choice = fallbackChoice(reason);
    this.record();
    this.redraw();
  }

  private record(): void {
    this.root.dataset.renderer = this.choice.kind;
    this.root.dataset.rendererReason = this.choice.reason;
  }
}

/** The name of the GL renderer a WebGL2 context gets here, or undefined when there is none. */
export function glRendererName(): string | undefined {
  const probe = document.createElement('canvas');
  const gl = probe.getContext('webgl2');
  if (!gl) return undefined;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return name;
}
