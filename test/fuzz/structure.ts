/**
 * Structure maps of the seed inputs: where the integer / float fields that drive the readers live
 * (SLOG-2 header FBinfos, TreeDir entries, category and node counts; CLOG2 preamble tokens and
 * record fields; old-CLOG record headers). Computed once per seed from the undamaged bytes, so the
 * structure-aware mutators can put absurd values exactly into the fields the readers trust.
 */

export type FieldKind = 'i16' | 'i32' | 'i64' | 'f64';

export interface Field {
  readonly offset: number;
  readonly kind: FieldKind;
  /** What the field is (for case descriptions). */
  readonly what: string;
}

export interface SeedStructure {
  readonly fields: readonly Field[];
  /** Block boundaries (CLOG2 / CLOG): offsets where a block starts. */
  readonly blockStarts: readonly number[];
  readonly blockSize: number;
  /** CLOG2: offset just after the ENDLOG record (the end of the drawable data), or undefined. */
  readonly endLogEnd: number | undefined;
  /** CLOG2: byte range of each preamble token [start, end). */
  readonly tokens: readonly (readonly [number, number])[];
}

export const NO_STRUCTURE: SeedStructure = { fields: [], blockStarts: [], blockSize: 0, endLogEnd: undefined, tokens: [] };

/** Fields per record kind are capped so a big seed does not make a huge map. */
const MAX_FIELDS = 20000;

export function slog2Structure(b: Uint8Array): SeedStructure {
  if (b.length < 108) return NO_STRUCTURE;
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const fields: Field[] = [
    { offset: 12, kind: 'i16', what: 'num_children_per_node' },
    { offset: 14, kind: 'i32', what: 'treeleaf_bytesize' },
    { offset: 18, kind: 'i16', what: 'max_treedepth' },
    { offset: 20, kind: 'i32', what: 'max_buffer_bytesize' },
  ];
  const names = ['categories', 'methoddefs', 'lineIDmaps', 'treeroot', 'treedir', 'annotations', 'postamble'];
  const blocks: { fptr: number; size: number; name: string }[] = [];
  names.forEach((name, i) => {
    const at = 24 + 12 * i;
    fields.push({ offset: at, kind: 'i64', what: `${name} fptr` }, { offset: at + 8, kind: 'i32', what: `${name} size` });
    const fptr = Number(dv.getBigInt64(at));
    const size = dv.getInt32(at + 8);
    if (fptr >= 108 && size > 0 && fptr + size <= b.length) blocks.push({ fptr, size, name });
  });
  for (const blk of blocks) {
    if (blk.name === 'categories' || blk.name === 'lineIDmaps') fields.push({ offset: blk.fptr, kind: 'i32', what: `${blk.name} count` });
    if (blk.name !== 'treedir') continue;
    fields.push({ offset: blk.fptr, kind: 'i32', what: 'treedir count' });
    const n = dv.getInt32(blk.fptr);
    for (let i = 0; i < n && 4 + 34 * (i + 1) <= blk.size && fields.length < MAX_FIELDS; i++) {
      const e = blk.fptr + 4 + 34 * i;
      fields.push(
        { offset: e, kind: 'i16', what: `treedir[${i}] depth` },
        { offset: e + 2, kind: 'i32', what: `treedir[${i}] xpos` },
        { offset: e + 6, kind: 'f64', what: `treedir[${i}] earliest` },
        { offset: e + 14, kind: 'f64', what: `treedir[${i}] latest` },
        { offset: e + 22, kind: 'i64', what: `treedir[${i}] fptr` },
        { offset: e + 30, kind: 'i32', what: `treedir[${i}] size` },
      );
      const fptr = Number(dv.getBigInt64(e + 22));
      const size = dv.getInt32(e + 30);
      if (fptr >= 108 && size >= 42 && fptr + size <= b.length) {
        fields.push(
          { offset: fptr, kind: 'f64', what: `node[${i}] earliest` },
          { offset: fptr + 16, kind: 'i16', what: `node[${i}] depth` },
          { offset: fptr + 26, kind: 'i32', what: `node[${i}] size` },
        );
        walkNode(dv, fptr, fptr + size, `node[${i}]`, fields, /2\.0\.6/.test(String.fromCharCode(...b.subarray(2, 12))));
      }
    }
  }
  return { ...NO_STRUCTURE, fields };
}

/** CLOG2 record sizes by rectype (CLOG2.md §6). */
const CLOG2_REC_SIZE = [24, 24, 136, 128, 64, 32, 64, 48, 40, 72, 72, 32];

