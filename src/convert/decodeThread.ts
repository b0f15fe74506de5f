/**
 * A whole-file pass's side of the decoder thread (dist/decoder.js): starts it on a SLOG-2 file,
 * yields the batches it posts as PrimitiveBatch columns, and sends each back when the next is
 * asked for (the pass is done with a batch by then, as with ColumnStreamOptions.reuse). Errors of
 * the thread are rebuilt here (a FormatError stays one); a thread that dies without answering
 * fails the iteration with a clear message instead of waiting for ever. The thread is always
 * stopped when iteration ends, early or not.
 */
import { primitiveBatchesInTimeOrder, type PrimitiveBatch } from '../core/formats/slog2/columnStream';
import type { Slog2File } from '../core/formats/slog2/slog2File';
import { FileSource } from '../io/fileSource';
import type { SourceLocation } from '../core/model/types';
import { pathNames, profilePathWindow, type PathProfile, type PathWindow } from '../core/analysis/pathProfile';
import { slog2SplitTime } from '../core/analysis/slog2Input';
import type { ElsewhereHalf, FileStatsOptions } from '../core/stats/columnStats';
import type { StatsPart } from '../core/stats/statsPart';
import {
  isDecoderToPass,
  wireBuffers,
  type DecoderDone,
  type DecoderDumpText,
  type DecoderDumpWarnings,
  type DecoderFailed,
  type DecoderStart,
  type DecoderToPass,
  type PassToDecoder,
  type WireBatch,
} from '../protocol/decoder';
import { ThreadChannel } from './threadChannel';
import { bundledScript } from './threadScripts';

/**
 * The decoder holds a few leaves and batches: far below this. Not lower: with 256–1024 MB the
 * thread decoded 1 GB 1.1–1.25× slower (more full collections of the short-lived node columns).
 */
const MAX_HEAP_MB = 2048;
/** A small young generation: collected sooner, the columns' buffers are freed sooner (−15 MB peak RSS on 1 GB, same speed; 96 MB: +40 MB). */
const YOUNG_MB = 16;
/** dist/decoder.js next to the running bundle (dist/cli.js, dist/analysis.js), if it is there. */
export function bundledDecoderScript(): string | undefined {
  return bundledScript('decoder.js');
}

export interface DecodeThreadOptions {
  readonly signal?: AbortSignal;
  /** The file's site table (Slog2File.sourceLocationTable.sites): the thread sends indices into it. */
  readonly sites: readonly SourceLocation[];
  /** As ColumnStreamOptions (statistics): the last vertex and info columns filled; nodes checked against their bounds. */
  readonly withLastAndInfo?: boolean;
  readonly withinNodes?: boolean;
}

/** The per-row object columns of the batches yielded (reused: each batch is done with before the next). */
class ObjectColumns {
  infoSource: (Uint8Array | undefined)[] = [];
  site: (SourceLocation | undefined)[] = [];

  fit(rows: number): void {
    if (rows <= this.site.length) return;
    const n = Math.max(rows, 2 * this.site.length);
    this.infoSource = new Array<Uint8Array | undefined>(n);
    this.site = new Array<SourceLocation | undefined>(n);
  }
}

/**
 * Leaf bytes in a range below which a range is decoded in this thread: starting a thread (an
 * isolate, its bundle, the file's directory) costs about what decoding a few MiB does.
 */
const MIN_THREAD_BYTES = 32 << 20;

/** Bytes of the leaves overlapping [t0, t1]: the decoding work a thread would take over. */
function leafBytes(file: Slog2File, t0: number, t1: number): number {
  let bytes = 0;
  for (const leaf of file.nodesOverlapping(0, t0, t1)) bytes += leaf.size;
  return bytes;
}

/**
 * The unfiltered column stream of `file`: decoded in a decoder thread when the file is on disk (a
 * FileSource), dist/decoder.js is there and the range's leaves hold ≥ 32 MiB; in this thread
 * otherwise. Undefined when the thread can never be used.
 */
export function threadDecoded(
  file: Slog2File,
  options: Omit<DecodeThreadOptions, 'sites'> = {},
  script = bundledDecoderScript(),
): ((t0: number, t1: number) => AsyncIterable<PrimitiveBatch>) | undefined {
  const source = file.source;
  if (script === undefined || !(source instanceof FileSource)) return undefined;
  const sites = file.sourceLocationTable?.sites ?? [];
  const { signal, withLastAndInfo, withinNodes } = options;
  return (t0, t1) => {
    if (leafBytes(file, t0, t1) >= MIN_THREAD_BYTES) return batchesFromDecoderThread(script, source.name, t0, t1, { ...options, sites });
    return primitiveBatchesInTimeOrder(file, t0, t1, {
      reuse: true,
      ...(signal ? { signal } : {}),
      ...(withLastAndInfo ? { withLastAndInfo } : {}),
      ...(withinNodes ? { withinNodes } : {}),
    });
  };
}

