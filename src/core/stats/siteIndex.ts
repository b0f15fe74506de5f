/**
 * Per-site statistics of a time range, computed in one pass over the drawables, and an index by
 * file so that the numbers of one source file (its CodeLenses, hovers) are a map lookup: the
 * source → trace direction of TraceVis §2.4 (`mpe-trace stats --by site`, the editor's lenses).
 */
import type { Drawable } from '../model/types';
import { SiteStatsAccumulator, type SiteStat, type SiteStatsMeta } from './siteStats';
import type { Table } from './tables';

/** Everything the source side needs about one range. */
export interface SiteProfile {
  readonly range: readonly [number, number];
  /** Distinct timelines (line IDs) with a drawable in the range: the denominator of a share. */
  readonly timelines: number;
  /** Sorted by file, then line. */
  readonly sites: readonly SiteStat[];
}

export async function computeSiteProfile(
  meta: () => SiteStatsMeta,
  drawables: AsyncIterable<Drawable>,
  range: readonly [number, number],
  /** `lines`: only drawables that start on these timelines (a region of rows); all when absent. */
  options: { signal?: AbortSignal; lines?: ReadonlySet<number> } = {},
): Promise<SiteProfile> {
  const lines = options.lines;
  let acc: SiteStatsAccumulator | undefined;
  const lineIDs = new Set<number>();
  let lo = Infinity;
  let hi = -Infinity;
  for await (const d of drawables) {
    options.signal?.throwIfAborted();
    acc ??= new SiteStatsAccumulator(meta(), range);
    if (d.earliest > range[1] || d.latest < range[0]) continue;
    if (lines !== undefined && !lines.has((d.kind === 'composite' ? d.primitives[0]?.vertices[0] : d.vertices[0])?.lineID ?? -1)) continue;
    if (d.earliest < lo) lo = d.earliest;
    if (d.latest > hi) hi = d.latest;
    const prims = d.kind === 'composite' ? d.primitives : [d];
    for (const p of prims) for (const v of p.vertices) lineIDs.add(v.lineID);
    acc.add(d);
  }
  const open = !Number.isFinite(range[0]) || !Number.isFinite(range[1]);
  const seen: readonly [number, number] = open && lo <= hi ? [Math.max(lo, range[0]), Math.min(hi, range[1])] : range;
  return { range: seen, timelines: lineIDs.size, sites: acc?.result() ?? [] };
}

/** Share of a site's time: its total ÷ (range length × timelines), as the statistics panel's share. */
export function siteShare(site: SiteStat, profile: Pick<SiteProfile, 'range' | 'timelines'>): number {
  const capacity = (profile.range[1] - profile.range[0]) * profile.timelines;
  return capacity > 0 ? site.total / capacity : 0;
}

/** Sites by file (as recorded in the trace), each file's sites sorted by line. */
export class SiteIndex {
  private readonly byFile = new Map<string, SiteStat[]>();
  private readonly byKey = new Map<string, SiteStat>();

  constructor(readonly profile: SiteProfile) {
    for (const s of profile.sites) {
      let list = this.byFile.get(s.file);
      if (list === undefined) this.byFile.set(s.file, (list = []));
      list.push(s);
      this.byKey.set(siteKey(s.file, s.line), s);
    }
    for (const list of this.byFile.values()) list.sort((a, b) => a.line - b.line);
  }

  /** Recorded file names. */
  files(): string[] {
    return [...this.byFile.keys()];
  }

  /** The sites of one recorded file, by line (empty when it has none). */
  sitesOf(file: string): readonly SiteStat[] {
    return this.byFile.get(file) ?? [];
  }

  get(file: string, line: number): SiteStat | undefined {
    return this.byKey.get(siteKey(file, line));
  }
}

export function siteKey(file: string, line: number): string {
  return `${line}\u0000${file}`;
}

/** The `mpe-trace stats --by site` table (text and CSV). */
export function siteTable(profile: SiteProfile): Table {
  return {
    columns: ['file', 'line', 'count', 'total', 'mean', 'min', 'max', 'share', 'worstRank'],
    rows: profile.sites.map((s) => [s.file, s.line, s.count, s.total, s.mean, s.min, s.max, siteShare(s, profile), s.worstRank]),
  };
}

/** The `mpe-trace stats --by site --json` document. */
export function siteJson(profile: SiteProfile): object {
  return {
    range: profile.range,
    timelines: profile.timelines,
    sites: profile.sites.map((s) => ({
      file: s.file,
      line: s.line,
      count: s.count,
      total: s.total,
      mean: s.mean,
      min: s.min,
      max: s.max,
      share: siteShare(s, profile),
      worstRank: s.worstRank,
      byCategory: s.byCategory,
      byRank: s.byRank,
    })),
  };
}
