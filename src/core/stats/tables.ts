/**
 * Serialisations of statistics shared by the CLI and the side panel: the `mpe-trace stats --json`
 * document, and flat tables (CSV, TSV) of every section.
 */
import type { RangeStats } from './types';
import { escapeControlsOnly, spreadsheetSafe } from '../text/safeText';

export type Cell = string | number | undefined;

export interface Table {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly Cell[])[];
}

export type TableName = 'categories' | 'rows' | 'pairs' | 'tags' | 'comms' | 'sizes' | 'durations';
export const TABLE_NAMES: readonly TableName[] = ['categories', 'rows', 'pairs', 'tags', 'comms', 'sizes', 'durations'];

/** The JSON document of `mpe-trace stats --json` (times in seconds; unknown values are null). */
export interface StatsJson {
  readonly kind: RangeStats['kind'];
  readonly range: readonly [number, number];
  /** Timelines in scope (the share's denominator is range length × timelines). */
  readonly timelines: number;
  /** States ending before they start, counted with duration 0. */
  readonly clampedStates: number;
  readonly categories: readonly {
    readonly name: string;
    readonly kind: string;
    readonly count: number;
    readonly inclusive: number;
    readonly exclusive: number;
    readonly min: number | null;
    readonly mean: number | null;
    readonly max: number | null;
    /** States: exclusive ÷ (range length × timelines); null for arrows and events. */
    readonly share: number | null;
    /** Arrows: Σ message bytes; null otherwise or when unknown. */
    readonly bytes: number | null;
  }[];
  readonly rows: readonly {
    readonly lineID: number;
    readonly label: string;
    readonly categories: readonly { readonly name: string; readonly inclusive: number; readonly exclusive: number; readonly count: number }[];
  }[];
  readonly messages: readonly { readonly from: number; readonly to: number; readonly count: number; readonly bytes: number }[];
  /** Beyond the shape: messages per tag, per sender communicator, and the log2 size distribution. */
  readonly messageTags: readonly { readonly tag: number; readonly count: number; readonly bytes: number }[];
  readonly messageComms: readonly { readonly comm: number; readonly count: number; readonly bytes: number }[];
  readonly messageSizes: readonly { readonly lower: number; readonly upper: number; readonly count: number }[];
}

export function statsJson(s: RangeStats): StatsJson {
  return {
    kind: s.kind,
    range: s.range,
    timelines: s.timelines,
    clampedStates: s.clampedStates,
    categories: s.categories.map((c) => ({
      name: c.name,
      kind: c.kind,
      count: c.count,
      inclusive: c.inclusive,
      exclusive: c.exclusive,
      min: c.min ?? null,
      mean: c.mean ?? null,
      max: c.max ?? null,
      share: c.share ?? null,
      bytes: c.bytes ?? null,
    })),
    rows: s.rows.map((r) => ({
      lineID: r.lineID,
      label: r.label,
      categories: r.categories.map((c) => ({ name: c.name, inclusive: c.inclusive, exclusive: c.exclusive, count: c.count })),
    })),
    messages: s.messages.pairs.map((p) => ({ from: p.from, to: p.to, count: p.count, bytes: p.bytes })),
    messageTags: s.messages.tags.map((t) => ({ tag: t.key, count: t.count, bytes: t.bytes })),
    messageComms: s.messages.comms.map((t) => ({ comm: t.key, count: t.count, bytes: t.bytes })),
    messageSizes: s.messages.sizes.map((b) => ({ lower: b.lower, upper: b.upper, count: b.count })),
  };
}

export function statsTable(s: RangeStats, name: TableName): Table {
  const names = new Map(s.categories.map((c) => [c.index, c.name]));
  switch (name) {
    case 'categories':
      return {
        columns: ['name', 'kind', 'count', 'bytes', 'inclusive', 'exclusive', 'min', 'mean', 'max', 'share'],
        rows: s.categories.map((c) => [c.name, c.kind, c.count, c.bytes, c.inclusive, c.exclusive, c.min, c.mean, c.max, c.share]),
      };
    case 'rows':
      return {
        columns: ['lineID', 'label', 'category', 'count', 'inclusive', 'exclusive'],
        rows: s.rows.flatMap((r) => r.categories.map((c) => [r.lineID, r.label, c.name, c.count, c.inclusive, c.exclusive])),
      };
    case 'pairs':
      return { columns: ['from', 'to', 'count', 'bytes'], rows: s.messages.pairs.map((p) => [p.from, p.to, p.count, p.bytes]) };
    case 'tags':
      return { columns: ['tag', 'count', 'bytes'], rows: s.messages.tags.map((t) => [t.key, t.count, t.bytes]) };
    case 'comms':
      return { columns: ['comm', 'count', 'bytes'], rows: s.messages.comms.map((t) => [t.key, t.count, t.bytes]) };
    case 'sizes':
      return { columns: ['lower_bytes', 'upper_bytes', 'count'], rows: s.messages.sizes.map((b) => [b.lower, b.upper, b.count]) };
    case 'durations':
      return {
        columns: ['category', 'lower_s', 'upper_s', 'count'],
        rows: s.durations.flatMap((h) => [
          ...(h.zero > 0 ? [[names.get(h.index) ?? String(h.index), 0, 0, h.zero] as Cell[]] : []),
          ...h.buckets.map((b) => [names.get(h.index) ?? String(h.index), b.lower, b.upper, b.count] as Cell[]),
        ]),
      };
  }
}

function csvField(v: Cell): string {
  if (v === undefined) return '';
  // Text from the trace: no formulas (=, +, -, @), no control characters (issue 14 §10, §11).
  const t = typeof v === 'number' ? String(v) : spreadsheetSafe(escapeControlsOnly(v));
  return /[",\n\r]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

/** RFC 4180 CSV with a header line; unknown values are empty fields. */
export function toCsv(t: Table): string {
  return [t.columns, ...t.rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** Tab-separated (what spreadsheets paste); tabs and newlines inside fields become spaces. */
export function toTsv(t: Table): string {
  const field = (v: Cell): string =>
    v === undefined ? '' : typeof v === 'number' ? String(v) : spreadsheetSafe(escapeControlsOnly(v.replace(/[\t\r\n]/g, ' ')));
  return [t.columns, ...t.rows].map((r) => r.map(field).join('\t')).join('\n') + '\n';
}
