/**
 * The one frame scheduler of the timeline: callers mark layers dirty; at most one animation frame
 * is pending; in the frame each dirty layer is redrawn once, in a fixed order (grid, data,
 * overlay, …). Hover marks only the overlay, so moving the mouse never repaints the data layer.
 * `requestFrame` is injected so the logic runs under node tests.
 */

export type LayerName = 'grid' | 'data' | 'labels' | 'overview' | 'overlay';

export const LAYER_ORDER: readonly LayerName[] = ['grid', 'data', 'labels', 'overview', 'overlay'];

export class FrameScheduler {
  private readonly dirty = new Set<LayerName>();
  private pending = false;
  /** Duration of the last frame per layer (ms), for diagnostics and the bench. */
  readonly lastMs = new Map<LayerName, number>();
  frames = 0;

  constructor(
    private readonly draw: (layer: LayerName) => void,
    private readonly requestFrame: (cb: () => void) => void,
    private readonly now: () => number = () => Date.now(),
  ) {}

  mark(...layers: LayerName[]): void {
    for (const l of layers) this.dirty.add(l);
    if (!this.pending && this.dirty.size > 0) {
      this.pending = true;
      this.requestFrame(() => this.frame());
    }
  }

  isDirty(layer: LayerName): boolean {
    return this.dirty.has(layer);
  }

  private frame(): void {
    this.pending = false;
    this.frames++;
    for (const layer of LAYER_ORDER) {
      if (!this.dirty.has(layer)) continue;
      this.dirty.delete(layer);
      const t = this.now();
      this.draw(layer);
      this.lastMs.set(layer, this.now() - t);
    }
  }
}
