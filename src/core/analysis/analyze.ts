/**
 * The trace analysis in two streaming passes over the drawables of a range (increasing start time):
 * 1. wait states (point-to-point and collective), trace problems, each process's first/last time;
 * 2. after the critical-path walk over the recorded waits, the path's composition per state name
 *    and call site, and each process's exclusive time per state name (for the imbalance).
 *    Pass 2 replays pass 1's nesting sweep (spanLog.ts: 16 bytes per span, past 32 MiB in a
 *    temporary file when the input gives a spill) instead of reading the input again; without
 *    one, or when the log gave up, it reads the input again.
 * Memory follows the open states and messages in flight plus 24 bytes per wait, not the file size.
 */
import type { Category, Drawable, LineIDMap } from '../model/types';
import { batchFromDrawables, type DrawableFilter, type PrimitiveBatch } from '../formats/slog2/columnStream';
import { isCollective, isMpiKind } from './calls';
import { CollectiveMatcher } from './collectives';
import { labelSegments, walkCriticalPath, type RawSegment } from './criticalPath';
import { lineRoles, type LineRoles } from './lines';
import { NestingSweep, NO_SITE } from './nestingSweep';
import { MessageMatcher } from './p2p';
import {
  mergeProfiles,
  pathNames,
  profileFromLog,
  pathWindows,
  profileEveryState,
  profilePathWindow,
  type PathNames,
  type PathProfile,
  type PathWindow,
} from './pathProfile';
import { ProblemList } from './problems';
import { WaitRecorder } from './recorder';
import type { StateRec } from './stateRecord';
import { SpanLog, type SpanLogOptions, type SpanSpill } from './spanLog';
import { addTo, type AnalysisResult, type CriticalPath } from './types';
import { grown } from '../bytes/grown';

const EMPTY = new Float64Array(0);

/** Problems only a CLOG/CLOG2 conversion knows (the SLOG-2 file does not keep them). */
export interface ConversionProblems {
  readonly unmatchedSends: number;
  readonly unmatchedReceives: number;
  readonly openStates: number;
  readonly truncated: boolean;
  readonly droppedRecords: number;
  readonly outOfOrder: number;
}

export interface AnalysisInput {
  readonly categories: ReadonlyMap<number, Category>;
  readonly lineIDMaps: readonly LineIDMap[];
  readonly range: readonly [number, number];
  /** Real drawables intersecting [t0, t1] in increasing start time, in batches; called once per pass. */
  batches(t0: number, t1: number): AsyncIterable<readonly Drawable[]>;
  /**
   * The same stream as columns (Slog2File: columnStream.ts); used instead of `batches` when given.
   * `keep` may leave out drawables the pass does not want (a hint: the pass filters again).
   */
  primitiveBatches?(t0: number, t1: number, keep?: DrawableFilter): AsyncIterable<PrimitiveBatch>;
  readonly conversion?: ConversionProblems;
  /** A time that about halves the decoding work of [t0, t1] (default: the middle). */
  splitTime?(t0: number, t1: number): number;
  /**
   * Profiles a window of the critical path elsewhere (the decoder thread), over the same drawables
   * `primitiveBatches` gives, while this thread profiles the next one; stops on `signal`.
   */
  profileElsewhere?(window: PathWindow, signal: AbortSignal): Promise<PathProfile>;
  /**
   * Where the first pass's spans go past what memory keeps of them (spanLog.ts; a temporary file
   * in the analysis worker): the second pass then replays them instead of reading the input again.
   * Without one, a log too big for memory is given up and the second pass reads the input.
   */
  spanSpill?(): SpanSpill | undefined;
}

export interface AnalysisOptions {
  readonly signal?: AbortSignal;
  /** 0..1 over both passes. */
  readonly onProgress?: (fraction: number) => void;
  /** Wait instances returned as objects (default 0: totals only). */
  readonly maxInstances?: number;
  /** Pass 2 sweeps every state, not only those on the critical path (the reference the tests compare with). */
  readonly sweepEveryState?: boolean;
  /** Pass 2 reads the input again even when pass 1's spans were kept (tests compare the two). */
  readonly rereadInput?: boolean;
  /** The span log's memory share and chunk size (spanLog.ts; tests make it spill). */
  readonly spanLog?: Pick<SpanLogOptions, 'memoryBytes' | 'chunkSpans'>;
}

