/** `mpe-trace info` for SLOG-2: header facts plus one full pass over the real drawables. */
import { formatFromLayout } from '../model/infoFormat';
import type { Drawable } from '../model/types';
import type { Slog2File } from '../formats/slog2/slog2File';
import { readSourceLocations, sourceLocationCounts } from '../formats/srcloc/readSourceLocations';
import type { TraceInfo, TraceInfoCategory } from './traceInfo';

/**
 * Counts as the reference facts do: a composite is one drawable of its own category, counted in
 * `composite` and under its category's topology (members are not counted separately); lineIDs
 * are those of every vertex, composite members included. Source locations: the input trace's
 * record and site counts from our source-location table (docs/FORMATS.md); 0/0 for files written
 * by the reference converter, which has none.
 */
export async function slog2TraceInfo(file: Slog2File, options: { signal?: AbortSignal } = {}): Promise<TraceInfo> {
  const perCategory = new Map<number, number>();
  const lineIDs = new Set<number>();
  const drawables = { total: 0, state: 0, arrow: 0, event: 0, composite: 0 };
  const addLines = (d: Drawable) => {
    if (d.kind === 'primitive') for (const v of d.vertices) lineIDs.add(v.lineID);
    else for (const p of d.primitives) for (const v of p.vertices) lineIDs.add(v.lineID);
  };
  for await (const d of file.allDrawables(options)) {
    drawables.total++;
    if (d.kind === 'composite') drawables.composite++;
    const topology = file.categories.get(d.category)?.topology ?? 'state';
    drawables[topology]++;
    perCategory.set(d.category, (perCategory.get(d.category) ?? 0) + 1);
    addLines(d);
  }
  const categories: TraceInfoCategory[] = [...file.categories.values()]
    .filter((c) => c.index >= 0)
    .sort((a, b) => a.index - b.index)
    .map((c) => ({
      index: c.index,
      name: c.name,
      kind: c.topology,
      rgba: c.rgba,
      infoFormat: formatFromLayout(c.infoKeys, c.infoTypes) ?? null,
      drawables: perCategory.get(c.index) ?? 0,
    }));
  return {
    format: 'slog2',
    version: file.header.version,
    timeRange: file.timeRange,
    lineIDs: lineIDs.size,
    drawables,
    categories,
    sourceLocations: sourceLocationCounts(await readSourceLocations(file)),
  };
}
