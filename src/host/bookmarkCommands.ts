/**
 * Bookmarks and view links of the trace editor: "Add Bookmark" (name + current window + optional
 * note, stored in the `<trace>.mpetrace.json` sidecar), "Go to Bookmark…" (quick pick) and "Copy
 * Link to This View" (a vscode:// link through the URI handler). One BookmarkStore per trace.
 */
import * as vscode from 'vscode';
import { BookmarkStore, pickBookmark, promptAndAddBookmark } from './bookmarkStore';
import { viewLinkFor } from './uriHandler';
import type { TraceEditorProvider } from './traceEditorProvider';

export class Bookmarks implements vscode.Disposable {
  private readonly stores = new Map<string, Promise<BookmarkStore>>();
  private readonly opened: BookmarkStore[] = [];

  constructor(private readonly output?: vscode.OutputChannel) {}

  /** The trace's store, read once (it follows the sidecar's changes on disk afterwards). */
  store(trace: vscode.Uri): Promise<BookmarkStore> {
    const key = trace.toString();
    let s = this.stores.get(key);
    if (s === undefined) {
      const store = new BookmarkStore(trace, this.output);
      this.opened.push(store);
      s = store.reload().then(() => store);
      this.stores.set(key, s);
    }
    return s;
  }

  dispose(): void {
    for (const s of this.opened) s.dispose();
  }
}

export function registerBookmarkCommands(context: vscode.ExtensionContext, provider: TraceEditorProvider, bookmarks: Bookmarks): void {
  const current = () => provider.activeEditor() ?? provider.lastActiveEditor();
  context.subscriptions.push(
    bookmarks,
    vscode.commands.registerCommand('mpeTrace.addBookmark', async () => {
      const e = current();
      const view = e?.viewState;
      if (!e || !view) return void vscode.window.showInformationMessage('MPE Trace: open a trace in the timeline first.');
      const store = await bookmarks.store(e.document.uri);
      const hidden = e.hiddenCategories;
      const rows = e.shownLines();
      const added = await promptAndAddBookmark(store, {
        t0: view.t0,
        t1: view.t1,
        yMap: view.mapIndex,
        ...(hidden.length > 0 ? { hidden } : {}),
        ...(rows ? { rows } : {}),
      });
      if (added) void vscode.window.setStatusBarMessage(`MPE Trace: bookmark "${added.name}" added`, 3000);
    }),
    vscode.commands.registerCommand('mpeTrace.goToBookmark', async () => {
      const e = current();
      if (!e) return void vscode.window.showInformationMessage('MPE Trace: open a trace in the timeline first.');
      const store = await bookmarks.store(e.document.uri);
      const b = await pickBookmark(store);
      if (b)
        await provider.openAt(e.document.uri, {
          t0: b.t0,
          t1: b.t1 > b.t0 ? b.t1 : b.t0 + 1e-9,
          ...(b.yMap !== undefined ? { yMap: b.yMap } : {}),
          ...(b.hidden ? { hidden: b.hidden } : {}),
          ...(b.rows ? { rows: b.rows } : {}),
        });
    }),
    vscode.commands.registerCommand('mpeTrace.copyViewLink', async () => {
      const e = current();
      const view = e?.viewState;
      if (!e || !view) return void vscode.window.showInformationMessage('MPE Trace: open a trace in the timeline first.');
      const hidden = e.hiddenCategories;
      const rows = e.shownLines();
      const link = viewLinkFor(e.document.uri, {
        t0: view.t0,
        t1: view.t1,
        yMap: view.mapIndex,
        ...(hidden.length > 0 ? { hidden } : {}),
        ...(rows ? { rows } : {}),
      });
      await vscode.env.clipboard.writeText(link);
      void vscode.window.setStatusBarMessage('MPE Trace: link to this view copied', 3000);
    }),
  );
}