/**
 * exactStatsOfFile's options for `file` when it can use a decoder thread: a range whose leaves
 * hold ≥ 64 MiB is split where half its leaf bytes are read, the later half counted in the thread
 * while this one counts the earlier (each decodes and counts its own half: two cores busy, nothing
 * copied between them); one of ≥ 32 MiB is streamed from the thread (`decoded`); a smaller one is
 * read here (starting a thread costs about what decoding a few MiB does).
 */
export function statsDecoded(file: Slog2File, signal?: AbortSignal, script = bundledDecoderScript()): Pick<FileStatsOptions, 'decoded' | 'elsewhere'> {
  const source = file.source;
  if (script === undefined || !(source instanceof FileSource)) return {};
  const sites = file.sourceLocationTable?.sites ?? [];
  const decoded = (t0: number, t1: number): AsyncIterable<PrimitiveBatch> | undefined =>
    leafBytes(file, t0, t1) < MIN_THREAD_BYTES
      ? undefined
      : batchesFromDecoderThread(script, source.name, t0, t1, { sites, withLastAndInfo: true, withinNodes: true, ...(signal ? { signal } : {}) });
  const elsewhere = (range: readonly [number, number]): ElsewhereHalf | undefined =>
    leafBytes(file, range[0], range[1]) < 2 * MIN_THREAD_BYTES
      ? undefined
      : statsPartInDecoderThread(script, source.name, range, slog2SplitTime(file, range[0], range[1]), signal);
  return { decoded, elsewhere };
}

/** The sums of `range` of the SLOG-2 file at `file` owned from `from` on, counted in the thread at `script`. */
export function statsPartInDecoderThread(script: string, file: string, range: readonly [number, number], from: number, signal?: AbortSignal): ElsewhereHalf {
  const start: DecoderStart = { kind: 'start', path: file, t0: from, t1: range[1], withLastAndInfo: true, withinNodes: true, stats: { range } };
  const thread = decoderChannel(script, file, start, signal);
  const part = (async (): Promise<StatsPart> => {
    try {
      let part: StatsPart | undefined;
      for (let m = await nextFrom(thread); m !== undefined; m = await nextFrom(thread)) {
        if (m.kind !== 'statsPart') throw new Error(`decoding: the decoder thread sent a ${m.kind} for statistics`);
        part = m.part;
      }
      if (part === undefined) throw new Error(`the decoder thread ended without the statistics of ${file}`);
      return part;
    } finally {
      await thread.close(STOP);
    }
  })();
  return { from, part, cancel: () => void thread.close(STOP) };
}

/** A started decoder thread (its failures thrown by `next`); `close` stops it (always call it). */
function decoderChannel(script: string, file: string, start: DecoderStart, signal: AbortSignal | undefined): ThreadChannel<PassToDecoder, DecoderToPass> {
  const channel = new ThreadChannel<PassToDecoder, DecoderToPass>({
    script,
    resourceLimits: { maxOldGenerationSizeMb: MAX_HEAP_MB, maxYoungGenerationSizeMb: YOUNG_MB },
    isMessage: isDecoderToPass,
    unexpected: 'decoding: unexpected message from the decoder thread',
    outOfMemory: () => new Error(`decoding ${file} needs more than the decoder thread's ${MAX_HEAP_MB} MB heap`),
    stoppedEarly: (code) => new Error(`the decoder thread stopped before the end of ${file} (exit code ${code})`),
    ...(signal ? { signal } : {}),
  });
  channel.send(start);
  return channel;
}

/** The thread's next batch or profile; undefined after `done`. */
async function nextFrom(thread: ThreadChannel<PassToDecoder, DecoderToPass>): Promise<Exclude<DecoderToPass, DecoderDone | DecoderFailed> | undefined> {
  const m = await thread.next();
  if (m.kind !== 'done') return m;
  thread.ended();
  return undefined;
}

const STOP: PassToDecoder = { kind: 'stop' };

