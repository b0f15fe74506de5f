/**
 * Bookmarks of one trace in its sidecar `<trace>.mpetrace.json`, through vscode.workspace.fs
 * (works for local, remote and virtual workspaces). The merge/validate logic is the pure
 * BookmarkStoreCore; this file adds the file access, an atomic write (temp + rename) and a
 * file-system watcher that reloads when another editor, git or the user changes the file.
 */
import * as vscode from 'vscode';
import {
  BookmarkStoreCore, newBookmark, SIDECAR_SUFFIX,
  type Bookmark, type BookmarkChanges, type SidecarIo, type StoreState,
} from '../format/bookmarks';

export type { Bookmark, BookmarkChanges, StoreState };

export class BookmarkStore implements vscode.Disposable {
  readonly sidecar: vscode.Uri;
  private readonly core: BookmarkStoreCore;
  private readonly emitter = new vscode.EventEmitter<StoreState>();
  private readonly disposables: vscode.Disposable[] = [];
  /** Fires after every reload or edit with the new list (or the error). */
  readonly onDidChange = this.emitter.event;

  constructor(readonly trace: vscode.Uri, private readonly output?: vscode.OutputChannel) {
    this.sidecar = trace.with({ path: trace.path + SIDECAR_SUFFIX });
    this.core = new BookmarkStoreCore(workspaceFsIo(this.sidecar), (s) => {
      if (s.status === 'error') this.output?.appendLine(s.error);
      else for (const w of s.warnings) this.output?.appendLine(w);
      this.emitter.fire(s);
    });
    const dir = vscode.Uri.joinPath(this.sidecar, '..');
    const name = this.sidecar.path.slice(this.sidecar.path.lastIndexOf('/') + 1);
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(dir, name));
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
      const temp = file.with({ path: `${file.path.slice(0, dot + 1)}.${file.path.slice(dot + 1)}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp` });
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