/** The input's stream as columnar batches (drawable batches are converted). */
async function* streamOf(input: AnalysisInput, t0: number, t1: number, keep?: DrawableFilter): AsyncGenerator<PrimitiveBatch> {
  if (input.primitiveBatches !== undefined) {
    yield* input.primitiveBatches(t0, t1, keep);
    return;
  }
  for await (const batch of input.batches(t0, t1)) yield batchFromDrawables(batch);
}

export async function analyzeTrace(input: AnalysisInput, options: AnalysisOptions = {}): Promise<AnalysisResult> {
  const spill = input.spanSpill?.();
  const log = new SpanLog({ ...options.spanLog, ...(spill ? { spill } : {}) });
  try {
    return await analyzeWithLog(input, options, log);
  } finally {
    await log.close();
  }
}

async function analyzeWithLog(input: AnalysisInput, options: AnalysisOptions, log: SpanLog): Promise<AnalysisResult> {
  const [t0, t1] = input.range;
  const roles = lineRoles(input.lineIDMaps);
  const recorder = new WaitRecorder(roles.labels, options.maxInstances ?? 0);
  const problems = new ProblemList();
  const p2p = new MessageMatcher(roles, recorder, problems);
  const collectives = new CollectiveMatcher(roles, recorder, () => roles.labels.length);
  const first: number[] = [];
  const last: number[] = [];
  const unknown = new Map<string, number>();
  const names = pathNames(input.categories);
  const { facts, sites } = names;
  const width = t1 - t0;
  const progress = (t: number, pass: 0 | 1) => options.onProgress?.(Math.min(1, (pass + (width > 0 ? Math.max(0, t - t0) / width : 1)) / 2));
  const touch = (loc: number, a: number, b: number) => {
    if (!(first[loc]! <= a)) first[loc] = a;
    if (!(last[loc]! >= b)) last[loc] = b;
  };
  // Exclusive time per state name and process (for the imbalance), and each process's state span
  // (for pass 2, which sees only the states on the critical path).
  // Float64Arrays by process: a holey array of numbers per name was ~2 % of the first pass.
  const exclusive: Float64Array[] = [];
  const stateFirst: number[] = [];
  const stateLast: number[] = [];
  let nestingProblems = 0;
  const order = new NestingSweep(
    (loc, name, site, a, b) => {
      log.add(loc, name, site, a, b);
      let per = exclusive[name];
      if (per === undefined || loc >= per.length) exclusive[name] = per = grown(per ?? EMPTY, loc + 1);
      per[loc] += b - a;
    },
    (loc, enter, exit, parentExit) => {
      nestingProblems++;
      problems.add('time-order', 1, {
        time: enter,
        endTime: exit,
        lineIDs: [roles.lineOf(loc)],
        text: `a state on rank ${roles.labels[loc]} [${enter}, ${exit}] s outlasts its enclosing state (ends ${parentExit} s)`,
      });
    },
  );

  options.signal?.throwIfAborted();
  for await (const b of streamOf(input, t0, t1)) {
    options.signal?.throwIfAborted();
    await log.settle();
    if (b.rows > 0) progress(b.drawableEarliest[0]!, 0);
    for (let i = 0; i < b.rows; i++) {
      p2p.advance(b.drawableEarliest[i]!);
      const category = b.category[i]!;
      const f = facts(category);
      const name = f.name;
      if (f.unknown) unknown.set(name, (unknown.get(name) ?? 0) + 1);
      const nv = b.vertexCount[i]!;
      if (nv === 2 && f.topology === 'arrow') {
        p2p.addArrow(b.time0[i]!, b.line0[i]!, b.time1[i]!, b.line1[i]!);
        continue;
      }
      const enter = b.earliest[i]!;
      const exit = b.latest[i]!;
      const loc = roles.location(b.line0[i]!);
      touch(loc, enter, exit);
      if (nv !== 2 || f.topology === 'event') continue;
      const kind = f.kind;
      if (!(stateFirst[loc]! <= enter)) stateFirst[loc] = enter;
      if (!(stateLast[loc]! >= exit)) stateLast[loc] = exit;
      // The site of every state: the sweep's spans are kept for the second pass, which sums by site.
      const siteId = sites.id(b.site[i], b.siteIndex[i]!);
      order.addState(loc, f.nameId, siteId, enter, exit);
      if (!isMpiKind(kind)) continue;
      const site = siteId === NO_SITE ? undefined : sites.names[siteId];
      const rec: StateRec = { loc, line: b.line0[i]!, cat: category, name, kind, enter, exit, site, slot: -1, wait: 0 };
      p2p.addState(rec);
      if (isCollective(kind)) collectives.addState(rec);
    }
  }
  p2p.finish();
  collectives.finish();
  order.finish();
  options.signal?.throwIfAborted();

  for (const [name, count] of unknown)
    problems.add(
      'unknown-category',
      count,
      undefined,
      `category ${name} (${count} drawables): MPI definitions missing, the run probably never completed MPI_Finalize`,
    );
  const notes: string[] = [];
  const c = input.conversion;
  if (c !== undefined) {
    const unmatched = c.unmatchedSends + c.unmatchedReceives;
    if (unmatched > 0)
      problems.add(
        'unmatched-message',
        unmatched,
        undefined,
        `${c.unmatchedSends} sends and ${c.unmatchedReceives} receives without a partner (truncated run, MPI_Waitall beyond MPE_MAX_REQUESTS, cancelled or unknown requests)`,
      );
    if (c.truncated || c.openStates > 0)
      problems.add(
        'truncated',
        Math.max(1, c.openStates),
        undefined,
        `the trace is ${c.truncated ? 'truncated' : 'partial'}${c.openStates > 0 ? ` (${c.openStates} states left open at the end)` : ''}`,
      );
    if (c.droppedRecords > 0) problems.add('dropped-record', c.droppedRecords);
    if (c.outOfOrder > 0) problems.add('time-order', c.outOfOrder, undefined, `${c.outOfOrder} drawables out of end-time order in the records`);
  } else notes.push('SLOG-2 files do not keep unmatched message halves or dropped records: only the conversion of the CLOG2 file reports them');
  if (p2p.receiveBeforeSend > 0) notes.push(`${p2p.receiveBeforeSend} messages received before they were sent are left out of the wait states`);
  if (collectives.rootInferred > 0)
    notes.push(
      'MPE does not record the root of Bcast/Scatter/Reduce/Gather: it is inferred (1-to-N: the member that left first; N-to-1: the one that left last)',
    );

  for (let i = 0; i < roles.labels.length; i++) {
    first[i] ??= Infinity;
    last[i] ??= -Infinity;
  }
  const raw = walkCriticalPath(recorder.hops, { first, last });
  recorder.hops.clear();
  const spans: StateSpans = { exclusive, first: stateFirst, last: stateLast, wellNested: nestingProblems === 0 };
  const criticalPath = await composition({ input, raw, roles, options, progress: (t) => progress(t, 1), names, spans, log });
  return {
    range: [t0, t1],
    waitStates: recorder.totals,
    criticalPath,
    problems: problems.list(),
    instances: recorder.instances,
    instancesTruncated: recorder.truncated,
    messages: { matched: p2p.matched, excludedReceiveBeforeSend: p2p.receiveBeforeSend },
    collectives: { instances: collectives.instances, incomplete: collectives.incomplete, rootInferred: collectives.rootInferred },
    notes,
  };
}

