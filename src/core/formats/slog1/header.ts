/**
 * SLOG-1 (SLOG API 0.7, SLOG1.md): the 74-byte file header, identification, and the tables the
 * header points at (preview, thread table, display profile, record definitions, frame
 * directory, preview statistics). Big-endian everywhere. Every count is checked against the
 * bytes that remain before anything is allocated from it.
 */
import { BinaryReader } from '../../bytes/binaryReader';
import type { ByteSource } from '../../bytes/byteSource';
import { FormatError } from '../../bytes/formatError';
import type { Slog1Frame, Slog1Header, Slog1PreviewStatistics, Slog1ProfileEntry, Slog1RecordDefinition, Slog1Thread } from './facts';

export const SLOG1_HEADER_BYTES = 74;
/** Frames bigger than this are refused (clog2slog writes 64 KiB; the option takes KiB). */
export const MAX_FRAME_BYTES = 256 << 20;
/** Frame directories chained beyond this many frames are refused. */
export const MAX_FRAMES = 1 << 22;
const MAX_BINS = 1 << 20;
const MAX_PREVIEW_BYTES = 64 << 20;

/**
 * Sniff of the first bytes: version 0.7 (there is no magic), a frame size that can hold a frame
 * header, at least one directory slot and 0/1 flags. `.slog` is used by unrelated tools too.
 */
export function looksLikeSlog1(head: Uint8Array): boolean {
  if (head.length < 26) return false;
  const dv = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (dv.getUint32(0) !== 0 || dv.getUint32(4) !== 7) return false;
  const frameBytes = dv.getUint32(8);
  const maxFrames = dv.getUint32(16);
  if (frameBytes < 32 || frameBytes > MAX_FRAME_BYTES || maxFrames < 1) return false;
  for (const at of [20, 22, 24]) if (dv.getUint16(at) > 1) return false;
  return true;
}

function u16(r: BinaryReader, what: string): number {
  return r.i16(what) & 0xffff;
}
function u32(r: BinaryReader, what: string): number {
  return r.i32(what) >>> 0;
}

/** A file offset: must lie inside the file (0 = none is allowed only where said). */
function fptr(r: BinaryReader, size: number, what: string): number {
  const at = r.pos;
  const v = r.i64(what);
  if (v < 0 || v >= size) throw r.error(`${what} ${v} is outside the file (${size} bytes)`, at);
  return v;
}

export function parseHeader(bytes: Uint8Array, file: string, size: number): Slog1Header {
  const r = new BinaryReader(bytes, 0, file);
  const versionMajor = u32(r, 'version major');
  const versionMinor = u32(r, 'version minor');
  if (versionMajor !== 0 || versionMinor !== 7)
    throw new FormatError(file, 0, `not a SLOG-1 file: version ${versionMajor}.${versionMinor}, only 0.7 (MPICH 1.2's SLOG API) is known`);
  const frameBytes = u32(r, 'frame byte size');
  if (frameBytes < 32 || frameBytes > MAX_FRAME_BYTES) throw new FormatError(file, 8, `frame byte size ${frameBytes} is outside [32, ${MAX_FRAME_BYTES}]`);
  const frameReservedBytes = u32(r, 'frame reserved size');
  const maxFramesPerDir = u32(r, 'max frames per directory');
  if (maxFramesPerDir < 1 || maxFramesPerDir > MAX_FRAMES)
    throw new FormatError(file, 16, `max frames per directory ${maxFramesPerDir} is outside [1, ${MAX_FRAMES}]`);
  const flag = (what: string): boolean => {
    const at = r.pos;
    const v = u16(r, what);
    if (v > 1) throw r.error(`${what} flag is ${v}, expected 0 or 1`, at);
    return v === 1;
  };
  const increasingStarttime = flag('increasing start time');
  const increasingEndtime = flag('increasing end time');
  const reserveSpaceUsed = flag('reserve space used');
  // The statistics are written last: a truncated file points past its end (read as "missing").
  const statsAt = r.pos;
  const statistics = r.i64('statistics offset');
  if (statistics < 0) throw r.error(`statistics offset ${statistics} is negative`, statsAt);
  const preview = fptr(r, size, 'preview offset');
  const profile = fptr(r, size, 'profile offset');
  const threadTable = fptr(r, size, 'thread table offset');
  const recordDefinitions = fptr(r, size, 'record definitions offset');
  const frameData = fptr(r, size, 'frame directory offset');
  return {
    versionMajor,
    versionMinor,
    frameBytes,
    frameReservedBytes,
    maxFramesPerDir,
    increasingStarttime,
    increasingEndtime,
    reserveSpaceUsed,
    fptr: { statistics, preview, profile, threadTable, recordDefinitions, frameData },
  };
}

