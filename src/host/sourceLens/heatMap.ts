/**
 * The optional heat map of time per recorded line (toggle command): whole-line backgrounds and
 * overview-ruler marks in five steps of the line's total time relative to the file's largest,
 * in colours that differ for light and dark themes.
 */
import * as vscode from 'vscode';
import type { SiteNumbers } from './siteNumbers';
import { heatSteps } from '../../core/stats/heatSteps';

const STEPS = 5;

function stepType(step: number): vscode.TextEditorDecorationType {
  const alpha = (0.08 + (0.32 * step) / (STEPS - 1)).toFixed(2);
  return vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    light: { backgroundColor: `rgba(220, 60, 0, ${alpha})`, overviewRulerColor: `rgba(200, 50, 0, ${alpha})` },
    dark: { backgroundColor: `rgba(255, 120, 40, ${alpha})`, overviewRulerColor: `rgba(255, 120, 40, ${alpha})` },
    overviewRulerLane: vscode.OverviewRulerLane.Right,
  });
}

export class SiteHeatMap implements vscode.Disposable {
  private readonly types = Array.from({ length: STEPS }, (_, i) => stepType(i));
  private on = false;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly numbers: SiteNumbers) {
    this.disposables.push(
      numbers.onDidChange(() => void this.paintAll()),
      vscode.window.onDidChangeVisibleTextEditors(() => void this.paintAll()),
    );
  }

  get enabled(): boolean {
    return this.on;
  }

  toggle(): boolean {
    this.on = !this.on;
    void this.paintAll();
    return this.on;
  }

  /** Lines painted per step in `editor` (for tests). */
  async paint(editor: vscode.TextEditor): Promise<number[][]> {
    let lines: number[][] = this.types.map(() => []);
    if (this.on) {
      const r = await this.numbers.sitesIn(editor.document.uri);
      const local = (r?.local ?? []).filter((l) => l.line < editor.document.lineCount);
      lines = heatSteps(
        local.map((l) => ({ line: l.line, total: l.site.total })),
        STEPS,
      );
    }
    this.types.forEach((t, i) =>
      editor.setDecorations(
        t,
        lines[i]!.map((line) => editor.document.lineAt(line).range),
      ),
    );
    return lines;
  }

  private async paintAll(): Promise<void> {
    for (const e of vscode.window.visibleTextEditors) await this.paint(e);
  }

  dispose(): void {
    for (const t of this.types) t.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
