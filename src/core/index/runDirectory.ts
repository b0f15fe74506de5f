/**
 * The chunk and run tables of a row index's directory (layout: format.ts): every entry is checked
 * at open (a damaged directory is refused before any read) and kept in typed columns; a chunk
 * finds a run by binary search over its keys. At 16 384 ranks the directory lists 125 000 runs:
 * an object and a map entry per run made half the open (100 ms).
 */
import type { BinaryReader } from '../bytes/binaryReader';
import { FormatError } from '../bytes/formatError';
import { KIND_REAL, KIND_SHADOW, RUN_ENTRY_BYTES, runKey, TABLE_ENTRY_BYTES } from './format';

/** What the directory needs of the header. */
export interface DirectoryShape {
  readonly chunks: number;
  readonly runs: number;
  readonly nodes: number;
  readonly levels: number;
  readonly headerBytes: number;
  readonly dirOffset: number;
}

export class Chunk {
  constructor(
    readonly first: number,
    readonly count: number,
    private readonly firstRun: number,
    private readonly runCount: number,
    private readonly table: RunTable,
  ) {}

  /** [tablePos, dataPos] of this chunk's run `key` (its runs are in increasing key order, checked at open). */
  run(key: number): readonly [number, number] | undefined {
    const keys = this.table.key;
    let lo = this.firstRun;
    let hi = this.firstRun + this.runCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.firstRun + this.runCount && keys[lo] === key ? [this.table.tablePos[lo]!, this.table.dataPos[lo]!] : undefined;
  }
}

interface RunTable {
  readonly key: Float64Array;
  readonly tablePos: Float64Array;
  readonly dataPos: Float64Array;
}

/** Reads and checks the chunk entries then the run entries at `r` (positioned after the node entries). */
export function readChunks(r: BinaryReader, h: DirectoryShape, file: string): Chunk[] {
  const heads: { first: number; count: number; firstRun: number; runCount: number }[] = [];
  let next = 0;
  for (let c = 0; c < h.chunks; c++) {
    const at = r.pos;
    const ch = { first: r.u32(), count: r.u32(), firstRun: r.u32(), runCount: r.u32() };
    if (ch.first !== next || ch.first + ch.count > h.nodes || ch.firstRun + ch.runCount > h.runs)
      throw r.error(`chunk ${c} (nodes ${ch.first}+${ch.count}, runs ${ch.firstRun}+${ch.runCount}) is out of order or out of range`, at);
    next = ch.first + ch.count;
    heads.push(ch);
  }
  if (next !== h.nodes) throw r.error(`the chunks cover ${next} of ${h.nodes} nodes`);
  const table: RunTable = { key: new Float64Array(h.runs), tablePos: new Float64Array(h.runs), dataPos: new Float64Array(h.runs) };
  const start = r.pos;
  r.skip(h.runs * RUN_ENTRY_BYTES, 'run entries');
  const view = new DataView(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
  for (let i = 0, at = start; i < h.runs; i++, at += RUN_ENTRY_BYTES) {
    const kind = view.getUint8(at);
    const level = view.getUint8(at + 1);
    const block = view.getUint32(at + 2);
    const tablePos = view.getFloat64(at + 6);
    const dataPos = view.getFloat64(at + 14);
    if (
      (kind !== KIND_REAL && kind !== KIND_SHADOW) ||
      level >= h.levels ||
      !Number.isSafeInteger(tablePos) ||
      !Number.isSafeInteger(dataPos) ||
      tablePos < h.headerBytes ||
      dataPos < tablePos ||
      dataPos > h.dirOffset
    ) {
      throw r.error(`run ${i} (kind ${kind}, level ${level}, block ${block}, table ${tablePos}, data ${dataPos}) is invalid`, at);
    }
    table.key[i] = runKey(kind, level, block);
    table.tablePos[i] = tablePos;
    table.dataPos[i] = dataPos;
  }
  return heads.map((c) => {
    for (let i = c.firstRun; i < c.firstRun + c.runCount; i++) {
      if (table.dataPos[i]! - table.tablePos[i]! !== c.count * TABLE_ENTRY_BYTES)
        throw new FormatError(file, h.dirOffset, `run ${i}'s table does not hold ${c.count} nodes`);
      // Lookups search the keys: a chunk whose runs are not in increasing key order would lose some.
      if (i > c.firstRun && table.key[i]! <= table.key[i - 1]!) throw new FormatError(file, h.dirOffset, `run ${i} is out of key order in its chunk`);
    }
    return new Chunk(c.first, c.count, c.firstRun, c.runCount, table);
  });
}
