/**
 * What a data frame's time is made of, kept only where a harness asks (`__mpeFramePhases`, an
 * array: the viewport bench prints its slowest frames by phase instead of leaving them to a
 * profiler). Phases are summed over the frame (the strips are painted once per depth); the
 * states' time includes their strips. Off, each call is one check.
 */
export const PHASES = ['states', 'strips', 'arrows', 'events', 'raster'] as const;
export type Phase = (typeof PHASES)[number];

/** One frame's phases, ms, in PHASES order. */
export type FramePhases = number[];

let current: FramePhases | undefined;

function sink(): FramePhases[] | undefined {
  return (globalThis as { __mpeFramePhases?: FramePhases[] }).__mpeFramePhases;
}

/** Starts a data frame's record, if a harness keeps them. */
export function beginFramePhases(): void {
  current = sink() ? PHASES.map(() => 0) : undefined;
}

/** The clock for a phase about to run: 0 when no record is kept. */
export function phaseClock(): number {
  return current ? performance.now() : 0;
}

/** Adds the time since `from` (phaseClock) to `phase`. */
export function endPhase(phase: Phase, from: number): void {
  if (current) current[PHASES.indexOf(phase)]! += performance.now() - from;
}

/** Ends the frame's record (kept beside its duration in the harness's frame log). */
export function endFramePhases(): void {
  if (current) sink()?.push(current);
  current = undefined;
}
