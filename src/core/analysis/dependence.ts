/**
 * Dependence chains (TraceVis §2.8, ../shared/notes/analysis.md §3) over the wait states:
 * - backward ("what did it wait for?"): from a state, the state that released its wait — the send
 *   of the message it received late, the last arrival at the collective it left, the receive a
 *   synchronous send waited for — or, when it did not wait, the operation before it on its own
 *   rank that last waited (between the two the rank ran on its own, so nothing else held it up;
 *   the rank's first state when it never waited). One predecessor per state: the answer is a chain
 *   (the "blame chain", the critical-path walk of §2.4 started at the selected state).
 * - forward ("what did it delay?"): the states whose waits it caused, and the next operation on its
 *   own rank that others waited for (its delay carries on to it), breadth first: a tree.
 * Both stop at `maxDepth` hops and at `maxNodes` states. Which waits exist comes from the
 * analysis (WaitInstance); the states around a time come from the trace (ChainSource).
 */
import type { Pattern, WaitInstance } from './types';

export type ChainDirection = 'backward' | 'forward';
/** How a chain state is linked to its parent: its root, a message, a collective, its own rank's order. */
export type ChainHop = 'selected' | 'message' | 'collective' | 'program-order';

export interface ChainState {
  readonly lineID: number;
  /** Process label ("3" or "3.1"). */
  readonly rank: string;
  readonly category: number;
  readonly name: string;
  readonly enter: number;
  readonly exit: number;
}

export interface ChainNode {
  readonly state: ChainState;
  /** Hops from the selected state (0 for it). */
  readonly depth: number;
  /** Index of the node it was reached from (−1 for the selected state). */
  readonly parent: number;
  readonly via: ChainHop;
  /** A program-order hop: to the rank's last wait before it, to the rank's first state, to the rank's next call others waited for. */
  readonly order?: 'lastWait' | 'start' | 'nextCause';
  /** The wait behind a message or collective hop: who waited how long, and the pattern. */
  readonly wait?: { readonly seconds: number; readonly pattern: Pattern };
  /** The link drawn between parent and node: the cause's time and the effect's time. */
  readonly link?: { readonly causeTime: number; readonly effectTime: number };
}

export interface DependenceChain {
  readonly direction: ChainDirection;
  readonly maxDepth: number;
  readonly nodes: readonly ChainNode[];
  /** Some states were left out (`maxNodes` reached). */
  readonly truncated: boolean;
}

/** What the walk needs of the trace and of its analysis. */
export interface ChainSource {
  /** The wait the analysis recorded on this state, if any. */
  waitOf(s: ChainState): WaitInstance | undefined;
  /** Waits caused by a call on `lineID` that began in [t0, t1] (named `name`). */
  waitsCausedBy(lineID: number, name: string, t0: number, t1: number): readonly WaitInstance[];
  /** The innermost state named `name` on `lineID` that contains `time` (preferring one that starts at it). */
  stateAt(lineID: number, name: string, time: number): Promise<ChainState | undefined>;
  /** The latest state of the process of `s` that waited and ended at or before `s` starts. */
  lastWaitBefore(s: ChainState): Promise<ChainState | undefined>;
  /** The first state on the line of `s`, when it starts before `s`. */
  firstStateBefore(s: ChainState): Promise<ChainState | undefined>;
  /** The first call of the process of `s` at or after `s` ends that another process waited for. */
  nextCauseAfter(s: ChainState): Promise<ChainState | undefined>;
}

export interface ChainOptions {
  readonly maxDepth: number;
  /** Cap on the states of a forward tree (default 400). */
  readonly maxNodes?: number;
  readonly signal?: AbortSignal;
}

const DEFAULT_MAX_NODES = 400;

export function sameState(a: ChainState, b: ChainState): boolean {
  return a.lineID === b.lineID && a.enter === b.enter && a.exit === b.exit && a.name === b.name;
}

