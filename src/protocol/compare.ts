/**
 * The host ↔ Compare-panel protocol (the "Compare" webview view). Each message has a string-literal
 * `kind`. The difference travels as the plain RunDiff of the core; iterations as their durations.
 */
import type { RunDiff } from '../core/compare/diff';
import type { DiffBy } from '../core/compare/diffTables';

/** How B's time is put on A's: B time = A time + shift. */
export type Alignment =
  { readonly mode: 'start' } | { readonly mode: 'iteration'; readonly iteration: number } | { readonly mode: 'category'; readonly name: string };

export interface RunIterations {
  readonly marker: string | null;
  readonly durations: readonly number[];
  readonly outlierIterations: readonly number[];
  readonly outlierRanks: readonly string[];
}

//#region host → panel

/** No comparison is open: show how to start one. */
export interface NoCompareMessage {
  readonly kind: 'none';
}

/** The pair being compared (results follow with `diff`). */
export interface PairMessage {
  readonly kind: 'pair';
  readonly a: string;
  readonly b: string;
  readonly alignment: Alignment;
  /** B time − A time for the alignment in force (seconds). */
  readonly shift: number;
  /** Categories both runs have (choices for aligning by a category's first instance). */
  readonly categories: readonly string[];
}

export interface DiffMessage {
  readonly kind: 'diff';
  readonly diff: RunDiff;
  readonly iterations: { readonly a: RunIterations; readonly b: RunIterations };
}

export interface CompareProgressMessage {
  readonly kind: 'progress';
  readonly text: string;
}

export interface CompareErrorMessage {
  readonly kind: 'error';
  readonly message: string;
}

export type HostToCompare = NoCompareMessage | PairMessage | DiffMessage | CompareProgressMessage | CompareErrorMessage;

//#endregion

//#region panel → host

export interface CompareReadyMessage {
  readonly kind: 'ready';
}

/**
 * Highlight a category (and show a rank's row) in both timelines, or the drawables of one call site
 * (`site`: an index into the `sites` of the last `diff`, never a path from the panel); nothing clears.
 */
export interface HighlightMessage {
  readonly kind: 'highlight';
  readonly category?: string;
  readonly rank?: string;
  readonly site?: number;
}

export interface AlignMessage {
  readonly kind: 'align';
  readonly alignment: Alignment;
}

/** Open a compared call site: `index` into the `sites` of the last `diff` (never a path from the panel). */
export interface OpenSiteMessage {
  readonly kind: 'openSite';
  readonly index: number;
}

export interface ExportMessage {
  readonly kind: 'export';
  readonly by: DiffBy;
  readonly format: 'csv' | 'json';
}

export type CompareToHost = CompareReadyMessage | HighlightMessage | AlignMessage | OpenSiteMessage | ExportMessage;

//#endregion

const KINDS = new Set(['ready', 'highlight', 'align', 'openSite', 'export']);

export function isCompareToHost(m: unknown): m is CompareToHost {
  if (typeof m !== 'object' || m === null) return false;
  const r = m as { kind?: unknown; alignment?: { mode?: unknown }; index?: unknown; by?: unknown; format?: unknown };
  if (!KINDS.has(r.kind as string)) return false;
  if (r.kind === 'align')
    return typeof r.alignment === 'object' && r.alignment !== null && ['start', 'iteration', 'category'].includes(r.alignment.mode as string);
  if (r.kind === 'openSite') return isIndex(r.index);
  if (r.kind === 'highlight') {
    const h = m as { category?: unknown; rank?: unknown; site?: unknown };
    const text = (v: unknown): boolean => v === undefined || (typeof v === 'string' && v.length <= 4096);
    return text(h.category) && text(h.rank) && (h.site === undefined || isIndex(h.site));
  }
  if (r.kind === 'export') return ['category', 'site', 'rank'].includes(r.by as string) && (r.format === 'csv' || r.format === 'json');
  return true;
}

function isIndex(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}
