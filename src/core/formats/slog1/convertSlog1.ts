/**
 * SLOG-1 → drawables (SLOG1.md §9): every interval once, from the CUR and INC sectors of the
 * frames (the PAS/OUT pseudo-records are copies). States keep their stored start and duration
 * (end = start + duration); forward arrows go from the origin task at the start time to the
 * destination task at the end; backward arrows (clog2slog's receive-before-send case, stored from
 * the receiver) are turned back into send → receive. Categories are the display profile's
 * entries in order (label, X11 colour; stipple bitmaps after ':' are dropped); line IDs are the
 * thread table's nodes. Frames are read one at a time; drawables leave in SLOG-2 arrival order.
 */
import type { ByteSource } from '../../bytes/byteSource';
import { isFormatError } from '../../bytes/formatError';
import { identityMap } from '../convert/lineIDs';
import { DefaultPalette } from '../convert/palette';
import { ReorderBuffer } from '../convert/reorder';
import { cutPatternSuffix } from '../convert/categories';
import { makeConversion, type ClogConversion, type ConversionSummary, type ConvertOptions } from '../convert/result';
import { x11Color } from '../convert/x11Colors';
import type { Category, LineIDMap, Primitive, Topology } from '../../model/types';
import type { Slog1ProfileEntry } from './facts';
import { isArrowRectype, Slog1File, type Slog1Record } from './slog1File';

const MAX_WARNINGS = 1000;

/** Whether a display-profile entry describes arrows ("message" in clog2slog's files). */
export function isArrowClass(classtype: string): boolean {
  return /message|arrow/i.test(classtype);
}

/** clog2slog's backward arrow: a receive logged before its send, stored from the receiver. */
function isBackward(entry: Slog1ProfileEntry | undefined): boolean {
  return entry !== undefined && /backward/i.test(entry.label);
}

class Slog1Categories {
  readonly list: Category[] = [];
  readonly counts = new Map<number, number>();
  private readonly byKey = new Map<string, number>();
  private readonly palette = new DefaultPalette();

  constructor(
    readonly profile: readonly Slog1ProfileEntry[],
    private readonly warn: (key: string, text: string) => void,
  ) {
    for (const e of profile) this.add(e.intvltype, isArrowClass(e.classtype) ? 'arrow' : 'state', e.label, e.color);
  }

  private add(intvltype: number, topology: Topology, name: string, color: string | undefined): number {
    const index = this.list.length;
    const rgb = color === undefined ? undefined : x11Color(cutPatternSuffix(color).toLowerCase());
    if (color !== undefined && rgb === undefined) this.warn(`colour${color}`, `unknown colour name "${color}" for ${name}; using a palette colour`);
    this.list.push({
      index,
      name,
      topology,
      rgba: rgb === undefined ? this.palette.next() : [rgb[0], rgb[1], rgb[2], 255],
      modifiable: true,
      width: topology === 'arrow' ? 3 : 1,
      infoKeys: [],
      infoTypes: '',
      methods: [],
    });
    const key = `${intvltype}:${topology}`;
    if (!this.byKey.has(key)) this.byKey.set(key, index);
    return index;
  }

  /** The category of a record: its profile entry with the record's shape (arrow or state). */
  of(intvltype: number, topology: Topology): number {
    const i = this.byKey.get(`${intvltype}:${topology}`);
    if (i !== undefined) return i;
    const entry = this.profile.find((e) => e.intvltype === intvltype);
    if (entry === undefined)
      this.warn(`type${intvltype}`, `records of interval type ${intvltype} have no display-profile entry; shown as UnknownType-${this.list.length}`);
    else
      this.warn(
        `shape${intvltype}`,
        `records of interval type ${intvltype} ("${entry.label}", ${entry.classtype}) are ${topology}s; shown in a separate ${topology} category`,
      );
    return this.add(intvltype, topology, entry?.label ?? `UnknownType-${this.list.length}`, entry?.color);
  }
}

/** Line IDs: the node when every thread is 0 (clog2slog), else the thread-table position of (node, thread). */
class Slog1Lines {
  readonly used = new Set<number>();
  private readonly byTask = new Map<number, number>();
  readonly threaded: boolean;
  private readonly rows: { node: number; thread: number }[] = [];

  constructor(threads: readonly { node: number; thread: number }[]) {
    this.threaded = threads.some((t) => t.thread !== 0);
    if (this.threaded) for (const t of threads) this.lineOf(t.node, t.thread);
  }

  lineOf(node: number, thread: number): number {
    if (!this.threaded) return node;
    const key = node * 4294967296 + thread;
    let id = this.byTask.get(key);
    if (id === undefined) {
      id = this.rows.length;
      this.rows.push({ node, thread });
      this.byTask.set(key, id);
    }
    return id;
  }

  maps(): LineIDMap[] {
    const ids = [...this.used].sort((a, b) => a - b);
    const view: LineIDMap = this.threaded
      ? {
          title: 'Process-Thread View',
          columns: ['node', 'thread'],
          rows: ids.map((lineID) => ({ lineID, path: [this.rows[lineID]!.node, this.rows[lineID]!.thread] })),
          methods: [],
        }
      : { title: 'Process View', columns: ['node'], rows: ids.map((lineID) => ({ lineID, path: [lineID] })), methods: [] };
    return [view, identityMap(ids)];
  }
}

