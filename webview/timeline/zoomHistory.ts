/** Undo/redo of view windows (zoom, pan by drag, typed windows), bounded. */
import type { TimeWindow } from './timeScale';

export class ZoomHistory {
  private past: TimeWindow[] = [];
  private future: TimeWindow[] = [];

  constructor(private readonly limit = 100) {}

  /** Call before moving away from `current` with a discrete navigation step. */
  push(current: TimeWindow): void {
    const last = this.past[this.past.length - 1];
    if (last && last.t0 === current.t0 && last.t1 === current.t1) return;
    this.past.push(current);
    if (this.past.length > this.limit) this.past.shift();
    this.future = [];
  }

  undo(current: TimeWindow): TimeWindow | undefined {
    const prev = this.past.pop();
    if (prev) this.future.push(current);
    return prev;
  }

  redo(current: TimeWindow): TimeWindow | undefined {
    const next = this.future.pop();
    if (next) this.past.push(current);
    return next;
  }

  get canUndo(): boolean {
    return this.past.length > 0;
  }

  get canRedo(): boolean {
    return this.future.length > 0;
  }
}
