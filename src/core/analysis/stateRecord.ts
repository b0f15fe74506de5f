/** The compact view of one state that the analysis keeps while its partners may still arrive. */
import type { CallKind } from './calls';

export interface StateRec {
  /** Process index (LineRoles.location) and the line ID the state is drawn on. */
  readonly loc: number;
  readonly line: number;
  /** Category index and name. */
  readonly cat: number;
  readonly name: string;
  readonly kind: CallKind;
  readonly enter: number;
  readonly exit: number;
  /** "file:line" of the state's start, when recorded. */
  readonly site: string | undefined;
  /** Index of this state's wait instance in the recorder (−1: none yet). */
  slot: number;
  /** Its wait so far (a multi-completion call keeps its worst partner's); 0 before any. */
  wait: number;
}