/** Reads `n` bytes at `offset`, failing with a FormatError naming `what` if the file ends first. */
async function readAt(source: ByteSource, offset: number, n: number, what: string): Promise<BinaryReader> {
  if (offset + n > source.size) throw new FormatError(source.name, offset, `${what} needs ${n} bytes but the file ends at ${source.size} (truncated file?)`);
  return new BinaryReader(await source.read(offset, n), offset, source.name);
}

/** A u32 count at `offset` followed by `count` entries of `entryBytes`, all inside the file. */
async function table(source: ByteSource, offset: number, entryBytes: number, what: string, cap: number): Promise<{ count: number; r: BinaryReader }> {
  const head = await readAt(source, offset, 4, `${what} count`);
  const count = u32(head, `${what} count`);
  if (count > cap) throw new FormatError(source.name, offset, `${what} count ${count} exceeds the limit ${cap}`);
  return { count, r: await readAt(source, offset + 4, count * entryBytes, `${what} (${count} entries)`) };
}

export async function readPreviewBytes(source: ByteSource, h: Slog1Header): Promise<number> {
  const r = await readAt(source, h.fptr.preview, 4, 'preview length');
  const n = u32(r, 'preview length');
  if (n > MAX_PREVIEW_BYTES || h.fptr.preview + 4 + n > source.size)
    throw new FormatError(source.name, h.fptr.preview, `preview length ${n} runs past the end of the file`);
  return n;
}

export async function readThreads(source: ByteSource, h: Slog1Header): Promise<Slog1Thread[]> {
  const { count, r } = await table(source, h.fptr.threadTable, 18, 'thread table', 1 << 20);
  const out: Slog1Thread[] = [];
  for (let i = 0; i < count; i++) {
    out.push({
      node: u16(r, 'node id'),
      thread: u32(r, 'thread id'),
      osProcess: u32(r, 'OS process id'),
      osThread: u32(r, 'OS thread id'),
      app: u32(r, 'application id'),
    });
  }
  return out;
}

/** One 21-byte text field: bytes 0..19 up to the first NUL, trimmed (SLOG1.md §6). */
function textField(r: BinaryReader): string {
  const b = r.bytesView(21, 'profile field');
  let end = b.indexOf(0);
  if (end < 0 || end > 20) end = 20;
  let s = '';
  for (let i = 0; i < end; i++) s += String.fromCharCode(b[i]!);
  return s.replace(/\t/g, ' ').trim();
}

export async function readProfile(source: ByteSource, h: Slog1Header): Promise<Slog1ProfileEntry[]> {
  const { count, r } = await table(source, h.fptr.profile, 85, 'display profile', 65536);
  const out: Slog1ProfileEntry[] = [];
  for (let i = 0; i < count; i++) {
    const at = r.pos;
    const type = textField(r);
    const classtype = textField(r);
    const label = textField(r);
    const color = textField(r);
    r.skip(1, 'profile newline');
    if (!/^\d+$/.test(type) || Number(type) > 65535)
      throw r.error(`display profile entry ${i}: interval type "${type.slice(0, 20)}" is not a number in [0, 65535]`, at);
    out.push({ intvltype: Number(type), classtype, label, color });
  }
  return out;
}

export async function readRecordDefinitions(source: ByteSource, h: Slog1Header): Promise<Slog1RecordDefinition[]> {
  const { count, r } = await table(source, h.fptr.recordDefinitions, 7, 'record definitions', 1 << 20);
  const out: Slog1RecordDefinition[] = [];
  for (let i = 0; i < count; i++) {
    const intvltype = u16(r, 'interval type');
    const at = r.pos;
    const bebits = r.u8('bebits');
    if (bebits > 3) throw r.error(`record definition ${i}: bebits ${bebits} is not in 0..3`, at);
    out.push({ intvltype, bebit0: bebits & 1, bebit1: bebits >> 1, nAssocs: u16(r, 'association count'), nArgs: u16(r, 'argument count') });
  }
  return out;
}

