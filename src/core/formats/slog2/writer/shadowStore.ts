/**
 * Where a node buffer's shadows are kept (shadows.ts says what they mean): rows of typed columns
 * (shadowColumns.ts) found by key, or, while a finished buffer of a wide trace waits for its
 * parent, in the spill (shadowSpill.ts) until the parent reads them back.
 */
import { ShadowColumns, releaseShadowColumns, takeShadowColumns } from './shadowColumns';
import { LINE_INDEX_LIMIT } from './shadowKey';
import { restoreColumns, spillable, spillColumns, type ShadowSpill, type SpilledColumns } from './shadowSpill';

/** Bytes of a row's columns other than its weights, as spilled (shadowSpill.ts). */
const ROW_BYTES = 6 * 8 + 6 * 4 + 2;

/** Line indexes (key → row + 1, 0 = none) of released buffers, emptied. */
const byLinePool: Int32Array[] = [];
const BY_LINE_POOL = 16;

/** Whether `key` indexes the line array: a number below LINE_INDEX_LIMIT (other keys go to the map). */
function isLineKey(key: number | string): key is number {
  return typeof key === 'number' && key < LINE_INDEX_LIMIT;
}
// Numeric keys of two different lines are above the small-integer range (heap numbers). Met first
// by optimised code whose compare had only seen small integers, one threw find(), add() and place()
// away ("not a Smi") and V8 compiled them again; compared here with both kinds once the function
// has its feedback, the compare is compiled for numbers from the start.
for (let i = 0; i < 64; i++) isLineKey(i & 1 ? 2 ** 40 : i);

/** Shadows of single-line keys (states, events: the bulk) are found by array index, the others by key. */
export class ShadowStore {
  /**
   * The shadows, rows in creation order; undefined before the first row (a wide trace's high
   * nodes go without own shadows most of the time: taken then, their columns were up to 10 MB
   * each of nothing), while they are only in the spill, and once released.
   */
  private columns: ShadowColumns | undefined;
  private released = false;
  /** Index: (lineID·4 + topology) → row + 1, for keys of one vertex or two on the same line (dropped when spilled). */
  private byLine: Int32Array = byLinePool.pop() ?? new Int32Array(LINE_INDEX_LIMIT);
  private readonly byKey = new Map<number | string, number>();
  /** Where the finished rows were spilled, and the bytes they take written (§7.4). */
  private spilled: { readonly store: ShadowSpill; readonly columns: SpilledColumns; readonly byteSize: number } | undefined;

  /** `expectRows` and `expectArena` size its storage when the first row comes (what the last buffer at its depth held; 0: unknown). */
  constructor(
    private readonly expectRows = 0,
    private readonly expectArena = 0,
  ) {}

  /** The shadows, rows in creation order (in memory: see `restore`); their columns are taken at the first call. */
  get rows(): ShadowColumns {
    const c = this.columns;
    if (c !== undefined) return c;
    if (this.spilled !== undefined) throw new Error('internal error: shadows read while spilled');
    if (this.released) throw new Error('internal error: shadows read after release');
    return (this.columns = takeShadowColumns(this.expectRows, this.expectArena));
  }

  /** Number of shadows. */
  get count(): number {
    return this.columns?.count ?? this.spilled?.columns.rows ?? 0;
  }

  /** Words of the weights' arena in use. */
  get arenaWords(): number {
    return this.columns?.arenaUsed ?? this.spilled?.columns.arenaWords ?? 0;
  }

  /** Bytes the rows take in memory (about: the columns' used part and the arena in use). */
  get memoryBytes(): number {
    const c = this.columns;
    return c === undefined ? 0 : c.count * ROW_BYTES + 4 * c.arenaUsed;
  }

  /** Whether the rows are in memory (else only in the spill). */
  get inMemory(): boolean {
    return this.spilled === undefined || this.columns !== undefined;
  }

