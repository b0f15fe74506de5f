/**
 * A node record (table.ts) decoded into site numbers by list position, without an object per
 * entry: for whole-file passes that need the numbers, not the locations (the row-index builder).
 * The same checks as decodeNodeRecord, so a record one rejects the other rejects too.
 */
import { BinaryReader } from '../../bytes/binaryReader';
import { ENTRY_BYTES, hasNodeRecordMagic, NESTABLE_LIST, NESTLESS_LIST } from './table';

/** Site numbers of one list's positions; `located[i]` = 0 where position i has no entry. */
export interface ListSites {
  readonly located: Uint8Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
}

export interface NodeSites {
  readonly nestless: ListSites;
  readonly nestable: ListSites;
}

function listSites(n: number): ListSites {
  return { located: new Uint8Array(n), start: new Int32Array(n), end: new Int32Array(n) };
}

/**
 * Columns reused by every decode that passes it: for callers done with a node's sites before the
 * next decode (the column stream: 9 bytes per drawable of short-lived buffers otherwise, ~60 MB of
 * garbage between two collections in a 1 GB pass).
 */
export class NodeSitesScratch {
  private readonly lists = [listSites(0), listSites(0)];

  /** List `which`'s columns for `n` positions, none located; valid until the next call for `which`. */
  take(which: 0 | 1, n: number): ListSites {
    let l = this.lists[which]!;
    if (l.located.length < n) this.lists[which] = l = listSites(Math.max(n, 2 * l.located.length));
    l.located.fill(0, 0, n);
    return { located: l.located.subarray(0, n), start: l.start.subarray(0, n), end: l.end.subarray(0, n) };
  }
}

/**
 * Entries at positions from `nestlessCap` / `nestableCap` on are checked but not kept (no drawable
 * sits there: callers pass the list lengths, or a bound on them); a later entry for the same
 * position wins, as with decodeNodeRecord's maps. The columns are as long as the last kept entry.
 */
export function decodeNodeSites(
  bytes: Uint8Array,
  base: number,
  file: string,
  nsites: number,
  nestlessCap: number,
  nestableCap: number,
  scratch?: NodeSitesScratch,
): NodeSites {
  const r = new BinaryReader(bytes, base, file);
  if (!hasNodeRecordMagic(bytes)) throw r.error('expected the source-location node record magic "MPESRCLN"');
  r.skip(8, 'magic');
  r.skip(4, 'record size');
  const count = r.checkCount(r.i32('entry count'), ENTRY_BYTES, 'entry');
  const first = r.pos;
  // Pass 1: check every entry, find the lists' lengths; pass 2: fill.
  let nestless = 0;
  let nestable = 0;
  for (let e = 0; e < count; e++) {
    const list = r.u8('list');
    if (list !== NESTLESS_LIST && list !== NESTABLE_LIST) throw r.error(`unknown list ${list} (expected 0 nestless or 1 nestable)`, r.pos - 1);
    const index = r.i32('drawable index');
    if (index < 0) throw r.error(`negative drawable index ${index}`, r.pos - 4);
    for (let k = 0; k < 2; k++) {
      const s = r.i32('site index');
      if (s < -1 || s >= nsites) throw r.error(`site index ${s} is outside [-1, ${nsites})`, r.pos - 4);
    }
    if (list === NESTLESS_LIST) {
      if (index < nestlessCap) nestless = Math.max(nestless, index + 1);
    } else if (index < nestableCap) nestable = Math.max(nestable, index + 1);
  }
  if (r.remaining !== 0) throw r.error(`${r.remaining} unexpected bytes after the source-location node record`);
  const out =
    scratch === undefined
      ? { nestless: listSites(nestless), nestable: listSites(nestable) }
      : { nestless: scratch.take(0, nestless), nestable: scratch.take(1, nestable) };
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = first; at < bytes.length; at += ENTRY_BYTES) {
    const sites = bytes[at] === NESTLESS_LIST ? out.nestless : out.nestable;
    const index = dv.getInt32(at + 1);
    if (index >= sites.located.length) continue;
    sites.located[index] = 1;
    sites.start[index] = dv.getInt32(at + 5);
    sites.end[index] = dv.getInt32(at + 9);
  }
  return out;
}
