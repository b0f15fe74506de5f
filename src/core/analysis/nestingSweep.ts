/**
 * Exclusive time per process from states arriving in increasing start time: each moment belongs
 * to the innermost open state of the process ("(no state)" between states, from the process's
 * first state on). Spans are reported in increasing time per process. States that overlap
 * without nesting (a time-order problem) are reported and treated as ending with their parent.
 */

import { grown } from '../bytes/grown';

export const NO_STATE = '(no state)';

/**
 * A process's open states, innermost last, in columns: one object per state here was a tenth of
 * the analysis's first pass with its garbage (20 M states per GB).
 */
interface OpenStack {
  size: number;
  readonly name: string[];
  readonly site: (string | undefined)[];
  exit: Float64Array;
}

export type SpanSink = (loc: number, name: string, site: string | undefined, from: number, to: number) => void;

export class NestingSweep {
  private readonly stacks: OpenStack[] = [];
  private readonly cursor: number[] = [];

  constructor(
    private readonly onSpan: SpanSink,
    private readonly onOverlap?: (loc: number, enter: number, exit: number, parentExit: number) => void,
  ) {}

  addState(loc: number, name: string, site: string | undefined, enter: number, exit: number): void {
    let stack = this.stacks[loc];
    if (stack === undefined) {
      stack = this.open(loc);
      this.cursor[loc] = enter;
    }
    this.advance(loc, stack, enter);
    const n = stack.size;
    let end = exit;
    if (n > 0 && stack.exit[n - 1]! < exit) {
      this.onOverlap?.(loc, enter, exit, stack.exit[n - 1]!);
      end = stack.exit[n - 1]!;
    }
    if (n === stack.exit.length) stack.exit = grown(stack.exit, n + 1);
    stack.name[n] = name;
    stack.site[n] = site;
    stack.exit[n] = end;
    stack.size = n + 1;
  }

  /**
   * Starts a process's time at `t` (its first state's entry) before any state is added: a sweep
   * that sees only some of a process's states (the critical path's pass) still labels the gaps
   * between them "(no state)" from there on.
   */
  startAt(loc: number, t: number): void {
    if (this.stacks[loc] !== undefined) return;
    this.open(loc);
    this.cursor[loc] = t;
  }

  /** Closes everything: spans up to each process's last exit, or to `until(loc)` when that is later. */
  finish(until?: (loc: number) => number): void {
    this.stacks.forEach((stack, loc) => {
      const t = until?.(loc);
      if (t !== undefined && Number.isFinite(t)) this.advance(loc, stack, t);
      this.advance(loc, stack, Infinity);
    });
  }

  private open(loc: number): OpenStack {
    return (this.stacks[loc] = { size: 0, name: [], site: [], exit: new Float64Array(16) });
  }

  private advance(loc: number, stack: OpenStack, t: number): void {
    let cursor = this.cursor[loc]!;
    while (stack.size > 0 && stack.exit[stack.size - 1]! <= t) {
      const top = --stack.size;
      const exit = stack.exit[top]!;
      if (exit > cursor) {
        this.onSpan(loc, stack.name[top]!, stack.site[top], cursor, exit);
        cursor = exit;
      }
    }
    if (t !== Infinity && t > cursor) {
      const top = stack.size - 1;
      this.onSpan(loc, top >= 0 ? stack.name[top]! : NO_STATE, top >= 0 ? stack.site[top] : undefined, cursor, t);
      cursor = t;
    }
    this.cursor[loc] = cursor;
  }
}
