/**
 * Which painter draws the data layer: WebGL2 (glPaint.ts) where the GL is a GPU, canvas2d
 * otherwise. The setting `mpeTrace.editor.renderer` (the page's `data-renderer`) can force either.
 * Software GL (SwiftShader, llvmpipe: VMs and remote desktops without a GPU) rasterises on the CPU
 * and takes about twice canvas2d's time for the same shapes (the viewport bench), so `auto`
 * keeps canvas2d there.
 */
export type RendererSetting = 'auto' | 'webgl2' | 'canvas2d';

export interface RendererChoice {
  readonly kind: 'webgl2' | 'canvas2d';
  /** Why (shown in the page's data attributes, for tests and bug reports). */
  readonly reason: string;
  /**
   * The pixels are rasterised on the CPU: canvas2d because there is no GPU (no WebGL2, or software
   * GL), or WebGL2 forced by the setting on software GL. There the event heads and density marks
   * are composited as pixels (on SwiftShader, 26 000 heads as triangles took a fourth of the dense
   * frame). Not for canvas2d by setting or after a lost context: a GPU may rasterise it.
   */
  readonly cpuRaster: boolean;
}

/** GL renderers that rasterise in software. */
const SOFTWARE_GL = /swiftshader|llvmpipe|softpipe|software|basic render|offscreen/i;

export function rendererSetting(value: string | undefined): RendererSetting {
  return value === 'webgl2' || value === 'canvas2d' ? value : 'auto';
}

/** `glName`: the name of the GL renderer a WebGL2 context gets (undefined: none), asked only when needed. */
export function chooseRenderer(setting: RendererSetting, glName: () => string | undefined): RendererChoice {
  if (setting === 'canvas2d') return { kind: 'canvas2d', reason: 'setting', cpuRaster: false };
  const name = glName();
  if (name === undefined) return { kind: 'canvas2d', reason: 'no WebGL2', cpuRaster: true };
  const software = SOFTWARE_GL.test(name);
  if (setting === 'webgl2') return { kind: 'webgl2', reason: `setting (${name})`, cpuRaster: software };
  return software ? { kind: 'canvas2d', reason: `software GL (${name})`, cpuRaster: true } : { kind: 'webgl2', reason: `GPU (${name})`, cpuRaster: false };
}

/** Canvas2d after WebGL2 failed or lost its context (`reason`): a GPU may rasterise it. */
export function fallbackChoice(reason: string): RendererChoice {
  return { kind: 'canvas2d', reason, cpuRaster: false };
}