export function clog2Structure(b: Uint8Array): SeedStructure {
  if (b.length < 1024) return NO_STRUCTURE;
  const tokens: [number, number][] = [];
  let start = 0;
  for (let i = 0; i <= 1024; i++) {
    if (i === 1024 || b[i] === 0) {
      if (i > start) tokens.push([start, i]);
      start = i + 1;
    }
  }
  const text = (t: readonly [number, number] | undefined): string => (t ? String.fromCharCode(...b.subarray(t[0], t[1])).trim() : '');
  const le = !/^(true|yes)$/i.test(text(tokens[2]));
  const blockSize = Number(text(tokens[6]));
  const fields: Field[] = [];
  const blockStarts: number[] = [];
  let endLogEnd: number | undefined;
  if (!Number.isInteger(blockSize) || blockSize < 24) return { ...NO_STRUCTURE, tokens };
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  outer: for (let block = 1024; block < b.length; block += blockSize) {
    blockStarts.push(block);
    for (let pos = block; pos + 24 <= Math.min(b.length, block + blockSize);) {
      const rectype = dv.getInt32(pos + 20, le);
      const size = CLOG2_REC_SIZE[rectype];
      if (size === undefined) break;
      if (fields.length < MAX_FIELDS) {
        fields.push({ offset: pos, kind: 'f64', what: `record@${pos} time` }, { offset: pos + 20, kind: 'i32', what: `record@${pos} rectype` });
        if (rectype >= 2) {
          fields.push(
            { offset: pos + 8, kind: 'i32', what: `record@${pos} icomm` },
            { offset: pos + 12, kind: 'i32', what: `record@${pos} rank` },
            { offset: pos + 16, kind: 'i32', what: `record@${pos} thread` },
            { offset: pos + 24, kind: 'i32', what: `record@${pos} etype/first body int` },
          );
        }
        if (rectype === 2)
          fields.push(
            { offset: pos + 28, kind: 'i32', what: `STATEDEF@${pos} start etype` },
            { offset: pos + 32, kind: 'i32', what: `STATEDEF@${pos} final etype` },
          );
        if (rectype === 7) {
          for (let k = 1; k <= 4; k++) fields.push({ offset: pos + 24 + 4 * k, kind: 'i32', what: `MSGEVT@${pos} field ${k}` });
        }
        if (rectype === 9) {
          for (let k = 1; k <= 3; k++) fields.push({ offset: pos + 24 + 4 * k, kind: 'i32', what: `COMMEVT@${pos} field ${k}` });
        }
        if (rectype === 11) fields.push({ offset: pos + 24, kind: 'f64', what: `TIMESHIFT@${pos} shift` });
      }
      if (rectype === 0) {
        endLogEnd = pos + 24;
        break outer;
      }
      if (rectype === 1) break;
      pos += size;
    }
  }
  if (endLogEnd !== undefined) {
    // The communicator table count right after the last block, when the preamble names it.
    const g = Number(text(tokens[30]));
    const u = Number(text(tokens[31]));
    const r = Number(text(tokens[32]));
    const table = g * u + r;
    if (Number.isSafeInteger(table) && table + 4 <= b.length && table >= 1024) fields.push({ offset: table, kind: 'i32', what: 'commtable count' });
  }
  return { fields, blockStarts, blockSize, endLogEnd, tokens };
}

/** Old CLOG record lengths in 8-byte units by rectype (CLOG.md). */
const CLOG_LENGTH = new Map<number, number>([
  [-2, 3],
  [-1, 3],
  [1, 7],
  [2, 6],
  [3, 6],
  [4, 5],
  [5, 6],
  [6, 10],
  [7, 9],
  [8, 4],
]);

export function clogStructure(b: Uint8Array): SeedStructure {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const fields: Field[] = [];
  const blockStarts: number[] = [];
  for (let block = 0; block < b.length; block += 65536) {
    blockStarts.push(block);
    for (let pos = block; pos + 24 <= Math.min(b.length, block + 65536) && fields.length < MAX_FIELDS;) {
      const rectype = dv.getInt32(pos + 8);
      const length = CLOG_LENGTH.get(rectype);
      if (length === undefined) break;
      fields.push(
        { offset: pos, kind: 'f64', what: `record@${pos} time` },
        { offset: pos + 8, kind: 'i32', what: `record@${pos} rectype` },
        { offset: pos + 12, kind: 'i32', what: `record@${pos} length` },
        { offset: pos + 16, kind: 'i32', what: `record@${pos} procid` },
      );
      if (rectype === 1 || rectype === 6 || rectype === 7)
        fields.push(
          { offset: pos + 24, kind: 'i32', what: `record@${pos} first body int` },
          { offset: pos + 28, kind: 'i32', what: `record@${pos} second body int` },
        );
      if (rectype === -1 || rectype === -2) break;
      pos += length * 8;
    }
  }
  return { ...NO_STRUCTURE, fields, blockStarts, blockSize: 65536 };
}

