/** The page's side of the data layer's warm-up (warmUp.ts, no DOM): idle callbacks and a canvas never shown. */
import type { IdleCallbacks } from './warmUp';

export const pageIdle: IdleCallbacks = {
  request: (fn) => requestIdleCallback((deadline) => fn(deadline.timeRemaining())),
  cancel: (id) => cancelIdleCallback(id),
};

/** A detached canvas the warm-up's frames are drawn into. */
export class ScratchCanvas {
  private canvas: HTMLCanvasElement | undefined;

  /** Its 2D context, the device size of `like`, scaled to CSS pixels. */
  contextLike(like: HTMLCanvasElement): CanvasRenderingContext2D {
    const canvas = (this.canvas ??= document.createElement('canvas'));
    if (canvas.width !== like.width || canvas.height !== like.height) {
      canvas.width = like.width;
      canvas.height = like.height;
    }
    const ctx = canvas.getContext('2d')!;
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    return ctx;
  }

  /** Gives its pixels back (a 0 × 0 canvas holds none). */
  release(): void {
    if (this.canvas) this.canvas.width = this.canvas.height = 0;
    this.canvas = undefined;
  }
}
