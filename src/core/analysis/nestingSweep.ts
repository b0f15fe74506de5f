/**
 * Exclusive time per process from states arriving in increasing start time: each moment belongs
 * to the innermost open state of the process ("(no state)" between states, from the process's
 * first state on). Spans are reported in increasing time per process. States that overlap
 * without nesting (a time-order problem) are reported and treated as ending with their parent.
 */

import { grown } from '../bytes/grown';

export const NO_STATE = '(no state)';
/** The name id of "(no state)" (StateNames gives it to nobody else). */
export const NO_STATE_ID = 0;
/** The site id of "no site". */
export const NO_SITE = -1;

/**
 * State names as dense ids, "(no state)" first: the sweep carries numbers (a Map lookup by name
 * per span and an array of strings per stack were a fifth of the analysis's first pass).
 */
export class StateNames {
  private readonly ids = new Map<string, number>([[NO_STATE, NO_STATE_ID]]);
  readonly names: string[] = [NO_STATE];

  id(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.ids.set(name, id);
      this.names.push(name);
    }
    return id;
  }

  /** The id of a name seen before (undefined otherwise). */
  known(name: string): number | undefined {
    return this.ids.get(name);
  }
}

/**
 * A process's open states, innermost last, in columns (name and site ids, exits): one object per
 * state here was a tenth of the analysis's first pass with its garbage (20 M states per GB).
 */
interface OpenStack {
  size: number;
  name: Int32Array;
  site: Int32Array;
  exit: Float64Array;
}

/** A span of a process's time in its innermost state: name id (NO_STATE_ID between states), site id or NO_SITE. */
export type SpanSink = (loc: number, name: number, site: number, from: number, to: number) => void;

export class NestingSweep {
  private readonly stacks: OpenStack[] = [];
  private readonly cursor: number[] = [];

  constructor(
    private readonly onSpan: SpanSink,
    private readonly onOverlap?: (loc: number, enter: number, exit: number, parentExit: number) => void,
  ) {}

  /** `name`: a StateNames id; `site`: the caller's site id or NO_SITE. */
  addState(loc: number, name: number, site: number, enter: number, exit: number): void {
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
    if (n === stack.exit.length) {
      stack.exit = grown(stack.exit, n + 1);
      stack.name = grown(stack.name, n + 1);
      stack.site = grown(stack.site, n + 1);
    }
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
    return (this.stacks[loc] = { size: 0, name: new Int32Array(16), site: new Int32Array(16), exit: new Float64Array(16) });
  }

  private advance(loc: number, stack: OpenStack, t: number): void {
    let cursor = this.cursor[loc]!;
    while (stack.size > 0 && stack.exit[stack.size - 1]! <= t) {
      const top = --stack.size;
      const exit = stack.exit[top]!;
      if (exit > cursor) {
        this.onSpan(loc, stack.name[top]!, stack.site[top]!, cursor, exit);
        cursor = exit;
      }
    }
    if (t !== Infinity && t > cursor) {
      const top = stack.size - 1;
      this.onSpan(loc, top >= 0 ? stack.name[top]! : NO_STATE_ID, top >= 0 ? stack.site[top]! : NO_SITE, cursor, t);
      cursor = t;
    }
    this.cursor[loc] = cursor;
  }
}
