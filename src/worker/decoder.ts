// worker_threads entry: the decoder half of a two-thread whole-file pass (see src/convert/decodeThread.ts).
// It opens the SLOG-2 file, decodes its leaves in drawing order (columnStream.ts) and posts their
// rows packed into columns, keeping at most MAX_IN_FLIGHT batches unreturned; protocol in
// src/protocol/decoder.ts. The pass decodes nothing itself meanwhile: on two cores the decoding
// and the analysis run side by side. A start with a path window instead profiles the critical
// path over that window (the analysis's pass 2, whose other window the pass does meanwhile), a
// start with statistics counts the later half of their range (columnStats.ts) and posts its sums,
// and a start with dump parts formats them (`mpe-trace dump`, which formats the parts between).
import { leavesInTimeOrder, primitiveBatchesInTimeOrder } from '../core/formats/slog2/columnStream';
import { Slog2File } from '../core/formats/slog2/slog2File';
import { statsPartOfFile } from '../core/stats/columnStats';
import { pathNames, profilePathWindow, type PathWindow, type WindowStream } from '../core/analysis/pathProfile';
import { DumpLines, dumpPartText } from '../core/info/dumpLines';
import { FileSource } from '../io/fileSource';
import { isPassToDecoder, wireBatch, wireBuffers, type DecoderStart, type DecoderToPass, type WireBatch } from '../protocol/decoder';
import { serveBatchThread, type BatchOutlet } from './batchThread';

/** Batches posted and not yet sent back (~1.4 MB each): slack for the pass's bursts (a GC pause). */
const MAX_IN_FLIGHT = 4;

const pool: WireBatch[] = [];
const utf8 = new TextEncoder();
/** Returned dump text buffers, reused for the next chunks. */
const textPool: Uint8Array[] = [];

/** Characters of dump text per posted chunk (about a MB: a part is a few chunks, and four are in flight). */
const DUMP_CHUNK = 1 << 20;

/** Rows per posted batch at least (a message costs about as much as copying a few thousand rows): the stream's leaves are coalesced. */
const POST_ROWS = 1 << 13;

/** A returned batch with room for `rows` rows and `infoBytes` info bytes, or new columns. */
function take(rows: number, infoBytes: number): WireBatch {
  const i = pool.findIndex((b) => b.category.length >= rows && b.info.length >= infoBytes);
  if (i >= 0) return { ...pool.splice(i, 1)[0]!, rows: 0, infoUsed: 0 };
  return wireBatch(Math.max(rows, 2 * POST_ROWS), infoBytes === 0 ? 0 : Math.max(infoBytes, 4 * POST_ROWS));
}

/** The critical path's profile over one window (the analysis's pass 2, its other window in the pass's thread). */
async function profile(file: Slog2File, window: PathWindow, outlet: BatchOutlet<DecoderToPass>): Promise<void> {
  const stream: WindowStream = (t0, t1, keep) => primitiveBatchesInTimeOrder(file, t0, t1, { reuse: true, keep, recycleNodes: true });
  const result = await profilePathWindow(window, stream, pathNames(file.categories), () => {
    if (outlet.stopped()) throw new Error('stopped');
  });
  outlet.post({ kind: 'profile', profile: result });
  outlet.post({ kind: 'done' });
}

/** The later half of a statistics range (the pass counts the earlier one meanwhile). */
async function statsPart(file: Slog2File, range: readonly [number, number], from: number, outlet: BatchOutlet<DecoderToPass>): Promise<void> {
  const stop = new AbortController();
  const watch = setInterval(() => outlet.stopped() && stop.abort(new Error('stopped')), 50);
  try {
    outlet.post({ kind: 'statsPart', part: await statsPartOfFile(file, range, from, stop.signal) });
    outlet.post({ kind: 'done' });
  } finally {
    clearInterval(watch);
  }
}

