/**
 * Statistics per recorded source line ("site"): the source → trace direction (TraceVis §2.4) and the
 * per-site rows of run comparison. A drawable counts once for each distinct site among its start and
 * end locations; its duration (clipped to the range, 0 for events and for an end before its start,
 * as CLOG2.md says) adds to that site's total. Composites count through their members.
 */
import type { Drawable, LineIDMap, Primitive, SourceLocation } from '../model/types';
import { rowNaming, type RowNaming } from './rowLabels';

/** Count, total and the spread of durations of one part (a category, a rank) of a site. */
export interface SitePartStat {
  readonly count: number;
  readonly total: number;
  readonly min: number;
  readonly median: number;
  readonly max: number;
}

export interface SiteRankStat extends SitePartStat {
  readonly rank: string;
}

export interface SiteStat {
  readonly file: string;
  readonly line: number;
  /** Drawables whose start or end location is this site. */
  readonly count: number;
  /** Σ their durations clipped to the range (seconds). */
  readonly total: number;
  /** total / count (0 when count is 0). */
  readonly mean: number;
  readonly min: number;
  readonly max: number;
  /** The timeline (label, e.g. world rank) with the largest total at this site. */
  readonly worstRank: string;
  /** Per category name: count, total and min / median / max duration at this site. */
  readonly byCategory: Readonly<Record<string, SitePartStat>>;
  /** Per timeline label, sorted by total, descending. */
  readonly byRank: readonly SiteRankStat[];
}

interface SiteCell {
  readonly file: string;
  readonly line: number;
  count: number;
  total: number;
  min: number;
  max: number;
  readonly byCategory: Map<string, Part>;
  readonly byRank: Map<string, Part>;
}

/** Durations are kept for the medians (one number per drawable and part). */
interface Part {
  count: number;
  total: number;
  readonly durations: number[];
}

export interface SiteStatsMeta {
  readonly categories: ReadonlyMap<number, { readonly name: string }>;
  readonly lineIDMaps: readonly LineIDMap[];
}

/** Accumulates per-site numbers over drawables of [t0, t1]; drawables outside the range are ignored. */
export class SiteStatsAccumulator {
  private readonly cells = new Map<string, Map<number, SiteCell>>();
  private readonly naming: RowNaming;

  constructor(
    private readonly meta: SiteStatsMeta,
    private readonly range: readonly [number, number],
  ) {
    this.naming = rowNaming(meta.lineIDMaps);
  }

  add(d: Drawable): void {
    if (d.kind === 'composite') for (const p of d.primitives) this.addPrimitive(p);
    else this.addPrimitive(d);
  }

  private addPrimitive(p: Primitive): void {
    const [t0, t1] = this.range;
    if (p.earliest > t1 || p.latest < t0) return;
    const start = p.source?.start;
    const end = p.source?.end;
    if (start === undefined && end === undefined) return;
    const clip = Math.max(0, Math.min(p.latest, t1) - Math.max(p.earliest, t0));
    const duration = Number.isFinite(clip) ? clip : 0;
    const rank = this.naming.labelOf(p.vertices[0]?.lineID ?? -1);
    const name = this.meta.categories.get(p.category)?.name ?? `category ${p.category}`;
    if (start !== undefined) this.addTo(start, name, rank, duration);
    if (end !== undefined && (start === undefined || end.file !== start.file || end.line !== start.line)) this.addTo(end, name, rank, duration);
  }

  private addTo(site: SourceLocation, category: string, rank: string, duration: number): void {
    let byLine = this.cells.get(site.file);
    if (byLine === undefined) this.cells.set(site.file, (byLine = new Map()));
    let c = byLine.get(site.line);
    if (c === undefined) {
      c = { file: site.file, line: site.line, count: 0, total: 0, min: Infinity, max: -Infinity, byCategory: new Map(), byRank: new Map() };
      byLine.set(site.line, c);
    }
    c.count++;
    c.total += duration;
    if (duration < c.min) c.min = duration;
    if (duration > c.max) c.max = duration;
    bump(c.byCategory, category, duration);
    bump(c.byRank, rank, duration);
  }

  /** Sites sorted by file, then line. */
  result(): SiteStat[] {
    const out: SiteStat[] = [];
    const files = [...this.cells.keys()].sort();
    for (const file of files) {
      const byLine = this.cells.get(file)!;
      const lines = [...byLine.keys()].sort((a, b) => a - b);
      for (const line of lines) out.push(finish(byLine.get(line)!));
    }
    return out;
  }
}

function bump(m: Map<string, Part>, key: string, duration: number): void {
  const e = m.get(key);
  if (e === undefined) m.set(key, { count: 1, total: duration, durations: [duration] });
  else {
    e.count++;
    e.total += duration;
    e.durations.push(duration);
  }
}

/** Min, median (mean of the two middle values for an even count) and max. */
export function spread(values: readonly number[]): { min: number; median: number; max: number } {
  if (values.length === 0) return { min: 0, median: 0, max: 0 };
  const v = Float64Array.from(values).sort();
  const mid = v.length >> 1;
  const median = v.length % 2 === 1 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
  return { min: v[0]!, median, max: v[v.length - 1]! };
}

function partStat(p: Part): SitePartStat {
  return { count: p.count, total: p.total, ...spread(p.durations) };
}

function finish(c: SiteCell): SiteStat {
  const byRank: SiteRankStat[] = [...c.byRank.entries()].map(([rank, v]) => ({ rank, ...partStat(v) }));
  byRank.sort((a, b) => b.total - a.total || compareLabels(a.rank, b.rank));
  const byCategory: Record<string, SitePartStat> = {};
  for (const name of [...c.byCategory.keys()].sort()) byCategory[name] = partStat(c.byCategory.get(name)!);
  return {
    file: c.file,
    line: c.line,
    count: c.count,
    total: c.total,
    mean: c.count > 0 ? c.total / c.count : 0,
    min: c.count > 0 ? c.min : 0,
    max: c.count > 0 ? c.max : 0,
    worstRank: byRank[0]?.rank ?? '',
    byCategory,
    byRank,
  };
}

/** Numeric labels in numeric order ("2" before "10"), others as text. */
export function compareLabels(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  if (a !== '' && b !== '' && Number.isFinite(x) && Number.isFinite(y)) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}
