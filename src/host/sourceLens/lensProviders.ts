/**
 * CodeLens and hover on recorded source lines: count, total and mean time of what each line
 * starts (or ends) and its worst rank; the hover adds per category and per rank min / median /
 * max, the share of the trace's time, and "Show in timeline" / "Next occurrence" links.
 */
import * as vscode from 'vscode';
import { hoverTables, lensTitle } from '../../core/stats/siteText';
import type { SiteNumbers, TraceSites } from './siteNumbers';

export const SHOW_SITES_COMMAND = 'mpeTrace.showSitesInTimeline';
export const NEXT_SITE_COMMAND = 'mpeTrace.nextSiteOccurrence';

/** Arguments of the site commands: the trace's own names, never a local path. */
export interface SiteCommandArgs {
  readonly trace: string;
  readonly sites: readonly { readonly file: string; readonly line: number }[];
}

export function rangeNote(s: TraceSites): string {
  const [t0, t1] = s.range;
  const whole = s.trace.range === undefined;
  const name = s.trace.uri.path.slice(s.trace.uri.path.lastIndexOf('/') + 1);
  return whole ? `${name}, whole trace` : `${name}, selected ${t0.toPrecision(6)} – ${t1.toPrecision(6)} s`;
}

export class SiteLensProvider implements vscode.CodeLensProvider, vscode.HoverProvider {
  readonly onDidChangeCodeLenses: vscode.Event<void>;

  constructor(private readonly numbers: SiteNumbers) {
    this.onDidChangeCodeLenses = numbers.onDidChange;
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const r = await this.numbers.sitesIn(document.uri);
    if (r === undefined) return [];
    const trace = r.sites.trace.uri.toString();
    return r.local
      .filter((l) => l.line < document.lineCount)
      .map((l) => {
        const args: SiteCommandArgs = { trace, sites: [{ file: l.site.file, line: l.site.line }] };
        return new vscode.CodeLens(document.lineAt(l.line).range, {
          title: `$(pulse) ${lensTitle(l.site)}`,
          tooltip: `Show the occurrences of ${l.site.file}:${l.site.line} in the timeline (${rangeNote(r.sites)})`,
          command: SHOW_SITES_COMMAND,
          arguments: [args],
        });
      });
  }

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const r = await this.numbers.sitesIn(document.uri);
    const here = r?.local.filter((l) => l.line === position.line) ?? [];
    if (r === undefined || here.length === 0) return undefined;
    const md = new vscode.MarkdownString(undefined, true);
    md.isTrusted = { enabledCommands: [SHOW_SITES_COMMAND, NEXT_SITE_COMMAND] };
    for (const l of here) {
      const args: SiteCommandArgs = { trace: r.sites.trace.uri.toString(), sites: [{ file: l.site.file, line: l.site.line }] };
      const encoded = encodeURIComponent(JSON.stringify([args]));
      md.appendMarkdown(hoverTables(l.site, r.sites.index.profile, rangeNote(r.sites)));
      md.appendMarkdown(`\n\n[Show in timeline](command:${SHOW_SITES_COMMAND}?${encoded}) · [Next occurrence](command:${NEXT_SITE_COMMAND}?${encoded})\n\n`);
    }
    return new vscode.Hover(md, document.lineAt(position.line).range);
  }
}
