/** Messages between the fuzz runner and its worker thread. */
import type { CaseId } from './cases';

export type ToWorker =
  | { readonly type: 'run'; readonly id: CaseId }
  /** Runs the target on given bytes (minimisation and --case replays of saved inputs). */
  | { readonly type: 'replay'; readonly id: CaseId; readonly bytes: Uint8Array; readonly truncatedAt?: number; readonly endLogEnd?: number };

/**
 * ok: read fine; rejected: a FormatError (proper refusal); known: a listed plain-Error refusal
 * (targets.ts KNOWN_REFUSALS); crash: any other exception; invariant: a wrong result.
 */
export type Outcome = 'ok' | 'rejected' | 'known' | 'crash' | 'invariant';

export interface CaseResult {
  readonly id: CaseId;
  readonly outcome: Outcome;
  readonly ms: number;
  /** Process CPU time of the case (user + system). */
  readonly cpuMs: number;
  /** Input size. */
  readonly bytes: number;
  readonly seedName: string;
  readonly steps: readonly string[];
  readonly message?: string;
  readonly stack?: string;
}
