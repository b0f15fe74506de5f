/**
 * The host ↔ worker-thread protocol for CLOG2/CLOG → SLOG-2 conversion (src/worker/conversionWorker.ts runs
 * the job; src/worker/conversionClient.ts drives it from the extension host). Every message has a
 * string-literal `kind` and the `id` of the job it belongs to, so one worker can serve several
 * jobs in turn and late messages of a finished job are recognisable.
 */
import type { ConvertibleFormat } from '../core/formats/convert/result';

//#region host → worker

/** Start converting `input` into `output` (atomically; refuses an existing output unless `force`). */
export interface ConvertStart {
  readonly kind: 'convert';
  readonly id: number;
  readonly input: string;
  readonly output: string;
  readonly force: boolean;
  readonly childrenPerNode?: number;
  readonly leafBytes?: number;
  /** Also write the row index here while converting (no second pass), when the trace has ≥ minLines timelines. */
  readonly rowIndex?: RowIndexRequest;
  /** Convert only the first this many bytes of an uncompressed CLOG2: the editor's preview. */
  readonly prefixBytes?: number;
  /** Post a `snapshot` of the SLOG-2 being written at most this often (ms): the editor shows the conversion as it goes. */
  readonly snapshotEveryMs?: number;
}

export interface RowIndexRequest {
  readonly path: string;
  readonly minLines: number;
}

/** Stop job `id`: the worker aborts it, removes the temporary file and answers with `error` (`cancelled`). */
export interface ConvertCancel {
  readonly kind: 'cancel';
  readonly id: number;
}

/** Build the row index (src/core/index) of the SLOG-2 `trace` into `index`, atomically (replacing it). */
export interface RowIndexStart {
  readonly kind: 'rowIndex';
  readonly id: number;
  readonly trace: string;
  readonly index: string;
}

export type HostToWorker = ConvertStart | ConvertCancel | RowIndexStart;

//#endregion

//#region worker → host

/** Input bytes consumed so far (of the file on disk, compressed if gzip'd) out of `totalBytes`. */
export interface ConvertProgress {
  readonly kind: 'progress';
  readonly id: number;
  readonly bytesRead: number;
  readonly totalBytes: number;
}

/**
 * The SLOG-2 being written, readable as it is now (src/core/formats/slog2/writer/snapshot.ts):
 * `path` with `header` over its first bytes and `tail` from `base` on.
 */
export interface SnapshotFile {
  /** The output's temporary file (renamed onto the output when the conversion is done). */
  readonly path: string;
  readonly base: number;
  readonly header: Uint8Array;
  readonly tail: Uint8Array;
  readonly drawables: number;
  /** Input bytes converted when it was taken, of `totalBytes`. */
  readonly bytesRead: number;
  readonly totalBytes: number;
}

export interface ConvertSnapshot extends SnapshotFile {
  readonly kind: 'snapshot';
  readonly id: number;
}

/** What a finished conversion produced; the output file is complete and in place. */
export interface ConvertResult {
  readonly output: string;
  readonly format: ConvertibleFormat;
  readonly inputBytes: number;
  readonly outputBytes: number;
  readonly drawables: number;
  readonly nodes: number;
  readonly maxTreeDepth: number;
  readonly seconds: number;
  readonly sourceLocations: { readonly records: number; readonly sites: number };
  readonly locatedDrawables: number;
  readonly unmatchedEvents: number;
  readonly warnings: readonly string[];
  /** When a row index was asked for: written, or why not (the editor then builds it from the SLOG-2). */
  readonly rowIndex?: { readonly written: boolean; readonly note: string };
  /** A prefix's conversion (`prefixBytes`): the time of the input's last event record (the run's end). */
  readonly runEnd?: number;
}

export interface ConvertDone {
  readonly kind: 'done';
  readonly id: number;
  readonly result: ConvertResult;
}

/**
 * Job `id` failed; no output was written and no temporary file remains. `reason`: `cancelled` on
 * request, `exists` when the output exists and `force` was not set, `input` for a bad or
 * unreadable trace, `failed` for anything else.
 */
export interface ConvertError {
  readonly kind: 'error';
  readonly id: number;
  readonly reason: 'cancelled' | 'exists' | 'input' | 'failed';
  readonly message: string;
}

/** The row index is complete and in place. */
export interface RowIndexDone {
  readonly kind: 'rowIndexDone';
  readonly id: number;
  readonly bytes: number;
  readonly seconds: number;
}

export type WorkerToHost = ConvertProgress | ConvertSnapshot | ConvertDone | ConvertError | RowIndexDone;

//#endregion

export function isHostToWorker(m: unknown): m is HostToWorker {
  if (typeof m !== 'object' || m === null) return false;
  const r = m as { kind?: unknown; id?: unknown; input?: unknown; output?: unknown };
  if (typeof r.id !== 'number') return false;
  if (r.kind === 'cancel') return true;
  if (r.kind === 'rowIndex') {
    const x = m as { trace?: unknown; index?: unknown };
    return typeof x.trace === 'string' && typeof x.index === 'string';
  }
  if (r.kind !== 'convert' || typeof r.input !== 'string' || typeof r.output !== 'string') return false;
  const { prefixBytes, snapshotEveryMs } = m as { prefixBytes?: unknown; snapshotEveryMs?: unknown };
  if (prefixBytes !== undefined && typeof prefixBytes !== 'number') return false;
  if (snapshotEveryMs !== undefined && typeof snapshotEveryMs !== 'number') return false;
  const ri = (m as { rowIndex?: unknown }).rowIndex;
  if (ri === undefined) return true;
  const x = ri as { path?: unknown; minLines?: unknown } | null;
  return typeof x === 'object' && x !== null && typeof x.path === 'string' && typeof x.minLines === 'number';
}

export function isWorkerToHost(m: unknown): m is WorkerToHost {
  if (typeof m !== 'object' || m === null) return false;
  const r = m as { kind?: unknown; id?: unknown };
  if (typeof r.id !== 'number') return false;
  if (r.kind === 'snapshot') return isSnapshotFile(m);
  return r.kind === 'progress' || r.kind === 'done' || r.kind === 'error' || r.kind === 'rowIndexDone';
}

function isSnapshotFile(m: object): m is SnapshotFile {
  const s = m as Partial<Record<keyof SnapshotFile, unknown>>;
  return (
    typeof s.path === 'string' &&
    typeof s.base === 'number' &&
    s.header instanceof Uint8Array &&
    s.tail instanceof Uint8Array &&
    typeof s.drawables === 'number' &&
    typeof s.bytesRead === 'number' &&
    typeof s.totalBytes === 'number'
  );
}
