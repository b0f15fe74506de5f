/**
 * `mpe-trace dump` of a SLOG-2 file: formatting the text is most of a dump (number formatting
 * above all), so on a file on disk with enough to print the decoder thread (dist/decoder.js)
 * formats every other part (src/core/info/dumpLines.ts) while this thread formats the ones
 * between, and the parts are written in order: the same bytes as one thread, about twice as fast
 * on two cores. The thread's text waits, a few chunks at most, until its turn. Not for a file whose
 * upper nodes outweigh its leaves (a wide trace's shadows): both threads would read them.
 */
import { dumpInDecoderThread, bundledDecoderScript } from '../convert/decodeThread';
import type { Slog2File } from '../core/formats/slog2/slog2File';
import { DumpLines, dumpPartText, dumpParts } from '../core/info/dumpLines';
import { FileSource } from '../io/fileSource';

/** Leaf bytes to print below which no thread is started (it costs about what dumping a MB does). */
export const MIN_THREAD_DUMP_BYTES = 8 << 20;
/** Leaf bytes per part: a part's text (~1.6× its bytes) fits in the thread's chunks in flight, so both threads keep busy. */
export const DUMP_PART_BYTES = 1 << 20;
/** Characters per write. */
const CHUNK = 1 << 16;

export interface Slog2DumpOptions {
  readonly t0: number;
  readonly t1: number;
  readonly json: boolean;
  /** Writes text in order, resolving once it is written (its buffer may then be reused). */
  readonly write: (text: string | Uint8Array) => Promise<void>;
  /** The decoder thread's script (default: dist/decoder.js beside the running bundle). */
  readonly script?: string;
  /** 1: this thread alone; 2: with the decoder thread wherever it can run; default: by what is to be read (see above). */
  readonly threads?: 1 | 2;
  readonly partBytes?: number;
}

/**
 * Whether `leafBytes` of leaves in [t0, t1] are worth a second thread: enough to print, and not
 * outweighed by the upper nodes (a wide trace's shadows of thousands of timelines), which both
 * threads would read: twice the memory for a fifth off the time.
 */
function worthAThread(file: Slog2File, t0: number, t1: number, leafBytes: number): boolean {
  if (leafBytes < MIN_THREAD_DUMP_BYTES) return false;
  let upper = 0;
  for (let depth = 1; depth <= file.maxDepth && upper <= leafBytes; depth++) for (const node of file.nodesOverlapping(depth, t0, t1)) upper += node.size;
  return upper <= leafBytes;
}

/** Dumps the drawables of [t0, t1]; answers the warnings of the reading (each once). */
export async function dumpSlog2(file: Slog2File, o: Slog2DumpOptions): Promise<readonly string[]> {
  const leaves = file.timeOrderLeaves(o.t0, o.t1);
  const lines = new DumpLines(file.categories);
  const script = o.script ?? bundledDecoderScript();
  let bytes = 0;
  for (const leaf of leaves) bytes += leaf.size;
  const parts = dumpParts(leaves, o.partBytes ?? DUMP_PART_BYTES);
  const here = async (part: number): Promise<void> => {
    for await (const text of dumpPartText(file, lines, o.json, o.t0, o.t1, parts[part]!, CHUNK)) await o.write(text);
  };
  const source = file.source;
  const alone = script === undefined || !(source instanceof FileSource) || parts.length < 2;
  if (alone || o.threads === 1 || (o.threads === undefined && !worthAThread(file, o.t0, o.t1, bytes))) {
    for (let part = 0; part < parts.length; part++) await here(part);
    return file.warnings;
  }
  const theirParts = parts.filter((_, i) => i % 2 === 1);
  const thread = dumpInDecoderThread(script, source.name, o.t0, o.t1, { json: o.json, parts: theirParts, fileSize: source.size, leafCount: leaves.length });
  try {
    for (let part = 0; part < parts.length; part++) {
      if (part % 2 === 0) {
        await here(part);
        continue;
      }
      for (;;) {
        const m = await thread.next();
        if (m?.kind !== 'dumpText' || 2 * m.part + 1 !== part)
          throw new Error(`the decoder thread's dump of ${source.name} stopped before part ${part} of ${parts.length}`);
        await o.write(m.bytes);
        thread.written(m);
        if (m.last) break;
      }
    }
    const theirs = await thread.next();
    if (theirs?.kind !== 'dumpWarnings') throw new Error(`the decoder thread's dump of ${source.name} ended without its warnings`);
    if ((await thread.next()) !== undefined) throw new Error(`the decoder thread's dump of ${source.name} sent more than asked`);
    return [...new Set([...file.warnings, ...theirs.warnings])];
  } finally {
    await thread.close();
  }
}