function stateKey(s: ChainState): string {
  return `${s.lineID}|${s.enter}|${s.exit}|${s.name}`;
}

/** Message patterns link two point-to-point calls; the others a collective. */
function hopOf(p: Pattern): ChainHop {
  return p === 'lateSender' || p === 'lateReceiver' ? 'message' : 'collective';
}

export async function dependenceChain(source: ChainSource, selected: ChainState, direction: ChainDirection, options: ChainOptions): Promise<DependenceChain> {
  const maxDepth = Math.max(0, Math.floor(options.maxDepth));
  const maxNodes = Math.max(1, options.maxNodes ?? DEFAULT_MAX_NODES);
  const nodes: ChainNode[] = [{ state: selected, depth: 0, parent: -1, via: 'selected' }];
  const seen = new Set([stateKey(selected)]);
  let truncated = false;
  const add = (node: ChainNode): boolean => {
    const key = stateKey(node.state);
    if (seen.has(key)) return false;
    if (nodes.length >= maxNodes) {
      truncated = true;
      return false;
    }
    seen.add(key);
    nodes.push(node);
    return true;
  };

  if (direction === 'backward') {
    for (let at = 0; nodes[at]!.depth < maxDepth;) {
      options.signal?.throwIfAborted();
      const node = nodes[at]!;
      const next = await predecessor(source, node.state);
      if (next === undefined || !add({ ...next, depth: node.depth + 1, parent: at })) break;
      at = nodes.length - 1;
    }
    return { direction, maxDepth, nodes, truncated };
  }

  for (let at = 0; at < nodes.length; at++) {
    options.signal?.throwIfAborted();
    const node = nodes[at]!;
    if (node.depth >= maxDepth) continue;
    for (const next of await successors(source, node.state)) add({ ...next, depth: node.depth + 1, parent: at });
  }
  return { direction, maxDepth, nodes, truncated };
}

type Hop = Omit<ChainNode, 'depth' | 'parent'>;

/** What `s` waited for, or (no wait) the operation before it on its rank. */
async function predecessor(source: ChainSource, s: ChainState): Promise<Hop | undefined> {
  const w = source.waitOf(s);
  if (w !== undefined) {
    const cause = await source.stateAt(w.causer.lineID, w.causer.category, w.causer.time);
    if (cause !== undefined)
      return {
        state: cause,
        via: hopOf(w.pattern),
        wait: { seconds: w.wait, pattern: w.pattern },
        link: { causeTime: w.causer.time, effectTime: w.enter + w.wait },
      };
  }
  const waited = await source.lastWaitBefore(s);
  const before = waited ?? (await source.firstStateBefore(s));
  if (before === undefined) return undefined;
  return {
    state: before,
    via: 'program-order',
    order: waited ? 'lastWait' : 'start',
    link: { causeTime: Math.min(before.exit, s.enter), effectTime: s.enter },
  };
}

/** The states whose waits `s` caused, then the operation after it on its rank. */
async function successors(source: ChainSource, s: ChainState): Promise<Hop[]> {
  const out: Hop[] = [];
  for (const w of source.waitsCausedBy(s.lineID, s.name, s.enter, s.exit)) {
    out.push({
      state: { lineID: w.lineID, rank: w.rank, category: -1, name: w.category, enter: w.enter, exit: w.exit },
      via: hopOf(w.pattern),
      wait: { seconds: w.wait, pattern: w.pattern },
      link: { causeTime: w.causer.time, effectTime: w.enter + w.wait },
    });
  }
  // The waiting states as the trace has them (category index, the exact state).
  for (let i = 0; i < out.length; i++) {
    const o = out[i]!;
    const found = await source.stateAt(o.state.lineID, o.state.name, o.state.enter);
    if (found !== undefined) out[i] = { ...o, state: found };
  }
  const after = await source.nextCauseAfter(s);
  if (after !== undefined) out.push({ state: after, via: 'program-order', order: 'nextCause', link: { causeTime: s.exit, effectTime: after.enter } });
  return out;
}
