/**
 * The part of a conversion's summary every record-stream converter (CLOG2, CLOG) fills the same
 * way from its category table, drawable builder and source-site table; each format adds its own
 * version, timeline maps, record counts and warnings.
 */
import type { DrawableBuilder } from './builder';
import type { CategoryTable } from './categories';
import type { ConversionSummary } from './result';
import type { SourceSiteTable } from './sourceLocations';

/** What the shared part reads of a converter at the end of its stream. */
export interface FinishedConverter {
  readonly categories: CategoryTable;
  readonly builder: DrawableBuilder;
  readonly locations: SourceSiteTable;
  readonly arrowCategory: number;
  readonly droppedRecords: number;
}

export type BuiltSummary = Pick<
  ConversionSummary,
  'categories' | 'categoryCounts' | 'timeRange' | 'drawables' | 'unmatched' | 'sourceLocations' | 'outOfOrder'
>;

/** Finishes the category table (call once) and reads the builder's counts and unmatched records. */
export function builtSummary(conv: FinishedConverter): BuiltSummary {
  const categories = conv.categories.finish();
  const b = conv.builder;
  const unmatched = b.unmatched(conv.arrowCategory);
  const openStates = [...unmatched.openStates]
    .sort((x, y) => x[0] - y[0])
    .map(([category, count]) => ({ category, name: conv.categories.entries[category]!.category.name, count }));
  return {
    categories,
    categoryCounts: conv.categories.counts(),
    timeRange: b.drawables > 0 ? [b.earliest, b.latest] : undefined,
    drawables: { total: b.drawables, state: b.states, arrow: b.arrows, event: b.events },
    unmatched: {
      reference: unmatched.reference,
      openStates,
      sends: unmatched.sends,
      receives: unmatched.receives,
      droppedFinals: unmatched.droppedFinals,
      droppedRecords: conv.droppedRecords,
      badTimes: b.badTimes,
    },
    sourceLocations: { records: conv.locations.records, sites: conv.locations.distinctSites },
    outOfOrder: b.reorder.lateArrivals,
  };
}
