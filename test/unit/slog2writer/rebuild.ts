// Feeds the real drawables of a reference .slog2 to our writer in arrival order (SLOG2.md §8, §21).
import type { Drawable } from '../../../src/core/model/types';
import { MemorySource } from '../../../src/core/bytes/memorySource';
import { Slog2File } from '../../../src/core/formats/slog2/slog2File';
import { MemorySink, Slog2Writer, type Slog2WriteSummary } from '../../../src/core/formats/slog2/writer';

/** Arrival order: latest ascending, ties earliest descending, then drawing order of the rest. */
export function arrivalOrder(a: Drawable, b: Drawable): number {
  if (a.latest !== b.latest) return a.latest - b.latest;
  if (a.earliest !== b.earliest) return b.earliest - a.earliest;
  return 0;
}

export async function allDrawablesOf(file: Slog2File): Promise<Drawable[]> {
  const out: Drawable[] = [];
  for await (const d of file.allDrawables()) out.push(d);
  return out;
}

export interface Rebuilt {
  readonly bytes: Uint8Array;
  readonly summary: Slog2WriteSummary;
  readonly file: Slog2File;
}

export async function rebuild(reference: Slog2File, drawables: readonly Drawable[], options: { children?: number; leafBytes?: number } = {}): Promise<Rebuilt> {
  const sink = new MemorySink();
  const cats = reference.categories;
  const writer = new Slog2Writer(sink, {
    childrenPerNode: options.children ?? reference.header.numChildrenPerNode,
    leafBytes: options.leafBytes ?? reference.header.treeLeafByteSize,
    topologyOf: (c) => cats.get(c)?.topology,
  });
  for (const d of drawables) writer.add(d);
  const summary = await writer.finish({ categories: cats.values(), lineIDMaps: reference.lineIDMaps });
  const bytes = sink.bytes();
  const file = await Slog2File.open(new MemorySource('rebuilt.slog2', bytes));
  return { bytes, summary, file };
}