/** The frame directory (and any chained ones): frames in file order. */
export async function readFrameDirectory(source: ByteSource, h: Slog1Header): Promise<Slog1Frame[]> {
  const frames: Slog1Frame[] = [];
  const seen = new Set<number>();
  let at = h.fptr.frameData;
  while (at !== 0) {
    if (seen.has(at)) throw new FormatError(source.name, at, 'frame directories form a loop');
    seen.add(at);
    const r = await readAt(source, at, 20, 'frame directory header');
    fptr(r, source.size, 'previous directory offset');
    const nextAt = r.pos;
    const next = r.i64('next directory offset');
    if (next < 0 || next >= source.size) throw r.error(`next directory offset ${next} is outside the file`, nextAt);
    const n = u32(r, 'frame count');
    if (n > h.maxFramesPerDir) throw r.error(`directory lists ${n} frames but has ${h.maxFramesPerDir} slots`, r.pos - 4);
    if (frames.length + n > MAX_FRAMES) throw r.error(`more than ${MAX_FRAMES} frames`, r.pos - 4);
    const slots = await readAt(source, at + 20, n * 24, `frame directory (${n} slots)`);
    for (let i = 0; i < n; i++) {
      const where = slots.pos;
      const offset = slots.i64('frame offset');
      const start = slots.f64('frame start time');
      const end = slots.f64('frame end time');
      if (offset <= 0 || offset + 32 > source.size)
        throw slots.error(`frame ${frames.length} offset ${offset} is outside the file (${source.size} bytes)`, where);
      if (!Number.isFinite(start) || !Number.isFinite(end) || end < start)
        throw slots.error(`frame ${frames.length} has an invalid time range [${start}, ${end}]`, where + 8);
      frames.push({ offset, start, end });
    }
    at = next;
  }
  return frames;
}

export async function readPreviewStatistics(source: ByteSource, h: Slog1Header): Promise<Slog1PreviewStatistics | undefined> {
  const base = h.fptr.statistics;
  if (base === 0 || base >= source.size) return undefined;
  const head = await readAt(source, base, 8, 'preview statistics header');
  const nSets = u32(head, 'statistics set count');
  const nBins = u32(head, 'statistics bin count');
  if (nSets === 0 || nBins === 0) return undefined;
  if (nBins > MAX_BINS) throw head.error(`statistics bin count ${nBins} exceeds ${MAX_BINS}`, 4);
  const setBytes = 31 + 8 * nBins;
  if (nSets > (source.size - base - 24) / setBytes) throw head.error(`${nSets} statistics sets of ${nBins} bins do not fit in the file`, 0);
  const r = await readAt(source, base + 8, 16 + nSets * setBytes, 'preview statistics');
  const start = r.f64('statistics start time');
  const end = r.f64('statistics end time');
  const sets: { rectype: number; intvltype: number; label: string; bins: number[] }[] = [];
  for (let s = 0; s < nSets; s++) {
    const rectype = u16(r, 'statistics rectype');
    const intvltype = u16(r, 'statistics interval type');
    const labelAt = r.pos;
    const labelLen = u16(r, 'statistics label length');
    if (labelLen !== 21) throw r.error(`statistics set ${s}: label length ${labelLen}, expected 21`, labelAt);
    const lb = r.bytesView(21, 'statistics label');
    let e = lb.indexOf(0);
    if (e < 0 || e > 20) e = 20;
    let label = '';
    for (let i = 0; i < e; i++) label += String.fromCharCode(lb[i]!);
    const nAt = r.pos;
    const n = u32(r, 'statistics set bin count');
    if (n !== nBins) throw r.error(`statistics set ${s} has ${n} bins, the section says ${nBins}`, nAt);
    const bins: number[] = new Array<number>(nBins);
    for (let i = 0; i < nBins; i++) bins[i] = r.f64('statistics bin');
    sets.push({ rectype, intvltype, label: label.trim(), bins });
  }
  return { start, end, bins: nBins, sets };
}
