/** The popup's sentence for a waiting state: "0.6 s of 0.8 s waiting for rank 0's MPI_Send at 1 s". */
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
