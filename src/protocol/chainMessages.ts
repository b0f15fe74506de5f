/**
 * The dependence-chain messages of the timeline webview channel (src/protocol/webview.ts, which
 * re-exports them): `requestChain` names a state as `requestDetails` does; `chain` answers with
 * the chain's states placed on the rows of every Y map.
 */
import type { DrawableRef } from '../core/query/details';

/** One state of a dependence chain, placed on the rows of every Y map (−1: no row there). */
export interface ChainNodeInfo {
  readonly rows: readonly number[];
  readonly category: number;
  readonly start: number;
  readonly end: number;
  /** Index of the node it was reached from (−1: the selected state). */
  readonly parent: number;
  readonly depth: number;
  readonly via: 'selected' | 'message' | 'collective' | 'program-order';
  /** The link to the parent: the cause's time and the effect's time (drawn as an arrow). */
  readonly causeTime?: number;
  readonly effectTime?: number;
  /** The line of the chain's list ("rank 2 · MPI_Send 5 s – 5.01 s — …"). */
  readonly text: string;
}

export interface ChainInfo {
  readonly direction: 'backward' | 'forward';
  readonly maxDepth: number;
  readonly nodes: readonly ChainNodeInfo[];
  readonly truncated: boolean;
  /** How complete the analysis behind it is (e.g. its wait list was capped). */
  readonly note?: string;
}

/** Answer to `requestChain` (chain undefined: none, `message` says why). */
export interface ChainMessage {
  readonly kind: 'chain';
  readonly chainId: number;
  readonly chain?: ChainInfo;
  readonly message?: string;
}

/** The dependence chain of a state: what it waited for (backward) or what it delayed (forward). */
export interface RequestChainMessage {
  readonly kind: 'requestChain';
  readonly chainId: number;
  readonly generation: number;
  readonly ref: DrawableRef;
  readonly direction: 'backward' | 'forward';
}
