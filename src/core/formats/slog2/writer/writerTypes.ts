/** What the one-pass SLOG-2 writer (slog2Writer.ts) is given and gives back. */
import type { Category, LineIDMap, Topology } from '../../../model/types';
import type { ShadowSpill } from './shadowSpill';

export interface Slog2WriterOptions {
  /** Fan-out of the tree (header num_children_per_node), ≥ 2. Default 2. */
  readonly childrenPerNode?: number;
  /** Target leaf byte size (header treeleaf_bytesize). Default 65536. */
  readonly leafBytes?: number;
  /**
   * Topology of a category index, needed to encode a drawable passed to add() (list and shadow
   * placement). Batches passed to addBatch() carry their topologies.
   */
  readonly topologyOf?: (category: number) => Topology | undefined;
  /**
   * Hears each node as it is encoded (post-order; each depth in xpos order), with its bytes and
   * source-location record: the converter's row index is built from these (no second pass). The
   * bytes are valid only during the call.
   */
  readonly onNode?: (node: WrittenNode) => void;
  /**
   * Where big finished shadow buffers wait for their parent node, out of memory (shadowSpill.ts):
   * a wide trace's. Without it they wait in memory.
   */
  readonly shadowSpill?: ShadowSpill;
  /** How the writer bounds its memory on wide traces (defaults in slog2Writer.ts and shadowSpill.ts; tests set them tiny). */
  readonly memory?: {
    /** Shadow buffers of at least this many bytes wait for their parent in `shadowSpill`, and the next at their depth starts small. */
    readonly spillMinBytes?: number;
    /** addBatchFrom() pauses closing nodes once this many bytes of blocks wait for the sink. */
    readonly pauseBytes?: number;
    /** Blocks bigger than this are encoded in parts of at most this many bytes (without onNode). */
    readonly partBytes?: number;
    /** Blocks queued past this many bytes go to a sink with writeSync at once (outputBlocks.ts). */
    readonly writeNowBytes?: number;
  };
}

/** A tree node just encoded, as the writer hands it to `onNode`. */
export interface WrittenNode {
  readonly depth: number;
  readonly xpos: number;
  readonly fptr: number;
  readonly size: number;
  readonly bytes: Uint8Array;
  /** The node's source-location record (SLOG2.md §16) and the sites the table has so far. */
  readonly record: { readonly bytes: Uint8Array; readonly offset: number; readonly sites: number } | undefined;
}

export interface Slog2Trailer {
  /** Every category the drawables may use; only the used ones are stored (§4.3). */
  readonly categories: Iterable<Category>;
  /** The trace's Y-axis maps; the Identity Map is appended unless one is present (§5). */
  readonly lineIDMaps: readonly LineIDMap[];
  /** Source-location facts of the input (records seen, distinct sites among them), for the srcloc table. */
  readonly sourceLocations?: { readonly records: number; readonly sites: number };
}

export interface Slog2WriteSummary {
  readonly bytes: number;
  readonly nodes: number;
  readonly maxTreeDepth: number;
  readonly maxBufferBytes: number;
  readonly drawables: number;
  readonly timeRange: readonly [number, number];
  /** Y-map rows the writer had to add because a used lineID was missing from a given map. */
  readonly addedMapRows: number;
  readonly locatedDrawables: number;
}
