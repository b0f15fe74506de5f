/**
 * The tables written after the tree (SLOG2.md §4.3, §5, §12.3): the CategoryMap's records with
 * their summaries, and the Y maps completed with every lineID the drawables use.
 */
import type { Category, LineIDMap, LineIDMapRow, Topology } from '../../../model/types';
import { PREVIEW_ARROW, PREVIEW_EVENT, PREVIEW_STATE } from '../../../model/types';
import type { CategoryRecord } from './encode';
import type { IntSet } from './intSet';
import { topologyNumber, WEIGHT_STRIDE, W_CATEGORY, W_COUNT, W_EXCL, W_INCL, type NodeShadows } from './shadows';

const PREVIEW_CATEGORIES: readonly Category[] = [
  previewCategory(PREVIEW_EVENT, 'Preview_Event', 'event', [255, 255, 255, 191]),
  previewCategory(PREVIEW_ARROW, 'Preview_Arrow', 'arrow', [255, 255, 0, 255]),
  previewCategory(PREVIEW_STATE, 'Preview_State', 'state', [255, 255, 255, 191]),
];

function previewCategory(index: number, name: string, topology: Topology, rgba: [number, number, number, number]): Category {
  return { index, name, topology, rgba, modifiable: true, width: 5, infoKeys: [], infoTypes: '', methods: [] };
}

/** §4.3 + §12.3: used categories, the preview categories of used topologies, with summaries from the root's shadows. */
export function categoryRecords(all: Iterable<Category>, root: NodeShadows, usedCategories: IntSet, usedTopologies: number): CategoryRecord[] {
  const summaries = new Map<number, { incl: number; excl: number; count: number }>();
  const rootDuration = root.latest - root.earliest;
  const t = root.rows;
  for (let r = 0; r < t.count; r++) {
    const ratio = Math.fround((t.latest[r]! - t.earliest[r]!) / rootDuration);
    const ws = t.arena;
    const bits = t.arenaBits;
    const to = t.weightStart[r]! + t.weightCount[r]! * WEIGHT_STRIDE;
    for (let i = t.weightStart[r]!; i < to; i += WEIGHT_STRIDE) {
      const category = bits[i + W_CATEGORY]! | 0;
      const sum = summaries.get(category) ?? { incl: 0, excl: 0, count: 0 };
      sum.count += bits[i + W_COUNT]!;
      sum.incl = Math.fround(sum.incl + Math.fround(ws[i + W_INCL]! * ratio));
      sum.excl = Math.fround(sum.excl + Math.fround(ws[i + W_EXCL]! * ratio));
      summaries.set(category, sum);
    }
  }
  const records: CategoryRecord[] = [];
  const seen = new Set<number>();
  for (const c of PREVIEW_CATEGORIES) {
    if ((usedTopologies & (1 << topologyNumber(c.topology))) !== 0) records.push({ category: c, incl: 0, excl: 0, count: 0 });
  }
  for (const c of all) {
    if (c.index < 0 || seen.has(c.index) || !usedCategories.has(c.index)) continue;
    seen.add(c.index);
    const s = summaries.get(c.index);
    records.push({ category: c, incl: s?.incl ?? 0, excl: s?.excl ?? 0, count: s?.count ?? 0 });
  }
  const missing = usedCategories.values().filter((c) => !seen.has(c));
  if (missing.length > 0) throw new RangeError(`drawables use categories with no definition: ${missing.slice(0, 10).join(', ')}`);
  records.sort((a, b) => a.category.index - b.category.index);
  return records;
}

/** Every used lineID in every map (§5), plus the Identity Map when absent. */
export function completeMaps(given: readonly LineIDMap[], usedLineIDs: IntSet): { maps: LineIDMap[]; added: number } {
  const used = usedLineIDs.values();
  let added = 0;
  const maps = given.map((m) => {
    const have = new Set(m.rows.map((r) => r.lineID));
    const extra: LineIDMapRow[] = [];
    for (const id of used) if (!have.has(id)) extra.push({ lineID: id, path: m.columns.map(() => id) });
    added += extra.length;
    const rows = extra.length > 0 ? [...m.rows, ...extra] : [...m.rows];
    rows.sort((a, b) => a.lineID - b.lineID);
    return { ...m, rows };
  });
  if (!maps.some((m) => m.title === 'Identity Map')) {
    maps.push({ title: 'Identity Map', columns: ['LineID'], rows: used.map((id) => ({ lineID: id, path: [id] })), methods: [] });
  }
  return { maps, added };
}
