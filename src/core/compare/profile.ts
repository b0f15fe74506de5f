/**
 * One pass over a run's drawables (in start-time order) computes everything a comparison needs:
 * the range statistics (per category and timeline), the per-site numbers and the iterations.
 *
 * The trace's categories and timeline maps are asked for only when the first drawable has arrived:
 * a CLOG2 stream knows its category names only after its definitions (at the end of the file).
 */
import type { Category, Drawable, LineIDMap } from '../model/types';
import { batchesOf, computeRangeStats } from '../stats/compute';
import { rowNaming } from '../stats/rowLabels';
import { SiteStatsAccumulator } from '../stats/siteStats';
import type { RangeStats } from '../stats/types';
import type { RunProfile } from './diff';
import { IterationCollector, type Iterations } from './iterations';

export interface RunMeta {
  readonly categories: ReadonlyMap<number, Category>;
  readonly lineIDMaps: readonly LineIDMap[];
}

export interface ProfileOptions {
  readonly signal?: AbortSignal;
  /** Iteration marker category (default: found from the first timeline). */
  readonly marker?: string;
}

export interface FullRunProfile extends RunProfile {
  readonly iterations: Iterations;
  /** Start of each category's first instance in the range, by category name (alignment by an instance). */
  readonly firstStarts: Readonly<Record<string, number>>;
}

export async function profileRun(
  meta: () => RunMeta,
  drawables: AsyncIterable<Drawable>,
  range: readonly [number, number],
  options: ProfileOptions = {},
): Promise<FullRunProfile> {
  const it = drawables[Symbol.asyncIterator]();
  const first = await it.next();
  const m = meta();
  const sites = new SiteStatsAccumulator(m, range);
  const naming = rowNaming(m.lineIDMaps);
  const iterations = new IterationCollector({ categories: m.categories, labelOf: naming.labelOf });
  const firstByCategory = new Map<number, number>();
  const noteFirst = (category: number, t: number): void => {
    if (t >= range[0] && t <= range[1] && !(t >= (firstByCategory.get(category) ?? Infinity))) firstByCategory.set(category, t);
  };
  let lo = Infinity;
  let hi = -Infinity;
  async function* tee(): AsyncGenerator<Drawable> {
    let next = first;
    while (next.done !== true) {
      const d = next.value;
      if (d.earliest < lo) lo = d.earliest;
      if (d.latest > hi) hi = d.latest;
      if (d.kind === 'composite') for (const p of d.primitives) noteFirst(p.category, p.earliest);
      else noteFirst(d.category, d.earliest);
      sites.add(d);
      if (d.earliest <= range[1] && d.latest >= range[0]) iterations.add(d);
      yield d;
      next = await it.next();
    }
  }
  const computed: RangeStats = await computeRangeStats(m, batchesOf(tee(), { ordered: true }), range, { signal: options.signal });
  // An open range (a stream whose extent is known only at its end) reports the extent it saw.
  const open = !Number.isFinite(range[0]) || !Number.isFinite(range[1]);
  const stats = open && lo <= hi ? { ...computed, range: [Math.max(lo, range[0]), Math.min(hi, range[1])] as const } : computed;
  const firstStarts: Record<string, number> = {};
  for (const [category, t] of firstByCategory) {
    const name = m.categories.get(category)?.name;
    if (name !== undefined && !(t >= (firstStarts[name] ?? Infinity))) firstStarts[name] = t;
  }
  return { stats, sites: sites.result(), iterations: iterations.result(options.marker), firstStarts };
}
