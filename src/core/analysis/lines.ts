/**
 * Who a timeline (line ID) is: the process (world rank, thread) it belongs to and the communicator
 * it was drawn for. MPE's converter gives each (communicator, rank[, thread]) its own line ID and
 * describes them in the "Process(-Thread) View" and "Communicator(-Thread) View" Y maps; a rank's
 * states on its sub-communicator lines belong to the same process as those on its world line.
 */
import type { LineIDMap } from '../model/types';

export interface LineRoles {
  /** Dense index of the process (rank, thread) of a line ID; new line IDs get new locations. */
  location(lineID: number): number;
  /** "3" or "3.1" (rank.thread) for each location index. */
  readonly labels: readonly string[];
  /** The communicator of a line ID (0 when unknown). */
  comm(lineID: number): number;
  /** Rank of the line inside its communicator (the world rank when unknown). */
  commRank(lineID: number): number;
  /** Number of distinct ranks of a communicator (undefined when unknown). */
  commSize(comm: number): number | undefined;
  /** The line ID a location is shown on in the process view (its first line). */
  lineOf(location: number): number;
  /** Every line ID given a location so far, with its location (for another thread's lookups). */
  known(): { readonly lineIDs: Int32Array; readonly locations: Int32Array };
}

function findMap(maps: readonly LineIDMap[], first: string): LineIDMap | undefined {
  return maps.find((m) => m.columns[0] === first);
}

/** Line IDs below this are looked up in an array. */
const DENSE_LINES = 1 << 20;

export function lineRoles(maps: readonly LineIDMap[]): LineRoles {
  const proc = findMap(maps, 'world_rank');
  const comms = findMap(maps, 'commID');
  const threaded = proc !== undefined && proc.columns.length > 1;
  const byLine = new Map<number, { rank: number; thread: number }>();
  if (proc !== undefined) for (const r of proc.rows) byLine.set(r.lineID, { rank: r.path[0] ?? r.lineID, thread: threaded ? (r.path[1] ?? 0) : 0 });
  const commByLine = new Map<number, { comm: number; rank: number }>();
  const membersOf = new Map<number, Set<number>>();
  if (comms !== undefined) {
    for (const r of comms.rows) {
      const comm = r.path[0] ?? 0;
      const rank = r.path[1] ?? 0;
      commByLine.set(r.lineID, { comm, rank });
      let set = membersOf.get(comm);
      if (set === undefined) membersOf.set(comm, (set = new Set()));
      set.add(rank);
    }
  }
  const locationIndex = new Map<string, number>();
  const labels: string[] = [];
  const firstLine: number[] = [];
  // Line IDs are small non-negative numbers in practice: an array is the fast path (the Map's
  // lookup was ~2 % of a 1 GB analysis, asked once per drawable and pass).
  const dense: number[] = [];
  const cache = new Map<number, number>();
  const location = (lineID: number): number => {
    const near = lineID >= 0 && lineID < DENSE_LINES;
    const hit = near ? dense[lineID] : cache.get(lineID);
    if (hit !== undefined) return hit;
    const p = byLine.get(lineID) ?? { rank: lineID, thread: 0 };
    const key = threaded ? `${p.rank}.${p.thread}` : String(p.rank);
    let i = locationIndex.get(key);
    if (i === undefined) {
      i = labels.length;
      locationIndex.set(key, i);
      labels.push(key);
      firstLine.push(lineID);
    }
    if (near) dense[lineID] = i;
    else cache.set(lineID, i);
    return i;
  };
  // Locations in the order of the process view, so indices are stable and sorted by rank.
  if (proc !== undefined) for (const r of [...proc.rows].sort((a, b) => a.lineID - b.lineID)) location(r.lineID);
  return {
    location,
    labels,
    comm: (lineID) => commByLine.get(lineID)?.comm ?? 0,
    commRank: (lineID) => commByLine.get(lineID)?.rank ?? byLine.get(lineID)?.rank ?? lineID,
    commSize: (comm) => membersOf.get(comm)?.size,
    lineOf: (loc) => firstLine[loc] ?? loc,
    known: () => {
      const pairs: [number, number][] = [...cache];
      dense.forEach((loc, lineID) => pairs.push([lineID, loc]));
      return { lineIDs: Int32Array.from(pairs, (p) => p[0]), locations: Int32Array.from(pairs, (p) => p[1]) };
    },
  };
}