/** UTF-8 bytes of `text` in a returned buffer when one is big enough (3 bytes a UTF-16 unit at most). */
function encoded(text: string): Uint8Array {
  const need = 3 * text.length;
  const i = textPool.findIndex((b) => b.length >= need);
  const into = i >= 0 ? textPool.splice(i, 1)[0]! : new Uint8Array(Math.max(need, 3 * DUMP_CHUNK + 3));
  const { written } = utf8.encodeInto(text, into);
  return into.subarray(0, written);
}

/** Dump parts (the pass writes them in order, between its own). */
async function dump(file: Slog2File, m: DecoderStart, job: NonNullable<DecoderStart['dump']>, outlet: BatchOutlet<DecoderToPass>): Promise<void> {
  // Opened again by path: a file replaced meanwhile would splice two traces' parts.
  if (file.source.size !== job.fileSize || file.timeOrderLeaves(m.t0, m.t1).length !== job.leafCount)
    throw new Error(`${m.path} changed while it was being dumped (${job.fileSize} -> ${file.source.size} bytes)`);
  const lines = new DumpLines(file.categories);
  for (let part = 0; part < job.parts.length; part++) {
    let held: string | undefined;
    const post = async (last: boolean): Promise<boolean> => {
      if (!(await outlet.room())) return false;
      const bytes = encoded(held ?? '');
      held = undefined;
      outlet.postBatch({ kind: 'dumpText', part, bytes, last }, [bytes.buffer as ArrayBuffer]);
      return true;
    };
    // One chunk held back, so the part's last one goes out marked as last.
    for await (const text of dumpPartText(file, lines, job.json, m.t0, m.t1, job.parts[part]!, DUMP_CHUNK)) {
      if (held !== undefined && !(await post(false))) return;
      held = text;
    }
    if (!(await post(true))) return;
  }
  outlet.post({ kind: 'dumpWarnings', warnings: file.warnings });
  outlet.post({ kind: 'done' });
}

async function run(m: DecoderStart, outlet: BatchOutlet<DecoderToPass>): Promise<void> {
  const source = await FileSource.open(m.path, { onThread: true });
  try {
    const file = await Slog2File.open(source);
    if (m.profile !== undefined) return await profile(file, m.profile, outlet);
    if (m.stats !== undefined) return await statsPart(file, m.stats.range, m.t0, outlet);
    if (m.dump !== undefined) return await dump(file, m, m.dump, outlet);
    let pending: WireBatch | undefined;
    const send = async (): Promise<boolean> => {
      if (!(await outlet.room())) return false;
      if (pending !== undefined) {
        outlet.postBatch({ kind: 'batch', batch: pending }, wireBuffers(pending));
        pending = undefined;
      }
      return true;
    };
    const { withLastAndInfo, withinNodes } = m;
    // Each leaf's rows are copied once, from its decoded nodes straight into the posted columns.
    for await (const leaf of leavesInTimeOrder(file, m.t0, m.t1, { withLastAndInfo, withinNodes, recycleNodes: true })) {
      const infoBytes = withLastAndInfo ? leaf.infoBytes() : 0;
      const full = pending !== undefined && (pending.rows + leaf.rows > pending.category.length || pending.infoUsed + infoBytes > pending.info.length);
      if (full && !(await send())) return;
      const w = pending ?? take(leaf.rows, infoBytes);
      const infoUsed = leaf.pack(w, w.rows, w.infoUsed, withLastAndInfo);
      pending = { ...w, rows: w.rows + leaf.rows, infoUsed };
      if (pending.rows >= POST_ROWS && !(await send())) return;
    }
    if (!(await send())) return;
    outlet.post({ kind: 'done' });
  } finally {
    await source.close();
  }
}

serveBatchThread({
  isInbox: isPassToDecoder,
  maxInFlight: MAX_IN_FLIGHT,
  run,
  recycled: (batch: WireBatch | Uint8Array) => (batch instanceof Uint8Array ? textPool.push(new Uint8Array(batch.buffer)) : pool.push(batch)),
  errorMessage: (error): DecoderToPass => ({ kind: 'error', error }),
});
