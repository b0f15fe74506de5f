/**
 * Exclusive time per process from states arriving in increasing start time: each moment belongs
 * to the innermost open state of the process ("(no state)" between states, from the process's
 * first state on). Spans are reported in increasing time per process. States that overlap
 * without nesting (a time-order problem) are reported and treated as ending with their parent.
 */

export const NO_STATE = '(no state)';

interface Open {
  readonly name: string;
  readonly site: string | undefined;
  readonly exit: number;
}

export type SpanSink = (loc: number, name: string, site: string | undefined, from: number, to: number) => void;

export class NestingSweep {
  private readonly stacks: Open[][] = [];
  private readonly cursor: number[] = [];

  constructor(
    private readonly onSpan: SpanSink,
    private readonly onOverlap?: (loc: number, enter: number, exit: number, parentExit: number) => void,
  ) {}

  addState(loc: number, name: string, site: string | undefined, enter: number, exit: number): void {
    let stack = this.stacks[loc];
    if (stack === undefined) {
      stack = this.stacks[loc] = [];
      this.cursor[loc] = enter;
    }
    this.advance(loc, stack, enter);
    const top = stack[stack.length - 1];
    let end = exit;
    if (top !== undefined && top.exit < exit) {
      this.onOverlap?.(loc, enter, exit, top.exit);
      end = top.exit;
    }
    stack.push({ name, site, exit: end });
  }

  /**
   * Starts a process's time at `t` (its first state's entry) before any state is added: a sweep
   * that sees only some of a process's states (the critical path's pass) still labels the gaps
   * between them "(no state)" from there on.
   */
  startAt(loc: number, t: number): void {
    if (this.stacks[loc] !== undefined) return;
    this.stacks[loc] = [];
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

  private advance(loc: number, stack: Open[], t: number): void {
    let cursor = this.cursor[loc]!;
    while (stack.length > 0 && stack[stack.length - 1]!.exit <= t) {
      const top = stack.pop()!;
      if (top.exit > cursor) {
        this.onSpan(loc, top.name, top.site, cursor, top.exit);
        cursor = top.exit;
      }
    }
    if (t !== Infinity && t > cursor) {
      const top = stack[stack.length - 1];
      this.onSpan(loc, top?.name ?? NO_STATE, top?.site, cursor, t);
      cursor = t;
    }
    this.cursor[loc] = cursor;
  }
}
