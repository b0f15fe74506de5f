/**
 * The bookmark list of one trace, kept in step with its sidecar file. Every change is applied to
 * the file as freshly read from disk (re-read + merge), then written atomically; changes made in
 * this process are serialised. A broken or newer-version file is never overwritten.
 * The file access is injected (vscode.workspace.fs in the host, node:fs in the CLI and tests).
 */
import { applyEdits, type BookmarkEdit } from './edits';
import { bookmarksOf, EMPTY_SIDECAR, parseSidecar, serializeSidecar, type Bookmark, type SidecarDoc } from './sidecar';

export interface SidecarIo {
  /** The file's text, or undefined when it does not exist. */
  read(): Promise<string | undefined>;
  /** Replaces the file atomically (temp file + rename). */
  write(text: string): Promise<void>;
  /** For messages. */
  readonly name: string;
}

export type StoreState =
  | { readonly status: 'ok'; readonly bookmarks: readonly Bookmark[]; readonly warnings: readonly string[] }
  | { readonly status: 'error'; readonly bookmarks: readonly Bookmark[]; readonly error: string };

export class BookmarkStoreCore {
  private doc: SidecarDoc = EMPTY_SIDECAR;
  private current: StoreState = { status: 'ok', bookmarks: [], warnings: [] };
  private queue: Promise<unknown> = Promise.resolve();
  /** Text we wrote last: a watcher event for our own write is not a change. */
  private lastText: string | undefined;

  constructor(
    private readonly io: SidecarIo,
    private readonly onChange?: (state: StoreState) => void,
  ) {}

  get state(): StoreState {
    return this.current;
  }

  get bookmarks(): readonly Bookmark[] {
    return this.current.bookmarks;
  }

  /** Reads the file again (at open and on watcher events). Returns the new state; never throws on bad content. */
  reload(): Promise<StoreState> {
    return this.enqueue(async () => {
      const text = await this.io.read();
      if (text !== undefined && text === this.lastText) return this.current;
      this.lastText = text;
      this.setFrom(text);
      return this.current;
    });
  }

  /**
   * Applies edits to the file as it is now on disk and writes it. Rejects (and writes nothing)
   * when the file on disk cannot be read safely; resolves with conflict messages otherwise.
   */
  edit(...edits: BookmarkEdit[]): Promise<readonly string[]> {
    return this.enqueue(async () => {
      const text = await this.io.read();
      const parsed = text === undefined ? { ok: true as const, doc: EMPTY_SIDECAR, warnings: [] } : parseSidecar(text, this.io.name);
      if (!parsed.ok) {
        this.lastText = text;
        this.setError(parsed.error);
        throw new Error(`${parsed.error}. Fix or move the file to save bookmarks.`);
      }
      const { doc, conflicts } = applyEdits(parsed.doc, edits);
      const out = serializeSidecar(doc);
      if (out !== text) await this.io.write(out);
      this.lastText = out;
      this.doc = doc;
      this.publish({ status: 'ok', bookmarks: bookmarksOf(doc), warnings: parsed.warnings });
      return conflicts;
    });
  }

  private setFrom(text: string | undefined): void {
    if (text === undefined) {
      this.doc = EMPTY_SIDECAR;
      this.publish({ status: 'ok', bookmarks: [], warnings: [] });
      return;
    }
    const parsed = parseSidecar(text, this.io.name);
    if (!parsed.ok) {
      this.setError(parsed.error);
      return;
    }
    this.doc = parsed.doc;
    this.publish({ status: 'ok', bookmarks: bookmarksOf(parsed.doc), warnings: parsed.warnings });
  }

  /** Keeps showing the last good bookmarks next to the error. */
  private setError(error: string): void {
    this.publish({ status: 'error', bookmarks: bookmarksOf(this.doc), error });
  }

  private publish(state: StoreState): void {
    this.current = state;
    this.onChange?.(state);
  }

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job, job);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
