/**
 * The CLOG2 preamble (CLOG2.md §3): 1024 bytes of NUL-separated ASCII tokens, taken positionally
 * after dropping empty tokens, as the reference reader does.
 */
import { FormatError } from '../../bytes/formatError';

export const PREAMBLE_BYTES = 1024;
export const CLOG2_VERSION = 'CLOG-02.44';

export interface Clog2Preamble {
  readonly version: string;
  readonly isBigEndian: boolean;
  readonly isFinalized: boolean;
  readonly blockSize: number;
  readonly numBufferedBlocks: number;
  readonly maxCommWorldSize: number;
  readonly maxThreadCount: number;
  readonly knownEventIDStart: number;
  readonly userEventIDStart: number;
  readonly knownSoloEventIDStart: number;
  readonly userSoloEventIDStart: number;
  readonly knownStateIDCount: number;
  readonly userStateIDCount: number;
  readonly knownSoloEventIDCount: number;
  readonly userSoloEventIDCount: number;
  /** Offset of the communicator table (0 when the run died before writing it). */
  readonly commtableFptr: number;
}

/**
 * The event-ID layout MPE writes into every CLOG2 preamble (CLOG2.md §3, §11): its known states'
 * etypes from 0 (300 of them), users' from 600, its 2 predefined solo events from −10, users' solo
 * events from 5000. For writers of CLOG2 (the synthetic and hostile traces, tests).
 */
export const MPE_EVENT_ID_LAYOUT = {
  knownEventIDStart: 0,
  userEventIDStart: 600,
  knownSoloEventIDStart: -10,
  userSoloEventIDStart: 5000,
  knownStateIDCount: 300,
  knownSoloEventIDCount: 2,
} as const;

/** True if the bytes start with `CLOG-` (CLOG2 family, any version). */
export function looksLikeClog2(first: Uint8Array): boolean {
  return first.length >= 5 && first[0] === 0x43 && first[1] === 0x4c && first[2] === 0x4f && first[3] === 0x47 && first[4] === 0x2d;
}

/**
 * Largest id-range count we accept: the converter creates a placeholder category per slot up front,
 * so a corrupt count of 2^20 cost > 256 MB and > 10 s (fuzzer finding). MPE's own counts are a few
 * hundred (known_stateID_count = 300); 2^14 per range keeps the worst case well under a second.
 */
const MAX_SLOTS = 1 << 14;
/** max_comm_world_size: processes, not placeholders (lineIDs are computed, not tabulated). */
const MAX_WORLD_SIZE = 1 << 20;

export function parsePreamble(bytes: Uint8Array, file: string): Clog2Preamble {
  if (bytes.length < PREAMBLE_BYTES)
    throw new FormatError(file, bytes.length, `not a CLOG2 file: ${bytes.length} bytes, the preamble alone is ${PREAMBLE_BYTES}`);
  if (!looksLikeClog2(bytes)) throw new FormatError(file, 0, 'not a CLOG2 file: it does not start with "CLOG-"');
  const tokens: string[] = [];
  let start = 0;
  for (let i = 0; i <= PREAMBLE_BYTES; i++) {
    if (i === PREAMBLE_BYTES || bytes[i] === 0) {
      if (i > start) {
        let s = '';
        for (let k = start; k < i; k++) s += String.fromCharCode(bytes[k]!);
        s = s.trim();
        if (s !== '') tokens.push(s);
      }
      start = i + 1;
    }
  }
  const version = tokens[0] ?? '';
  if (version.toUpperCase() !== CLOG2_VERSION)
    throw new FormatError(file, 0, `unsupported CLOG2 version ${JSON.stringify(version)} (only ${CLOG2_VERSION} is supported)`);
  const bool = (i: number, what: string): boolean => {
    const t = tokens[i];
    if (t === undefined) throw new FormatError(file, 0, `preamble: missing ${what}`);
    return /^(true|yes)$/i.test(t);
  };
  const int = (i: number, what: string, min = -(2 ** 31), max = 2 ** 31 - 1): number => {
    const t = tokens[i];
    if (t === undefined || !/^[+-]?\d+$/.test(t))
      throw new FormatError(file, 0, `preamble: ${what} is ${t === undefined ? 'missing' : JSON.stringify(t)}, expected an integer`);
    const v = Number(t);
    if (v < min || v > max) throw new FormatError(file, 0, `preamble: ${what} = ${v} is outside [${min}, ${max}]`);
    return v;
  };
  const g = int(30, 'commtable_fptr (G)', 0);
  const u = int(31, 'commtable_fptr (U)', 0);
  const r = int(32, 'commtable_fptr (R)', 0);
  const blockSize = int(6, 'block_size', 1, 2 ** 30);
  if (blockSize < 24) throw new FormatError(file, 0, `preamble: block_size ${blockSize} cannot hold an end-of-block record`);
  return {
    version,
    isBigEndian: bool(2, 'is_big_endian'),
    isFinalized: bool(4, 'is_finalzed'),
    blockSize,
    numBufferedBlocks: int(8, 'num_buffered_blocks'),
    maxCommWorldSize: int(10, 'max_comm_world_size', 1, MAX_WORLD_SIZE),
    maxThreadCount: int(12, 'max_thread_count', 1, 4096),
    knownEventIDStart: int(14, 'known_eventID_start'),
    userEventIDStart: int(16, 'user_eventID_start'),
    knownSoloEventIDStart: int(18, 'known_solo_eventID_start'),
    userSoloEventIDStart: int(20, 'user_solo_eventID_start'),
    knownStateIDCount: int(22, 'known_stateID_count', 0, MAX_SLOTS),
    userStateIDCount: int(24, 'user_stateID_count', 0, MAX_SLOTS),
    knownSoloEventIDCount: int(26, 'known_solo_eventID_count', 0, MAX_SLOTS),
    userSoloEventIDCount: int(28, 'user_solo_eventID_count', 0, MAX_SLOTS),
    commtableFptr: g * u + r,
  };
}

/** Writes a preamble exactly as MPE does (used by the synthesizer and tests). */
export function formatPreamble(p: Omit<Clog2Preamble, 'version'>): Uint8Array {
  const U = 1073741824;
  const tokens = [
    CLOG2_VERSION,
    'is_big_endian=',
    p.isBigEndian ? 'TRUE ' : 'FALSE',
    'is_finalzed=',
    p.isFinalized ? 'TRUE ' : 'FALSE',
    'block_size=',
    String(p.blockSize),
    'num_buffered_blocks=',
    String(p.numBufferedBlocks),
    'max_comm_world_size=',
    String(p.maxCommWorldSize),
    'max_thread_count=',
    String(p.maxThreadCount),
    'known_eventID_start=',
    String(p.knownEventIDStart),
    'user_eventID_start=',
    String(p.userEventIDStart),
    'known_solo_eventID_start=',
    String(p.knownSoloEventIDStart),
    'user_solo_eventID_start=',
    String(p.userSoloEventIDStart),
    'known_stateID_count=',
    String(p.knownStateIDCount),
    'user_stateID_count=',
    String(p.userStateIDCount),
    'known_solo_eventID_count=',
    String(p.knownSoloEventIDCount),
    'user_solo_eventID_count=',
    String(p.userSoloEventIDCount),
    'commtable_fptr=',
    String(Math.floor(p.commtableFptr / U)),
    String(U),
    String(p.commtableFptr % U),
  ];
  const out = new Uint8Array(PREAMBLE_BYTES);
  let pos = 0;
  for (const t of tokens) {
    for (let i = 0; i < t.length; i++) out[pos++] = t.charCodeAt(i);
    out[pos++] = 0;
  }
  return out;
}
