/**
 * The "Compare" webview view: the computed difference of the two runs being compared (per
 * category, call site or rank; A, B, delta, ratio), their iterations, and the alignment. A row
 * click highlights that category (and shows that rank's row) in both timelines.
 */
import * as vscode from 'vscode';
import { diffJson, diffTable } from '../../core/compare/diffTables';
import type { Iterations } from '../../core/compare/iterations';
import type { Slog2File } from '../../core/formats/slog2/slog2File';
import { toCsv } from '../../core/stats/tables';
import { isCompareToHost, type CompareToHost, type HostToCompare, type RunIterations } from '../../protocol/compare';
import type { SourceLinks } from '../sourceLinks';
import { webviewOptions, webviewPageHtml } from '../webviewHtml';
import type { CompareController } from './compareController';
import { fileOf, nameOf } from './editorFacts';

export const COMPARE_VIEW_ID = 'mpeTrace.compare';

function iterationsOf(it: Iterations): RunIterations {
  return { marker: it.marker ?? null, durations: it.durations, outlierIterations: it.outlierIterations, outlierRanks: it.outlierRanks };
}

export class CompareViewProvider implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: CompareController,
    private readonly sourceLinks: SourceLinks,
  ) {}

  static register(context: vscode.ExtensionContext, controller: CompareController, sourceLinks: SourceLinks): CompareViewProvider {
    const provider = new CompareViewProvider(context.extensionUri, controller, sourceLinks);
    context.subscriptions.push(
      vscode.window.registerWebviewViewProvider(COMPARE_VIEW_ID, provider),
      controller.onDidChange(() => provider.update()),
    );
    return provider;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = webviewOptions(this.extensionUri);
    view.webview.html = webviewPageHtml(view.webview, this.extensionUri, { script: 'compare.js', style: 'compare.css', title: 'Compare', images: true });
    view.webview.onDidReceiveMessage((m: unknown) => this.onMessage(m));
    view.onDidDispose(() => {
      if (this.view === view) this.view = undefined;
    });
  }

  private post(m: HostToCompare): void {
    void this.view?.webview.postMessage(m);
  }

  update(): void {
    const c = this.controller.state;
    if (c === undefined) return this.post({ kind: 'none' });
    const fa = fileOf(c.session.a);
    const fb = fileOf(c.session.b);
    const names = (f: Slog2File | undefined): Set<string> => new Set(f ? [...f.categories.values()].map((x) => x.name) : []);
    const nb = names(fb);
    this.post({
      kind: 'pair',
      a: nameOf(c.session.a),
      b: nameOf(c.session.b),
      alignment: c.alignment,
      shift: c.session.shift,
      categories: [...names(fa)].filter((n) => nb.has(n)).sort(),
    });
    if (c.error !== undefined) this.post({ kind: 'error', message: c.error });
    else if (c.diff !== undefined && c.profiles !== undefined) {
      this.post({ kind: 'diff', diff: c.diff, iterations: { a: iterationsOf(c.profiles.a.iterations), b: iterationsOf(c.profiles.b.iterations) } });
    }
    if (c.computing) this.post({ kind: 'progress', text: 'Computing the difference…' });
    else if (c.computingWaits) this.post({ kind: 'progress', text: 'Computing waiting time (wait-state analysis of both ranges)…' });
  }

  private onMessage(m: unknown): void {
    if (!isCompareToHost(m)) return;
    void this.handle(m);
  }

  private async handle(m: CompareToHost): Promise<void> {
    const c = this.controller.state;
    switch (m.kind) {
      case 'ready':
        return this.update();
      case 'align':
        return this.controller.align(m.alignment);
      case 'highlight':
        return this.controller.highlight(m);
      case 'openSite': {
        const site = c?.diff?.sites[m.index];
        if (site !== undefined) await this.sourceLinks.openLocation({ file: site.file, line: site.line });
        return;
      }
      case 'export': {
        if (c?.diff === undefined) return;
        const text = m.format === 'json' ? JSON.stringify(diffJson(c.diff), null, 1) + '\n' : toCsv(diffTable(c.diff, m.by));
        const target = await vscode.window.showSaveDialog({ filters: m.format === 'json' ? { JSON: ['json'] } : { CSV: ['csv'] }, saveLabel: 'Export' });
        if (target !== undefined) await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
        return;
      }
    }
  }
}