/** What pass 1 learnt of each process's states. */
interface StateSpans {
  /** Exclusive time per state name id (PathNames.states), per process (index = location). */
  readonly exclusive: readonly (Float64Array | undefined)[];
  /** First entry and last exit of a state per process. */
  readonly first: readonly (number | undefined)[];
  readonly last: readonly (number | undefined)[];
  /** No state overlapped its enclosing one without nesting (the sweep then truncates states). */
  readonly wellNested: boolean;
}

/** What pass 2 works from. */
interface PassTwo {
  readonly input: AnalysisInput;
  /** The critical path's segments, by location. */
  readonly raw: readonly RawSegment[];
  readonly roles: LineRoles;
  readonly options: AnalysisOptions;
  readonly progress: (t: number) => void;
  readonly names: PathNames;
  readonly spans: StateSpans;
  /** Pass 1's spans, replayed instead of reading the input again unless it gave up. */
  readonly log: SpanLog;
}

/** Pass 2: time on the path per innermost state name and call site (pathProfile.ts), and the imbalance. */
async function composition(pass: PassTwo): Promise<CriticalPath> {
  const { input, raw, roles, names, spans } = pass;
  const labels = roles.labels;
  const segments = labelSegments(raw, labels, roles.lineOf);
  const byRank: Record<string, number> = {};
  for (const s of segments) addTo(byRank, s.rank, s.to - s.from);
  const length = segments.reduce((a, s) => a + (s.to - s.from), 0);
  const start = segments[0]?.from ?? input.range[0];
  const end = segments[segments.length - 1]?.to ?? input.range[0];
  if (segments.length === 0) return { start, end, length, segments, byCategory: {}, bySite: {}, byRank, imbalance: {} };
  const profile = await pathProfile(pass);
  const byCategory: Record<string, number> = {};
  const bySite: Record<string, number> = {};
  for (const [name, v] of profile.byCategory) addTo(byCategory, name, v);
  for (const [site, v] of profile.bySite) addTo(bySite, site, v);
  const processes = Math.max(1, labels.length);
  const imbalance: Record<string, number> = {};
  for (const [name, onPath] of Object.entries(byCategory)) {
    const id = names.states.known(name);
    const per = (id === undefined ? undefined : spans.exclusive[id]) ?? [];
    let sum = 0;
    for (const v of per) sum += v ?? 0;
    const excess = onPath - sum / processes;
    if (excess > 0) imbalance[name] = excess;
  }
  return { start, end, length, segments, byCategory, bySite, byRank, imbalance };
}