  /** The §7.4 bytes of spilled rows (what byteSize() was when they were spilled), else undefined. */
  protected get spilledByteSize(): number | undefined {
    return this.spilled?.byteSize;
  }

  /**
   * Room for about `rows` rows and `arenaWords` words of weights before children are merged in:
   * one move to a (pooled) set that holds them instead of a doubling of every column per step.
   */
  reserve(rows: number, arenaWords: number): void {
    if (this.columns === undefined && this.spilled === undefined && !this.released) {
      const fresh = (this.columns = takeShadowColumns(rows, arenaWords));
      fresh.ensure(rows, arenaWords);
      return;
    }
    const c = this.rows;
    if (c.topology.length >= rows && c.arena.length >= arenaWords) return;
    const next = takeShadowColumns(rows, arenaWords);
    next.ensure(rows, arenaWords);
    next.takeRowsOf(c);
    c.stringKeys = undefined;
    c.wide = undefined;
    releaseShadowColumns(c);
    this.columns = next;
  }

  /** Finished rows (written as `byteSize` bytes) to `store`, their columns back to the pool; false if there are none or they cannot go. */
  protected spillRows(store: ShadowSpill, byteSize: number): boolean {
    const c = this.columns;
    if (c === undefined || c.count === 0 || this.spilled !== undefined || !spillable(c)) return false;
    this.spilled = { store, columns: spillColumns(store, c), byteSize };
    this.releaseIndex();
    releaseShadowColumns(c);
    this.columns = undefined;
    return true;
  }

  /** Reads spilled rows back into pooled columns (they stay in the spill until release()). */
  restore(): void {
    const s = this.spilled;
    if (this.columns !== undefined || s === undefined) return;
    const c = takeShadowColumns(s.columns.rows, s.columns.arenaWords);
    restoreColumns(s.store, s.columns, c);
    this.columns = c;
  }

  /** Calls `f` with the rows in memory, and lets them go again after if they were only spilled (snapshots). */
  withRows<T>(f: () => T): T {
    if (this.columns !== undefined) return f();
    this.restore();
    try {
      return f();
    } finally {
      releaseShadowColumns(this.columns!);
      this.columns = undefined;
    }
  }

  /** This buffer is merged into its parent and dropped: its columns, line index and spilled bytes are given back. */
  release(): void {
    this.released = true;
    if (this.columns !== undefined) {
      this.releaseIndex();
      releaseShadowColumns(this.columns);
      this.columns = undefined;
    }
    if (this.spilled !== undefined) this.spilled.store.free(this.spilled.columns.position);
    this.spilled = undefined;
  }

  /** The row of `key`, or −1. */
  protected find(key: number | string): number {
    if (isLineKey(key)) return this.byLine[key]! - 1;
    return this.byKey.get(key) ?? -1;
  }

  /** Row r's key (a string key in the map beside the column); index() makes it found. */
  protected setKey(r: number, key: number | string): void {
    const t = this.rows;
    if (typeof key === 'number') t.key[r] = key;
    else {
      t.key[r] = NaN;
      (t.stringKeys ??= new Map()).set(r, key);
    }
  }

  protected index(key: number | string, r: number): void {
    if (isLineKey(key)) this.byLine[key] = r + 1;
    else this.byKey.set(key, r);
  }

  /** The key of row r. */
  keyOf(r: number): number | string {
    const k = this.rows.key[r]!;
    return k === k ? k : this.rows.stringKeys!.get(r)!;
  }

  /** The line index, emptied, back to its pool (a spilled or released buffer finds no keys). */
  private releaseIndex(): void {
    const index = this.byLine;
    if (index.length !== LINE_INDEX_LIMIT) return;
    const t = this.rows;
    for (let r = 0; r < t.count; r++) {
      const k = t.key[r]!;
      if (k < LINE_INDEX_LIMIT) index[k] = 0;
    }
    if (byLinePool.length < BY_LINE_POOL) byLinePool.push(index);
    this.byLine = new Int32Array(0);
  }
}
