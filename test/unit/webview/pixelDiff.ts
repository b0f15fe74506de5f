/** What pages/dataLayerPage.ts reports to dataLayerPixels.test.ts (no DOM types: both programs read it). */
export interface PixelDiff {
  readonly states: number;
  readonly drawn: number;
  readonly painted: number;
  /** Painted pixels differing by more than the tolerance, and those of them off the reference picture's edges. */
  readonly differ: number;
  readonly offEdge: number;
  readonly maxDelta: number;
}
