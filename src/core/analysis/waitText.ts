/** The popup's sentence for a waiting state: "0.6 s of 0.8 s waiting for rank 0's MPI_Send at 1 s". */
import type { ChainDirection, ChainNode } from './dependence';
import type { Pattern, WaitInstance } from './types';

const PATTERN_NAMES: Record<Pattern, string> = {
  lateSender: 'late sender',
  lateReceiver: 'late receiver',
  waitAtBarrier: 'wait at barrier',
  waitAtNxN: 'wait at N×N collective',
  lateBroadcast: 'late broadcast',
  earlyReduce: 'early reduce',
};

/** Seconds with 4 significant digits, without trailing zeros. */
export function shortSeconds(s: number): string {
  return `${Number(s.toPrecision(4))} s`;
}

export function waitSentence(w: WaitInstance): string {
  return `${shortSeconds(w.wait)} of ${shortSeconds(w.exit - w.enter)} waiting for rank ${w.causer.rank}'s ${w.causer.category} at ${shortSeconds(w.causer.time)} (${PATTERN_NAMES[w.pattern]})`;
}

/** The label of the button that goes to the rank waited for. */
export function goToLabel(w: WaitInstance): string {
  return w.pattern === 'lateSender' ? 'Go to sender' : w.pattern === 'lateReceiver' ? 'Go to receiver' : `Go to rank ${w.causer.rank}`;
}

/** One line of a dependence chain's list: the state, and how it is linked to the one it came from. */
export function chainEntryText(node: ChainNode, parent: ChainNode | undefined, direction: ChainDirection): string {
  const s = node.state;
  const head = `rank ${s.rank} · ${s.name} ${shortSeconds(s.enter)} – ${shortSeconds(s.exit)}`;
  if (parent === undefined) return `${head} (selected)`;
  const p = parent.state;
  if (node.via === 'program-order') {
    if (node.order === 'nextCause') return `${head} — the next call on rank ${s.rank} that others waited for`;
    const own = shortSeconds(Math.max(0, p.enter - s.exit));
    return node.order === 'start'
      ? `${head} — rank ${s.rank}'s first state (it never waited before)`
      : `${head} — rank ${s.rank}'s last wait before it (${own} on its own between)`;
  }
  const wait = node.wait === undefined ? '' : `${shortSeconds(node.wait.seconds)} (${PATTERN_NAMES[node.wait.pattern]})`;
  return direction === 'backward' ? `${head} — rank ${p.rank}'s ${p.name} waited ${wait} for it` : `${head} — waited ${wait} for rank ${p.rank}'s ${p.name}`;
}
