// A speed or memory target's figure in this run, with its same-run baseline and the ratio: printed
// as one `TARGET {json}` line, which test/bench/run.mjs collects into the table it prints at the
// end of `npm run bench` (so the closing notes and the README quote one run's table).

export interface TargetFigure {
  /** The target as the issue states it, e.g. "whole-trace statistics of a 1 GB SLOG-2 ≤ 5 s". */
  readonly target: string;
  /** The measured figure, with its unit and how many runs. */
  readonly figure: string;
  /** The baseline measured beside it in the same run (or "none"). */
  readonly baseline: string;
  /** baseline ÷ figure (or figure ÷ baseline: as the target reads), when there is one. */
  readonly ratio?: string;
  readonly met: boolean;
}

export function reportTarget(t: TargetFigure): void {
  console.log(`TARGET ${JSON.stringify(t)}`);
}
