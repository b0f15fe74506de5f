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

/** What comparePans reports: a pan sequence drawn with the kept state marks (stateMarks.ts). */
export interface PanDiff {
  readonly steps: number;
  /** Frames drawn by moving the kept marks (not a full scan), and of them the warm-up's. */
  readonly panned: number;
  readonly warmUpPanned: number;
  /** The worst step against the plain painter: painted and differing pixels, and where. */
  readonly painted: number;
  readonly differ: number;
  readonly worst: string;
  /** Checkpoints where a full scan of the same view gave other pixels or another drawn count. */
  readonly mismatches: string;
  /** Whether the payload's runs were in time order (found by binary search, not by chunks). */
  readonly timeOrderedRuns: boolean;
}
