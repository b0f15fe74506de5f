/** What pages/dataLayerPage.ts reports to dataLayerPixels.test.ts (no DOM types: both programs read it). */
export interface PixelDiff {
  readonly states: number;
  readonly drawn: number;
  readonly painted: number;
  /** Painted pixels differing by more than colour rounding. */
  readonly differ: number;
  readonly maxDelta: number;
}
