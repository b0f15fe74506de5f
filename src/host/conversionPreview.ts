/**
 * The preview of a big CLOG2 while it converts (issue 21: a CLOG2 on screen in about a second at
 * any size). A merged CLOG2 is in time order, so its first bytes are the whole trace up to a
 * time: they are converted on their own (a fraction of a second) and shown while the whole file
 * converts. Snapshots of the whole conversion's output (the SLOG-2 as it is being written) then
 * replace it every few seconds, each showing more of the run, and the finished SLOG-2 replaces the
 * last of them: each is a new generation of the document.
 */
import type * as vscode from 'vscode';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { cacheEntry, type ConversionJob } from './clogConversion';
import type { Slog2File } from '../core/formats/slog2/slog2File';
import type { ByteSource } from '../core/bytes/byteSource';
import { snapshotSource } from '../core/formats/slog2/writer/snapshot';
import { FileSource } from '../io/fileSource';
import type { SnapshotFile } from '../protocol/worker';
import type { ConversionPreview } from '../protocol/webview';

/** Smaller files convert whole in about a second: no preview. */
export const PREVIEW_MIN_BYTES = 48 << 20;
/**
 * Input bytes a preview converts: some 2.5·10^4 drawables, in one thread (the converter thread
 * takes longer to start than this takes). In a fresh worker, its code cold, from the start to a
 * converted file: 1, 2 and 4 MiB of the bench's 3 GiB CLOG2 took 290, 320 and 440 ms (medians of
 * ten, alternating): 4 MiB showed twice as much of the run's first instant for a tenth of a
 * second more of the first picture. The first snapshot (1.5 s) shows more anyway. `npm run
 * bench preview` times it.
 */
export const PREVIEW_PREFIX_BYTES = 2 << 20;
/** Previews left behind by a host that was killed are removed after this long. */
const STALE_PREVIEW_MS = 6 * 3600_000;

export interface PreviewSizes {
  readonly minBytes: number;
  readonly prefixBytes: number;
}

const DEFAULT_PREVIEW_SIZES: PreviewSizes = { minBytes: PREVIEW_MIN_BYTES, prefixBytes: PREVIEW_PREFIX_BYTES };

export interface PreviewFile {
  /**
   * The preview's own SLOG-2 (removed once the whole conversion is shown); none for a snapshot of
   * the whole conversion's output, which is that conversion's file.
   */
  readonly path?: string;
  readonly shownBytes: number;
  readonly totalBytes: number;
  /** When the run ends (the time of the input's last event record), if its tail could tell. */
  readonly runEnd?: number;
}

/**
 * Converts the first bytes of `input` into a preview SLOG-2 beside the cache, when `input` is a
 * local, uncompressed CLOG2 big enough to need one (else undefined). Its conversion warnings
 * (the states open at the cut) are not the trace's and are dropped.
 */
export async function convertPreview(
  storage: vscode.Uri,
  input: vscode.Uri,
  job: ConversionJob,
  signal: AbortSignal,
  sizes: PreviewSizes = DEFAULT_PREVIEW_SIZES,
): Promise<(PreviewFile & { readonly path: string }) | undefined> {
  if (input.scheme !== 'file' || !/\.clog2$/i.test(input.path)) return undefined;
  const totalBytes = (await fs.stat(input.fsPath)).size;
  if (totalBytes < sizes.minBytes || sizes.prefixBytes >= totalBytes) return undefined;
  const { dir, target } = await cacheEntry(storage, input);
  const previews = path.join(dir, 'preview');
  await fs.mkdir(previews, { recursive: true });
  await removeStalePreviews(previews);
  const output = path.join(previews, path.basename(target));
  const r = await job(input.fsPath, output, { report: () => undefined }, signal, { prefixBytes: sizes.prefixBytes });
  return { path: output, shownBytes: sizes.prefixBytes, totalBytes, ...(r?.runEnd !== undefined ? { runEnd: r.runEnd } : {}) };
}

/** What an editor's `init` says of a preview (never its file's path). */
export function previewMessage(preview: PreviewFile, progress: number): ConversionPreview {
  const { shownBytes, totalBytes, runEnd } = preview;
  return { shownBytes, totalBytes, progress, ...(runEnd !== undefined ? { runEnd } : {}) };
}

/** A preview converted and opened. */
export interface OpenedPreview {
  readonly file: Slog2File;
  readonly made: PreviewFile;
}

/**
 * The preview of `input` converted and opened with `open`, or undefined: none needed, or it
 * failed (logged; its file removed). A preview costs only itself: the whole conversion goes on
 * and reports the input's errors.
 */
export async function openPreview(
  storage: vscode.Uri,
  input: vscode.Uri,
  job: ConversionJob,
  signal: AbortSignal,
  open: (file: string) => Promise<Slog2File>,
  sizes?: PreviewSizes,
): Promise<OpenedPreview | undefined> {
  let made: (PreviewFile & { readonly path: string }) | undefined;
  try {
    made = await convertPreview(storage, input, job, signal, sizes);
    return made === undefined ? undefined : { file: await open(made.path), made };
  } catch (e) {
    if (made !== undefined) await fs.rm(made.path, { force: true }).catch(() => undefined);
    if (!signal.aborted) console.warn(`MPE Trace Viewer: no preview of ${input.fsPath}: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}

/** Closes a preview and removes its own file. */
export async function closePreview(preview: OpenedPreview | undefined): Promise<void> {
  if (preview === undefined) return;
  await preview.file.close().catch(() => undefined);
  if (preview.made.path !== undefined) await fs.rm(preview.made.path, { force: true }).catch(() => undefined);
}

/**
 * A snapshot of the whole conversion's output (the SLOG-2 being written) opened as the next
 * preview, or undefined when it cannot be read any more (the conversion has just ended and
 * removed or renamed its file: the whole trace comes next).
 */
export async function openSnapshot(
  snapshot: SnapshotFile,
  runEnd: number | undefined,
  open: (source: ByteSource) => Promise<Slog2File>,
): Promise<OpenedPreview | undefined> {
  let source: ByteSource | undefined;
  try {
    source = snapshotSource(await FileSource.open(snapshot.path), snapshot);
    const file = await open(source);
    return { file, made: { shownBytes: snapshot.bytesRead, totalBytes: snapshot.totalBytes, ...(runEnd !== undefined ? { runEnd } : {}) } };
  } catch {
    await source?.close().catch(() => undefined);
    return undefined;
  }
}

/**
 * Handles offered items one at a time, the newest first: an item offered while one is handled
 * replaces any still waiting (snapshots come every few seconds; only the latest is worth opening).
 */
export class LatestOnly<T> {
  private waiting: T | undefined;
  private busy = false;
  constructor(private readonly handle: (item: T) => Promise<void>) {}

  offer(item: T): void {
    this.waiting = item;
    if (!this.busy) void this.run();
  }

  private async run(): Promise<void> {
    this.busy = true;
    try {
      for (let item = this.waiting; item !== undefined; item = this.waiting) {
        this.waiting = undefined;
        await this.handle(item).catch(() => undefined);
      }
    } finally {
      this.busy = false;
    }
  }
}

async function removeStalePreviews(dir: string): Promise<void> {
  const now = Date.now();
  for (const name of await fs.readdir(dir)) {
    const file = path.join(dir, name);
    const st = await fs.stat(file).catch(() => undefined);
    if (st !== undefined && now - st.mtimeMs > STALE_PREVIEW_MS) await fs.rm(file, { force: true });
  }
}