/** The real drawables overlapping [t0, t1] of the SLOG-2 file at `file`, decoded in the thread at `script`. */
export async function* batchesFromDecoderThread(
  script: string,
  file: string,
  t0: number,
  t1: number,
  options: DecodeThreadOptions,
): AsyncGenerator<PrimitiveBatch> {
  const withLastAndInfo = options.withLastAndInfo === true;
  const start: DecoderStart = { kind: 'start', path: file, t0, t1, withLastAndInfo, withinNodes: options.withinNodes === true };
  const thread = decoderChannel(script, file, start, options.signal);
  const objects = new ObjectColumns();
  let lent: WireBatch | undefined;
  try {
    for (;;) {
      if (lent !== undefined) {
        thread.send({ kind: 'recycle', batch: lent }, wireBuffers(lent));
        lent = undefined;
      }
      const m = await nextFrom(thread);
      if (m === undefined) return;
      if (m.kind !== 'batch') throw new Error(`decoding: the decoder thread sent a ${m.kind} for a stream`);
      const w = m.batch;
      lent = w;
      objects.fit(w.rows);
      const { site, infoSource } = objects;
      for (let i = 0; i < w.rows; i++) {
        const s = w.site[i]!;
        site[i] = s >= 0 ? options.sites[s] : undefined;
      }
      if (withLastAndInfo) infoSource.fill(w.info, 0, w.rows);
      yield { ...w, site, siteIndex: w.site, infoSource };
    }
  } finally {
    await thread.close(STOP);
  }
}

/** The critical path's profile over `window` of the SLOG-2 file at `file`, computed in the thread at `script`. */
export async function profileInDecoderThread(script: string, file: string, window: PathWindow, signal?: AbortSignal): Promise<PathProfile> {
  const start: DecoderStart = { kind: 'start', path: file, t0: window.from, t1: window.to, withLastAndInfo: false, withinNodes: false, profile: window };
  const thread = decoderChannel(script, file, start, signal);
  try {
    let profile: PathProfile | undefined;
    for (let m = await nextFrom(thread); m !== undefined; m = await nextFrom(thread)) {
      if (m.kind !== 'profile') throw new Error(`decoding: the decoder thread sent a ${m.kind} for a profile`);
      profile = m.profile;
    }
    if (profile === undefined) throw new Error(`the decoder thread ended without the critical path's profile of ${file}`);
    return profile;
  } finally {
    await thread.close(STOP);
  }
}

/**
 * AnalysisInput.profileElsewhere for `file`: a window is profiled in a decoder thread when its
 * leaves hold ≥ 32 MiB (as threadDecoded decides), here otherwise, with the same sums.
 */
export function threadProfile(
  file: Slog2File,
  script = bundledDecoderScript(),
): ((window: PathWindow, signal: AbortSignal) => Promise<PathProfile>) | undefined {
  const source = file.source;
  if (script === undefined || !(source instanceof FileSource)) return undefined;
  return async (window, signal) => {
    if (leafBytes(file, window.from, window.to) >= MIN_THREAD_BYTES) return profileInDecoderThread(script, source.name, window, signal);
    return profilePathWindow(window, (t0, t1, keep) => primitiveBatchesInTimeOrder(file, t0, t1, { reuse: true, keep, signal }), pathNames(file.categories));
  };
}

/** The decoder thread's side of a dump in turns: its parts' text as it comes, each chunk given back once written. */
export interface DumpThread {
  /** The next chunk, the warnings after the last part, or undefined once the thread is done. */
  next(): Promise<DecoderDumpText | DecoderDumpWarnings | undefined>;
  /** A chunk written: its buffer goes back (and the thread may post one more). */
  written(chunk: DecoderDumpText): void;
  close(): Promise<void>;
}

/** Dumps `parts` of the drawables of [t0, t1] of the SLOG-2 file at `file` in the thread at `script`. */
export function dumpInDecoderThread(
  script: string,
  file: string,
  t0: number,
  t1: number,
  dump: NonNullable<DecoderStart['dump']>,
  signal?: AbortSignal,
): DumpThread {
  const thread = decoderChannel(script, file, { kind: 'start', path: file, t0, t1, withLastAndInfo: false, withinNodes: false, dump }, signal);
  return {
    async next() {
      const m = await nextFrom(thread);
      if (m !== undefined && m.kind !== 'dumpText' && m.kind !== 'dumpWarnings') throw new Error(`decoding: the decoder thread sent a ${m.kind} for a dump`);
      return m;
    },
    written: (chunk) => thread.send({ kind: 'recycle', batch: chunk.bytes }, [chunk.bytes.buffer as ArrayBuffer]),
    close: () => thread.close(STOP),
  };
}
