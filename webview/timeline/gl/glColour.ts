/** Colours of the WebGL2 painter's vertices: premultiplied RGBA bytes, read as a little-endian u32. */
import { rgbaOf } from '../columnStrips';

/** A CSS colour with the global alpha (0 for patterns and gradients: those are not colours). */
export function colourWord(globalAlpha: number, style: string | CanvasGradient | CanvasPattern): number {
  if (typeof style !== 'string') return 0;
  const v = rgbaOf(style);
  const a = ((v >>> 24) / 255) * globalAlpha;
  const r = Math.round((v & 0xff) * a);
  const g = Math.round(((v >>> 8) & 0xff) * a);
  const b = Math.round(((v >>> 16) & 0xff) * a);
  return (r | (g << 8) | (b << 16) | (Math.round(a * 255) << 24)) >>> 0;
}

/** Textured shapes: the global alpha in the colour's alpha (their texels carry the colour). */
export function alphaWord(globalAlpha: number): number {
  return (Math.round(globalAlpha * 255) << 24) >>> 0;
}
