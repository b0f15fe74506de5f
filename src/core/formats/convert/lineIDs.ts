/**
 * Timelines (CLOG2.md §11.5): lineID = icomm·W·T + rank·T + thread (i32 arithmetic). COMMEVT records
 * register lineID → (world rank, thread, commID, comm rank) for every thread; at the end, the lines
 * used by drawables become the Process / Communicator (-Thread) views plus the identity map the
 * SLOG-2 writer appends.
 */
import type { LineIDMap, LineIDMapRow } from '../../model/types';

interface LineInfo {
  readonly worldRank: number;
  readonly thread: number;
  readonly commID: number;
  readonly commRank: number;
}

const USED_BITS = 1 << 16;
/** lineIDs below this find their world rank in an array (worldRankOf runs per SRCLOC record and per located event). */
const DENSE_LINES = 1 << 16;
/** Most (lineID → line) entries COMMEVTs may register. */
const MAX_KNOWN_LINES = 1 << 20;

export class LineTable {
  private readonly known = new Map<number, LineInfo>();
  private readonly used = new Set<number>();
  /** Fast "already used" flags for small lineIDs. */
  private readonly usedBits = new Uint8Array(USED_BITS);
  /** Fallback rows for lines no COMMEVT described when first used. */
  private readonly fallback = new Map<number, LineInfo>();
  /** `known`'s world ranks of lineIDs below DENSE_LINES (valid where denseKnown is 1), made at the first COMMEVT. */
  private denseRanks: Int32Array | undefined;
  private denseKnown: Uint8Array | undefined;
  readonly warnings: string[] = [];
  private warnedRange = false;
  private warnedKnownCap = false;

  constructor(
    /** max_comm_world_size. */
    readonly worldSize: number,
    /** max_thread_count (≥ 1). */
    readonly threads: number,
  ) {}

  lineID(icomm: number, rank: number, thread: number): number {
    return (Math.imul(Math.imul(icomm, this.worldSize), this.threads) + Math.imul(rank, this.threads) + thread) | 0;
  }

  /**
   * A COMMEVT body: registers the lines of (LID, comm rank) for every thread (later wins). The
   * table is capped: a 1 MB file of COMMEVTs with max_thread_count 4096 asked for 60 M entries and
   * killed the process (fuzzer finding). Real runs stay far below (16 k ranks × 16 comms × 4 threads).
   */
  register(lid: number, commRank: number, worldRank: number): void {
    if (this.known.size + this.threads > MAX_KNOWN_LINES && !this.known.has(this.lineID(lid, commRank, 0))) {
      if (!this.warnedKnownCap)
        this.warn(`more than ${MAX_KNOWN_LINES} communicator lines: COMMEVT (comm ${lid}, rank ${commRank}) and later new ones are ignored`);
      this.warnedKnownCap = true;
      return;
    }
    for (let t = 0; t < this.threads; t++) {
      const id = this.lineID(lid, commRank, t);
      this.known.set(id, { worldRank, thread: t, commID: lid, commRank });
      if (id >= 0 && id < DENSE_LINES) {
        (this.denseRanks ??= new Int32Array(DENSE_LINES))[id] = worldRank;
        (this.denseKnown ??= new Uint8Array(DENSE_LINES))[id] = 1;
      }
    }
  }

  /** Marks a line as used by a drawable vertex. */
  use(lineID: number): void {
    if (lineID >= 0 && lineID < USED_BITS) {
      if (this.usedBits[lineID] === 1) return;
      this.usedBits[lineID] = 1;
    } else if (this.used.has(lineID)) return;
    this.used.add(lineID);
    // Invert the lineID formula (only needed for the warnings and fallback rows below).
    const perComm = this.worldSize * this.threads;
    const icomm = Math.floor(lineID / perComm);
    const rank = Math.floor((lineID - icomm * perComm) / this.threads);
    const thread = lineID - icomm * perComm - rank * this.threads;
    if (!this.known.has(lineID)) {
      if (icomm !== 0) this.warn(`lineID ${lineID} (icomm ${icomm}, rank ${rank}) has no COMMEVT; shown as an unknown row`);
      this.fallback.set(lineID, { worldRank: icomm === 0 ? rank : -1, thread, commID: icomm, commRank: rank });
    }
  }

  /** Warns once about records whose (rank, thread) make lineIDs collide (reference flaw). */
  checkRange(icomm: number, rank: number, thread: number): void {
    if (thread < this.threads && rank < this.worldSize && thread >= 0 && rank >= 0) return;
    if (this.warnedRange) return;
    this.warnedRange = true;
    this.warn(
      `record on (icomm ${icomm}, rank ${rank}, thread ${thread}) is outside W=${this.worldSize}, T=${this.threads}: its lineID may collide with another process`,
    );
  }

  /** World rank of a record's process, through the COMMEVT table (fallback: rank on world). */
  worldRankOf(icomm: number, rank: number, thread: number): number {
    const id = this.lineID(icomm, rank, thread);
    const known = this.denseKnown;
    if (id >= 0 && id < DENSE_LINES && known !== undefined) return known[id] === 1 ? this.denseRanks![id]! : icomm === 0 ? rank : -1;
    const info = this.known.get(id);
    if (info !== undefined) return info.worldRank;
    return icomm === 0 ? rank : -1;
  }

  usedLineIDs(): number[] {
    return [...this.used].sort((a, b) => a - b);
  }

  /** The Y-axis maps of the used lines, default view first, identity map last. */
  maps(): LineIDMap[] {
    const ids = this.usedLineIDs();
    const info = (id: number): LineInfo => this.known.get(id) ?? this.fallback.get(id)!;
    const threaded = this.threads > 1;
    const rows = (f: (i: LineInfo) => number[]): LineIDMapRow[] => ids.map((lineID) => ({ lineID, path: f(info(lineID)) }));
    return [
      threaded
        ? { title: 'Process-Thread View', columns: ['world_rank', 'thread'], rows: rows((i) => [i.worldRank, i.thread]), methods: [] }
        : { title: 'Process View', columns: ['world_rank'], rows: rows((i) => [i.worldRank]), methods: [] },
      threaded
        ? { title: 'Communicator-Thread View', columns: ['commID', 'comm_rank', 'thread'], rows: rows((i) => [i.commID, i.commRank, i.thread]), methods: [] }
        : { title: 'Communicator View', columns: ['commID', 'comm_rank'], rows: rows((i) => [i.commID, i.commRank]), methods: [] },
      identityMap(ids),
    ];
  }

  private warn(text: string): void {
    if (this.warnings.length < 100) this.warnings.push(text);
  }
}

/** The map the SLOG-2 writer always appends: lineID → lineID. */
export function identityMap(lineIDs: readonly number[]): LineIDMap {
  return { title: 'Identity Map', columns: ['LineID'], rows: lineIDs.map((lineID) => ({ lineID, path: [lineID] })), methods: [] };
}
