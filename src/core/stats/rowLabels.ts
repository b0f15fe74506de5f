/**
 * Timeline labels and communicators from the LineIDMaps (SLOG2.md §5): the label of a line ID is
 * its path in the first map (the default Y-axis view, e.g. "Process View": world rank); its
 * communicator is the commID column of a map that has one (the "Communicator View").
 */
import type { LineIDMap } from '../model/types';

export interface RowNaming {
  labelOf(lineID: number): string;
  commOf(lineID: number): number | undefined;
}

/** Column names without the leading "LineID ->" (columns may come as one string or split). */
function columnNames(map: LineIDMap): string[] {
  return map.columns.flatMap((c) => c.split(/\s+/)).filter((c) => c !== '' && c !== '->' && c.toLowerCase() !== 'lineid');
}

export function rowNaming(maps: readonly LineIDMap[]): RowNaming {
  const labels = new Map<number, string>();
  const first = maps[0];
  if (first !== undefined) for (const r of first.rows) labels.set(r.lineID, r.path.join(' '));
  const comms = new Map<number, number>();
  for (const m of maps) {
    const col = columnNames(m).findIndex((c) => /^comm_?id$/i.test(c));
    if (col < 0) continue;
    for (const r of m.rows) {
      const v = r.path[col];
      if (v !== undefined) comms.set(r.lineID, v);
    }
    break;
  }
  return {
    labelOf: (lineID) => labels.get(lineID) ?? String(lineID),
    commOf: (lineID) => comms.get(lineID),
  };
}
