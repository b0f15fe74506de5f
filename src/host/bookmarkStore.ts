/**
 * Bookmarks of one trace in its sidecar `<trace>.mpetrace.json`, through vscode.workspace.fs
 * (works for local, remote and virtual workspaces). The merge/validate logic is the pure
 * BookmarkStoreCore; this file adds the file access, an atomic write (temp + rename) and a
 * file-system watcher that reloads when another editor, git or the user changes the file.
 */
import * as vscode from 'vscode';
import { BookmarkStoreCore, newBookmark, SIDECAR_SUFFIX, type Bookmark, type BookmarkChanges, type SidecarIo, type StoreState } from '../core/bookmarks';
import { fileNameGlob } from '../core/sourcePath/glob';

export type { Bookmark, BookmarkChanges, StoreState };

export class BookmarkStore implements vscode.Disposable {
  readonly sidecar: vscode.Uri;
  private readonly core: BookmarkStoreCore;
  private readonly emitter = new vscode.EventEmitter<StoreState>();
  private readonly disposables: vscode.Disposable[] = [];
  /** Fires after every reload or edit with the new list (or the error). */
  readonly onDidChange = this.emitter.event;

  constructor(
    readonly trace: vscode.Uri,
    private readonly output?: vscode.OutputChannel,
  ) {
    this.sidecar = trace.with({ path: trace.path + SIDECAR_SUFFIX });
    this.core = new BookmarkStoreCore(workspaceFsIo(this.sidecar), (s) => {
      if (s.status === 'error') this.output?.appendLine(s.error);
      else for (const w of s.warnings) this.output?.appendLine(w);
      this.emitter.fire(s);
    });
    const dir = vscode.Uri.joinPath(this.sidecar, '..');
    const name = this.sidecar.path.slice(this.sidecar.path.lastIndexOf('/') + 1);
    // Glob characters in the name become '?': at worst another file's change triggers a harmless reload.
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(dir, fileNameGlob(name, false)));
    const reload = (): void => void this.reload();
    this.disposables.push(watcher, watcher.onDidChange(reload), watcher.onDidCreate(reload), watcher.onDidDelete(reload), this.emitter);
  }

  /** Reads the sidecar (call once after construction). */
  reload(): Promise<StoreState> {
    return this.core.reload();
  }

  get state(): StoreState {
    return this.core.state;
  }

  get bookmarks(): readonly Bookmark[] {
    return this.core.bookmarks;
  }

  /** Adds a bookmark; returns it (with its new id). Shows an error and rethrows if the file cannot be written safely. */
  async add(fields: Omit<Bookmark, 'id' | 'created' | 'derivedId' | 'extra'>): Promise<Bookmark> {
    const bookmark = newBookmark(fields);
    await this.run(() => this.core.edit({ op: 'add', bookmark }));
    return bookmark;
  }

  update(id: string, changes: BookmarkChanges): Promise<void> {
    return this.run(() => this.core.edit({ op: 'update', id, changes }));
  }

  remove(id: string): Promise<void> {
    return this.run(() => this.core.edit({ op: 'remove', id }));
  }

  private async run(job: () => Promise<readonly string[]>): Promise<void> {
    try {
      const conflicts = await job();
      for (const c of conflicts) {
        this.output?.appendLine(c);
        void vscode.window.showWarningMessage(`MPE Trace bookmarks: ${c}`);
      }
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const open = 'Open file';
      void vscode.window.showErrorMessage(`MPE Trace bookmarks: ${message}`, open).then((a) => {
        if (a === open) void vscode.window.showTextDocument(this.sidecar);
      });
      throw e;
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/** Sidecar access through vscode.workspace.fs; the write goes to a temp file renamed over the target. */
export function workspaceFsIo(file: vscode.Uri): SidecarIo {
  return {
    name: file.scheme === 'file' ? file.fsPath : file.toString(),
    async read() {
      try {
        return new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
      } catch (e) {
        if (e instanceof vscode.FileSystemError && e.code === 'FileNotFound') return undefined;
        throw e;
      }
    },
    async write(text) {
      const dot = file.path.lastIndexOf('/');
      const temp = file.with({
        path: `${file.path.slice(0, dot + 1)}.${file.path.slice(dot + 1)}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`,
      });
      try {
        await vscode.workspace.fs.writeFile(temp, new TextEncoder().encode(text));
        await vscode.workspace.fs.rename(temp, file, { overwrite: true });
      } catch (e) {
        await Promise.resolve(vscode.workspace.fs.delete(temp)).catch(() => undefined);
        throw e;
      }
    },
  };
}

/** Asks for a name (and an optional note) and adds a bookmark for the given window. */
export async function promptAndAddBookmark(
  store: BookmarkStore,
  view: { t0: number; t1: number; rows?: readonly number[]; yMap?: number; hidden?: readonly number[] },
): Promise<Bookmark | undefined> {
  const name = await vscode.window.showInputBox({
    title: 'MPE Trace: add bookmark',
    prompt: `Name for the window ${formatBookmarkTime(view.t0)} – ${formatBookmarkTime(view.t1)}`,
    value: `Bookmark ${store.bookmarks.length + 1}`,
    validateInput: (v) => (v.trim() === '' ? 'Enter a name' : v.length > 1000 ? 'At most 1000 characters' : undefined),
  });
  if (name === undefined) return undefined;
  const note = await vscode.window.showInputBox({ title: 'MPE Trace: add bookmark', prompt: 'Note (optional; Enter to skip)' });
  const trimmedNote = note?.trim() ?? '';
  return store.add({
    name: name.trim(),
    t0: view.t0,
    t1: view.t1,
    ...(trimmedNote !== '' ? { note: trimmedNote } : {}),
    ...(view.rows !== undefined ? { rows: [...view.rows] } : {}),
    ...(view.yMap !== undefined ? { yMap: view.yMap } : {}),
    ...(view.hidden !== undefined && view.hidden.length > 0 ? { hidden: [...view.hidden] } : {}),
  });
}

/** Quick pick of the trace's bookmarks (name, window, note); resolves with the chosen one. */
export async function pickBookmark(store: BookmarkStore): Promise<Bookmark | undefined> {
  const state = store.state;
  if (state.status === 'error') void vscode.window.showWarningMessage(`MPE Trace bookmarks: ${state.error}`);
  if (store.bookmarks.length === 0) {
    void vscode.window.showInformationMessage('This trace has no bookmarks yet.');
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    store.bookmarks.map((b) => ({
      label: b.name,
      description: `${formatBookmarkTime(b.t0)} – ${formatBookmarkTime(b.t1)}`,
      detail: b.note,
      bookmark: b,
    })),
    { title: 'MPE Trace: go to bookmark', matchOnDescription: true, matchOnDetail: true },
  );
  return pick?.bookmark;
}

/** Seconds with a unit that suits the size (e.g. "12.5 ms"). */
export function formatBookmarkTime(t: number): string {
  const a = Math.abs(t);
  if (a === 0) return '0 s';
  if (a < 1e-3) return `${(t * 1e6).toPrecision(4)} µs`;
  if (a < 1) return `${(t * 1e3).toPrecision(4)} ms`;
  return `${t.toPrecision(6)} s`;
}
