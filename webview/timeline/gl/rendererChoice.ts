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
}

/** Reasons for canvas2d where the machine has no GPU for the webview (see rastersOnCpu). */
const NO_WEBGL2 = 'no WebGL2';
const SOFTWARE_GL_REASON = 'software GL';

/** GL renderers that rasterise in software. */
const SOFTWARE_GL = /swiftshader|llvmpipe|softpipe|software|basic render|offscreen/i;

export function rendererSetting(value: string | undefined): RendererSetting {
  return value === 'webgl2' || value === 'canvas2d' ? value : 'auto';
}

/** `glName`: the name of the GL renderer a WebGL2 context gets (undefined: none), asked only when needed. */
export function chooseRenderer(setting: RendererSetting, glName: () => string | undefined): RendererChoice {
  if (setting === 'canvas2d') return { kind: 'canvas2d', reason: 'setting' };
  const name = glName();
  if (name === undefined) return { kind: 'canvas2d', reason: NO_WEBGL2 };
  if (setting === 'webgl2') return { kind: 'webgl2', reason: `setting (${name})` };
  return SOFTWARE_GL.test(name) ? { kind: 'canvas2d', reason: `${SOFTWARE_GL_REASON} (${name})` } : { kind: 'webgl2', reason: `GPU (${name})` };
}

/**
 * True when canvas2d was chosen because there is no GPU (no WebGL2, or software GL), or WebGL2 was
 * forced by the setting on software GL: the pixels are rasterised on the CPU, where the event
 * heads are composited as pixels (on SwiftShader, 26 000 heads as triangles took a fourth of the
 * dense frame: median 81.3 → 61.2 ms as pixels). Not for canvas2d by setting or after a lost
 * context (a GPU may rasterise it).
 */
export function rastersOnCpu(choice: RendererChoice): boolean {
  if (choice.kind === 'webgl2') return choice.reason.startsWith('setting (') && SOFTWARE_GL.test(choice.reason);
  return choice.kind === 'canvas2d' && (choice.reason === NO_WEBGL2 || choice.reason.startsWith(`${SOFTWARE_GL_REASON} (`));
}