/**
 * The profile from pass 1's spans when they were kept; else in two windows split where the input's
 * decoding work is halved: the first in the decoder thread when the input has one (each thread
 * decodes its half), else both here in turn.
 */
async function pathProfile({ input, raw, roles, options, progress, names, spans, log }: PassTwo): Promise<PathProfile> {
  const signal = options.signal;
  const [from, to] = input.range;
  if (options.rereadInput !== true && options.sweepEveryState !== true) {
    const replayed = await profileFromLog(raw, log, names, (done) => {
      signal?.throwIfAborted();
      progress(from + done * (to - from));
    });
    if (replayed !== undefined) return replayed;
  }
  const here = (t0: number, t1: number, keep?: DrawableFilter) => streamOf(input, t0, t1, keep);
  const onBatch = (t: number) => {
    signal?.throwIfAborted();
    progress(t);
  };
  // A state that outlasts its parent is truncated at the parent's exit: then every state counts.
  if (!spans.wellNested || options.sweepEveryState === true) return profileEveryState(raw, here, input.range, names, roles.location, onBatch);
  let split = input.splitTime?.(from, to) ?? (from + to) / 2;
  if (!(split > from && split < to)) split = (from + to) / 2;
  const [first, second] = pathWindows(raw, [from, split, to], spans, roles.known());
  const elsewhere = input.profileElsewhere;
  if (elsewhere === undefined)
    return mergeProfiles(await profilePathWindow(first!, here, names, onBatch), await profilePathWindow(second!, here, names, onBatch));
  // Progress follows this thread's window, stretched over the whole pass.
  const stretched = (t: number) => onBatch(from + ((t - split) / (to - split)) * (to - from));
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const [a, b] = await Promise.all([elsewhere(first!, stop.signal), profilePathWindow(second!, here, names, stretched)]);
    return mergeProfiles(a, b);
  } catch (e) {
    stop.abort(e);
    throw e;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
