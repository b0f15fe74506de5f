/**
 * Source locations (CLOG2.md §10, CLOG.md §5): interned file/line values, the "pending location per
 * (world rank, thread)" rule of CLOG2 SRCLOC records, and locations carried in info values whose
 * format pairs a `file` key with a `line` key (e.g. `file %s line %d`).
 */
import { decodeInfo } from '../../model/infoFormat';
import type { Category, SourceLocation } from '../../model/types';

export class SourceSiteTable {
  /** file → line → location (no key string built per record: this runs once per SRCLOC record). */
  private readonly sites = new Map<string, Map<number, SourceLocation>>();
  private readonly recordSites = new Set<SourceLocation>();
  /** The last file looked up and its lines (SRCLOC records name a few files, each a repeated string). */
  private lastFile: string | undefined;
  private lastLines: Map<number, SourceLocation> | undefined;
  /** SRCLOC records read. */
  records = 0;

  /** Counts one SRCLOC record and returns its interned location. */
  record(file: string, line: number): SourceLocation {
    const loc = this.intern(file, line);
    this.records++;
    this.recordSites.add(loc);
    return loc;
  }

  /** One shared object per distinct (file, line). */
  intern(file: string, line: number): SourceLocation {
    let lines = file === this.lastFile ? this.lastLines : this.sites.get(file);
    if (lines === undefined) {
      lines = new Map();
      this.sites.set(file, lines);
    }
    this.lastFile = file;
    this.lastLines = lines;
    let loc = lines.get(line);
    if (loc === undefined) {
      loc = { file, line };
      lines.set(line, loc);
    }
    return loc;
  }

  /** Distinct (file, line) among SRCLOC records (info-derived locations not included). */
  get distinctSites(): number {
    return this.recordSites.size;
  }
}

/**
 * The most recent SRCLOC per (world rank, thread), taken by that process's next event record.
 * Keys are small (rank · threads + thread): an array slot each, so the million set/take pairs of
 * a large trace touch no hash table; other keys go to a Map.
 */
export class PendingLocations {
  private readonly slots: (SourceLocation | undefined)[] = [];
  private readonly others = new Map<number, SourceLocation>();
  private count = 0;

  get isEmpty(): boolean {
    return this.count === 0;
  }

  set(key: number, loc: SourceLocation): void {
    if (key >= 0 && key < SLOT_KEYS) {
      const slots = this.slots;
      while (slots.length <= key) slots.push(undefined);
      if (slots[key] === undefined) this.count++;
      slots[key] = loc;
    } else {
      if (!this.others.has(key)) this.count++;
      this.others.set(key, loc);
    }
  }

  /** Returns and clears the pending location of `key`. */
  take(key: number): SourceLocation | undefined {
    let loc: SourceLocation | undefined;
    if (key >= 0 && key < SLOT_KEYS) {
      loc = this.slots[key];
      if (loc !== undefined) this.slots[key] = undefined;
    } else {
      loc = this.others.get(key);
      if (loc !== undefined) this.others.delete(key);
    }
    if (loc !== undefined) this.count--;
    return loc;
  }
}

/** Keys below this use array slots. */
const SLOT_KEYS = 1 << 16;

const FILE_KEY = /(^|[^a-z])(file|filename|file_name|path)\s*[:=]?\s*$/i;
const LINE_KEY = /(^|[^a-z])(line|lineno|line_no|line_number)\s*[:=]?\s*$/i;

/**
 * Where the file and line values sit in a category's info, or undefined: the key before a
 * string value ends in "file" and the key before an integer value ends in "line".
 */
export interface InfoLocationSlots {
  readonly file: number;
  readonly line: number;
}

export function infoLocationSlots(keys: readonly string[], types: string): InfoLocationSlots | undefined {
  let file = -1;
  let line = -1;
  for (let i = 0; i < types.length && i < keys.length; i++) {
    const t = types[i];
    if (file < 0 && t === 's' && FILE_KEY.test(keys[i]!)) file = i;
    else if (line < 0 && (t === 'd' || t === 'h' || t === 'l') && LINE_KEY.test(keys[i]!)) line = i;
  }
  return file >= 0 && line >= 0 ? { file, line } : undefined;
}

/**
 * A file/line decoded from a drawable's info bytes when its category's format carries one
 * (`slots` from infoLocationSlots of the category's keys/types).
 */
export function sourceFromInfo(
  category: Category,
  slots: InfoLocationSlots | undefined,
  info: Uint8Array | undefined,
  table?: SourceSiteTable,
): SourceLocation | undefined {
  if (slots === undefined || info === undefined || info.length === 0) return undefined;
  const decoded = decodeInfo(info, category.infoTypes);
  const file = decoded.values[slots.file];
  const line = decoded.values[slots.line];
  if (typeof file !== 'string' || file === '' || line === undefined) return undefined;
  const n = Number(line);
  if (!Number.isSafeInteger(n) || n <= 0) return undefined;
  return table ? table.intern(file, n) : { file, line: n };
}
