/**
 * The host ↔ statistics-panel protocol (the "Statistics" webview view). Each message has a
 * string-literal `kind`. Statistics travel as the plain RangeStats objects of the format core.
 */
import type { InstanceRef, RangeStats } from '../core/stats/types';
import type { TableName } from '../core/stats/tables';

/** One message between a chosen sender and receiver (matrix cell click). */
export interface MessageItem {
  readonly send: number;
  readonly recv: number;
  readonly tag?: number;
  readonly size?: number;
}

//#region host → panel

/** No trace editor is active: show the empty state. */
export interface EmptyMessage {
  readonly kind: 'empty';
}

/** The active trace (or its selected range) changed; results for it follow. */
export interface TraceMessage {
  readonly kind: 'trace';
  readonly fileName: string;
  readonly timeRange: readonly [number, number];
  /** The range being computed: the whole trace or the timeline's selection. */
  readonly range: readonly [number, number];
  /** Column names of the first Y map (row labels), e.g. ["world_rank"]. */
  readonly rowColumns: readonly string[];
  /** The timeline shows the preview of a CLOG2 still converting: these statistics are of its first bytes. */
  readonly preview?: PreviewExtent;
}

/** Which input bytes a preview holds: its first `shownBytes` of `totalBytes`. */
export interface PreviewExtent {
  readonly shownBytes: number;
  readonly totalBytes: number;
}

/** A result: summary/approximate ones come first and are replaced by the exact one. */
export interface StatsResultMessage {
  readonly kind: 'stats';
  readonly stats: RangeStats;
}

export interface ProgressMessage {
  readonly kind: 'progress';
  readonly drawables: number;
  readonly fraction?: number;
}

export interface ErrorMessage {
  readonly kind: 'error';
  readonly message: string;
}

export interface MessagesListMessage {
  readonly kind: 'messages';
  readonly from: number;
  readonly to: number;
  readonly items: readonly MessageItem[];
  /** More messages exist than were listed. */
  readonly truncated: boolean;
}

/** Wait states of the same range (src/core/analysis): per pattern, per state name, and the critical path. */
export interface WaitsMessage {
  readonly kind: 'waits';
  readonly range: readonly [number, number];
  readonly patterns: readonly { readonly pattern: string; readonly time: number; readonly count: number; readonly max: number }[];
  /** Waiting seconds per state name (all patterns). */
  readonly byCategory: Readonly<Record<string, number>>;
  readonly criticalPath: { readonly length: number; readonly byCategory: Readonly<Record<string, number>> };
  readonly excludedReceiveBeforeSend: number;
}

export type HostToStats = EmptyMessage | TraceMessage | StatsResultMessage | ProgressMessage | ErrorMessage | MessagesListMessage | WaitsMessage;

//#endregion
//#region panel → host

export type StatsToHost =
  | { readonly kind: 'ready' }
  /** Save a table (CSV) or the whole result (JSON) through the save dialog. */
  | { readonly kind: 'export'; readonly format: 'csv' | 'json'; readonly table: TableName }
  | { readonly kind: 'copy'; readonly table: TableName }
  | { readonly kind: 'cancel' }
  /** Recompute for the whole trace (drop the timeline selection). */
  | { readonly kind: 'wholeTrace' }
  | { readonly kind: 'highlightCategory'; readonly index: number }
  | { readonly kind: 'revealRow'; readonly lineID: number }
  | { readonly kind: 'revealInstance'; readonly category: number; readonly instance: InstanceRef }
  | { readonly kind: 'listMessages'; readonly from: number; readonly to: number };

//#endregion

const TABLES: readonly string[] = ['categories', 'rows', 'pairs', 'tags', 'comms', 'sizes', 'durations'];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Validates a message from the webview (it is untrusted input). */
export function isStatsToHost(m: unknown): m is StatsToHost {
  if (!isRecord(m) || typeof m.kind !== 'string') return false;
  switch (m.kind) {
    case 'ready':
    case 'cancel':
    case 'wholeTrace':
      return true;
    case 'export':
      return (m.format === 'csv' || m.format === 'json') && typeof m.table === 'string' && TABLES.includes(m.table);
    case 'copy':
      return typeof m.table === 'string' && TABLES.includes(m.table);
    case 'highlightCategory':
      return num(m.index);
    case 'revealRow':
      return num(m.lineID);
    case 'revealInstance':
      return num(m.category) && isRecord(m.instance) && num(m.instance.earliest) && num(m.instance.latest) && num(m.instance.lineID);
    case 'listMessages':
      return num(m.from) && num(m.to);
    default:
      return false;
  }
}