/** Converts an opened SLOG-1 file into drawables; the caller closes the file. */
export function convertSlog1(file: Slog1File, options: ConvertOptions): ClogConversion {
  const warnings: string[] = [];
  const warned = new Set<string>();
  const warn = (key: string, text: string): void => {
    if (warned.has(key) || warnings.length >= MAX_WARNINGS) return;
    warned.add(key);
    warnings.push(`${file.name}: ${text}`);
  };
  const categories = new Slog1Categories(file.profile, warn);
  const lines = new Slog1Lines(file.threads);
  const reorder = new ReorderBuffer();
  const sectorRecords = { CUR: 0, INC: 0, PAS: 0, OUT: 0 };
  const drawables = { total: 0, state: 0, arrow: 0, event: 0 };
  /** Records left out for other reasons than their times (none at present; the summary keeps the field). */
  const dropped = 0;
  /** Records with a NaN/±∞ start or end: left out and counted (issue 14: never silently). */
  let badTimes = 0;
  let earliest = Infinity;
  let latest = -Infinity;
  let summary: ConversionSummary | undefined;

  const toPrimitive = (r: Slog1Record): Primitive | undefined => {
    const end = r.start + r.duration;
    if (!Number.isFinite(r.start) || !Number.isFinite(end)) {
      badTimes++;
      warn('time', `record at byte ${r.offset} has a non-finite time (start ${r.start}, duration ${r.duration}); skipped`);
      return undefined;
    }
    if (r.duration < 0) warn('negative', `record at byte ${r.offset} has a negative duration ${r.duration}`);
    const arrow = isArrowRectype(r.rectype);
    const category = categories.of(r.intvltype, arrow ? 'arrow' : 'state');
    const from = lines.lineOf(r.origin.node, r.origin.thread);
    let vertices;
    if (!arrow)
      vertices = [
        { time: r.start, lineID: from },
        { time: end, lineID: from },
      ];
    else {
      const to = lines.lineOf(r.dest!.node, r.dest!.thread);
      vertices = isBackward(file.profile.find((e) => e.intvltype === r.intvltype))
        ? [
            { time: end, lineID: to },
            { time: r.start, lineID: from },
          ]
        : [
            { time: r.start, lineID: from },
            { time: end, lineID: to },
          ];
    }
    for (const v of vertices) lines.used.add(v.lineID);
    const p: Primitive = {
      kind: 'primitive',
      category,
      vertices,
      earliest: Math.min(r.start, end),
      latest: Math.max(r.start, end),
      info: undefined,
      source: undefined,
    };
    if (p.earliest < earliest) earliest = p.earliest;
    if (p.latest > latest) latest = p.latest;
    categories.counts.set(category, (categories.counts.get(category) ?? 0) + 1);
    drawables.total++;
    drawables[arrow ? 'arrow' : 'state']++;
    return p;
  };

  async function* run(): AsyncGenerator<readonly Primitive[]> {
    const frames = file.frames;
    // A frame's real records end after every earlier frame's end; release up to the smallest later start.
    const laterStart: number[] = new Array<number>(frames.length + 1);
    laterStart[frames.length] = Infinity;
    for (let k = frames.length - 1; k >= 0; k--) laterStart[k] = Math.min(frames[k]!.start, laterStart[k + 1]!);
    let lostFrame = false;
    for (let k = 0; k < frames.length; k++) {
      options.signal?.throwIfAborted();
      let fr;
      try {
        fr = await file.readFrame(k);
      } catch (e) {
        // A truncated file's last frame may be cut: keep what the complete frames gave.
        if (!(file.truncated && isFormatError(e) && frames[k]!.offset + file.header.frameBytes > file.source.size)) throw e;
        warn('cut', `frame ${k} is cut by the end of the file (${e.message}); its records are lost`);
        lostFrame = true;
        break;
      }
      for (const r of fr.records) {
        sectorRecords[r.sector]++;
        if (r.sector !== 'CUR' && r.sector !== 'INC') continue;
        const p = toPrimitive(r);
        if (p !== undefined) reorder.push(p);
      }
      const out: Primitive[] = [];
      reorder.releaseBefore(Math.min(fr.frame.end, laterStart[k + 1]!), out);
      options.onProgress?.(Math.min(file.source.size, fr.frame.offset + file.header.frameBytes));
      if (out.length > 0) yield out;
    }
    const out: Primitive[] = [];
    reorder.releaseAll(out);
    if (reorder.lateArrivals > 0) warn('order', `${reorder.lateArrivals} records end before records of an earlier frame (frame directory out of order)`);
    const records: Record<string, number> = { frames: frames.length, ...sectorRecords };
    const used = categories.list.filter((c) => categories.counts.has(c.index));
    const lineIDs = [...lines.used].sort((a, b) => a - b);
    summary = {
      format: 'slog1',
      version: `SLOG ${file.header.versionMajor}.${file.header.versionMinor}`,
      categories: used,
      categoryCounts: categories.counts,
      lineIDMaps: lines.maps(),
      lineIDs,
      timeRange: drawables.total > 0 ? [earliest, latest] : undefined,
      drawables,
      unmatched: { reference: 0, openStates: [], sends: 0, receives: 0, droppedFinals: 0, droppedRecords: dropped, badTimes },
      sourceLocations: { records: 0, sites: 0 },
      records,
      truncated: file.truncated || lostFrame,
      outOfOrder: reorder.lateArrivals,
      warnings: [...file.warnings, ...warnings],
      slog1: file.facts(sectorRecords),
    };
    if (out.length > 0) yield out;
  }

  return makeConversion(
    run,
    () => summary,
    (i) => categories.list[i],
  );
}

/** Opens `source` as SLOG-1 and converts it; the file is closed when the stream ends or fails. */
export async function convertSlog1Source(source: ByteSource, options: ConvertOptions): Promise<{ file: Slog1File; conversion: ClogConversion }> {
  const file = await Slog1File.open(source);
  return { file, conversion: convertSlog1(file, options) };
}
