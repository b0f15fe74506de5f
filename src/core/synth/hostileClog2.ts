/**
 * Valid-looking CLOG2 files shaped to be small on disk and huge in effect (issue 14): many solo
 * events whose times are all equal, NaN/±∞, or descending; many categories (event definitions);
 * bytes after ENDLOG. Used by the robustness tests, the fuzzer's shape mode and the benches.
 */
import { formatPreamble, MPE_EVENT_ID_LAYOUT } from '../formats/clog2/preamble';
import { Clog2BlockWriter } from './clog2Writer';

export type TimeShape = 'equal' | 'nan' | 'infinite' | 'descending' | 'mixed';

export interface HostileClog2Options {
  readonly events: number;
  readonly times: TimeShape;
  /** Distinct event categories (EVENTDEF records); events cycle through them. Default 1. */
  readonly categories?: number;
  /** Leave the categories undefined (no EVENTDEF): each etype becomes an UnknownType category. */
  readonly undefinedCategories?: boolean;
  /** Zero bytes appended after the ENDLOG block (data the reader must never need). */
  readonly afterEndLog?: number;
  /** Category names (default `ev<i>`); e.g. control characters for output-safety tests. */
  readonly name?: (i: number) => string;
  readonly blockSize?: number;
}

function timeOf(shape: TimeShape, i: number, n: number): number {
  switch (shape) {
    case 'equal':
      return 1;
    case 'nan':
      return i % 4 === 1 ? NaN : 1 + i * 1e-6;
    case 'infinite':
      return i % 4 === 1 ? (i % 8 === 1 ? Infinity : -Infinity) : 1 + i * 1e-6;
    case 'descending':
      return 1 + (n - i) * 1e-6;
    case 'mixed':
      return i % 3 === 0 ? 1 : i % 3 === 1 ? NaN : 1 + (n - i) * 1e-6;
  }
}

/** Solo event etypes start here (user solo event ids of the preamble). */
const SOLO_BASE = 5000;

/** Writes the file to `sink` in chunks; resolves with the byte count. */
export async function writeHostileClog2(options: HostileClog2Options, sink: (chunk: Uint8Array) => Promise<void>): Promise<number> {
  const blockSize = options.blockSize ?? 65536;
  const categories = Math.max(1, options.categories ?? 1);
  const w = new Clog2BlockWriter(sink, blockSize);
  await w.raw(
    formatPreamble({
      isBigEndian: true,
      isFinalized: true,
      blockSize,
      numBufferedBlocks: 128,
      maxCommWorldSize: 1,
      maxThreadCount: 1,
      ...MPE_EVENT_ID_LAYOUT,
      userSoloEventIDStart: SOLO_BASE,
      userStateIDCount: 0,
      userSoloEventIDCount: Math.min(categories, 16384),
      commtableFptr: 0,
    }),
  );
  const gid = new Uint8Array(32);
  await w.comm(0, 0, 0, 0, 0, 0, 0, 0, gid);
  if (options.undefinedCategories !== true) for (let c = 0; c < categories; c++) await w.eventDef(0, 0, SOLO_BASE + c, 'red', options.name?.(c) ?? `ev${c}`);
  for (let i = 0; i < options.events; i++) await w.bare(timeOf(options.times, i, options.events), 0, 0, 0, SOLO_BASE + (i % categories));
  await w.endLog();
  const tail = options.afterEndLog ?? 0;
  const zeros = new Uint8Array(Math.min(tail, 1 << 20));
  for (let left = tail; left > 0; left -= zeros.length) await w.raw(left >= zeros.length ? zeros : zeros.subarray(0, left));
  return w.written;
}

/** The whole file in memory (tests; keep `events` moderate). */
export async function hostileClog2Bytes(options: HostileClog2Options): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const total = await writeHostileClog2(options, async (c) => void parts.push(c.slice()));
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