/**
 * Every count, category, length, time and lineID field inside a tree node (SLOG2.md §7): drawables
 * of both lists, then each child's shadow buffer. Stops quietly at anything that does not parse.
 */
function walkNode(dv: DataView, start: number, end: number, name: string, fields: Field[], v206: boolean): void {
  let p = start + 34;
  const need = (n: number): boolean => p + n <= end && fields.length < MAX_FIELDS;
  const primitiveBody = (what: string): boolean => {
    if (!need(6)) return false;
    fields.push({ offset: p, kind: 'i32', what: `${what} category` }, { offset: p + 4, kind: 'i16', what: `${what} info length` });
    const info = dv.getInt16(p + 4);
    p += 6 + Math.max(0, info);
    if (!need(2)) return false;
    fields.push({ offset: p, kind: 'i16', what: `${what} vertex count` });
    const n = dv.getInt16(p);
    p += 2;
    for (let v = 0; v < n; v++) {
      if (!need(12)) return false;
      fields.push({ offset: p, kind: 'f64', what: `${what} vertex ${v} time` }, { offset: p + 8, kind: 'i32', what: `${what} vertex ${v} lineID` });
      p += 12;
    }
    return true;
  };
  for (const list of ['nestless', 'nestable']) {
    if (!need(4)) return;
    fields.push({ offset: p, kind: 'i32', what: `${name} ${list} count` });
    const n = dv.getInt32(p);
    p += 4;
    for (let k = 0; k < n; k++) {
      if (!need(1)) return;
      const kind = dv.getUint8(p++);
      const what = `${name} ${list}[${k}]`;
      if (kind === 0) {
        if (!primitiveBody(what)) return;
      } else if (kind === 1) {
        if (!need(8)) return;
        fields.push({ offset: p, kind: 'i32', what: `${what} composite category` });
        const info = dv.getInt16(p + 4);
        p += 6 + Math.max(0, info);
        if (!need(2)) return;
        fields.push({ offset: p, kind: 'i16', what: `${what} member count` });
        const m = dv.getInt16(p);
        p += 2;
        for (let j = 0; j < m; j++) if (!primitiveBody(`${what} member ${j}`)) return;
      } else return;
    }
  }
  if (!need(4)) return;
  fields.push({ offset: p, kind: 'i32', what: `${name} shadow buffer count` });
  const nbufs = dv.getInt32(p);
  p += 4;
  for (let k = 0; k < nbufs; k++) {
    if (!need(34)) return;
    fields.push({ offset: p + 16, kind: 'i16', what: `${name} child ${k} depth` }, { offset: p + 22, kind: 'i64', what: `${name} child ${k} fptr` });
    p += 34;
    for (const list of ['nestless', 'nestable']) {
      if (!need(4)) return;
      fields.push({ offset: p, kind: 'i32', what: `${name} child ${k} ${list} shadow count` });
      const n = dv.getInt32(p);
      p += 4;
      for (let j = 0; j < n; j++) {
        const what = `${name} child ${k} shadow ${j}`;
        if (!primitiveBody(what) || !need(28)) return;
        fields.push(
          { offset: p, kind: 'f64', what: `${what} earliest` },
          { offset: p + 8, kind: 'f64', what: `${what} latest` },
          { offset: p + 16, kind: 'i64', what: `${what} num_real_objs` },
          { offset: p + 24, kind: 'i32', what: `${what} weight count` },
        );
        const w = dv.getInt32(p + 24);
        p += 28;
        for (let q = 0; q < w; q++) {
          if (!need(v206 ? 20 : 12)) return;
          fields.push(
            { offset: p, kind: 'i32', what: `${what} weight ${q} category` },
            { offset: p + 4, kind: 'f64', what: `${what} weight ${q} ratios (as f64)` },
          );
          p += v206 ? 20 : 12;
        }
      }
    }
  }
}
