/**
 * Region → code (TraceVis dynamic → static): while a time range is selected in the followed
 * timeline, every source line that a drawable in it came from is highlighted in the visible
 * editors (the list to jump among them: the "sites of the selected range" command).
 */
import * as vscode from 'vscode';
import type { SiteNumbers } from './siteNumbers';

export class RegionHighlight implements vscode.Disposable {
  private readonly type = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('editor.findRangeHighlightBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.findMatchForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Center,
  });
  private readonly disposables: vscode.Disposable[] = [];
  /** Highlighted 0-based lines per document URI (for tests and the status). */
  readonly lines = new Map<string, number[]>();

  constructor(private readonly numbers: SiteNumbers) {
    this.disposables.push(
      numbers.onDidChange(() => void this.paintAll()),
      vscode.window.onDidChangeVisibleTextEditors(() => void this.paintAll()),
    );
  }

  async paint(editor: vscode.TextEditor): Promise<number[]> {
    const trace = this.numbers.followed();
    const r = trace?.range !== undefined ? await this.numbers.sitesIn(editor.document.uri) : undefined;
    const hits = (r?.sites.trace.range !== undefined ? r.local : []).filter((l) => l.site.count > 0 && l.line < editor.document.lineCount).map((l) => l.line);
    editor.setDecorations(
      this.type,
      hits.map((l) => editor.document.lineAt(l).range),
    );
    if (hits.length > 0) this.lines.set(editor.document.uri.toString(), hits);
    else this.lines.delete(editor.document.uri.toString());
    return hits;
  }

  async paintAll(): Promise<void> {
    for (const e of vscode.window.visibleTextEditors) await this.paint(e);
  }

  dispose(): void {
    this.type.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
