/** What pages/glLayerPage.ts reports to glLayerPixels.test.ts (no DOM types: both programs read it). */
export interface GlDiff {
  /** Drawables the data layer drew, and shapes the WebGL2 painter drew. */
  readonly drawn: number;
  readonly instances: number;
  readonly painted: number;
  /** Pixels differing by more than the tolerance, and those of them off the canvas2d picture's edges. */
  readonly differ: number;
  readonly offEdge: number;
  readonly maxDelta: number;
}
