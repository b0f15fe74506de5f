/**
 * The source side's commands and status bar item: "Show in timeline" / "Next occurrence" (a
 * `file:line` search in the trace's timeline, stepped with F3 / Shift+F3), "Choose trace for
 * source numbers", the heat map toggle, and the list of the sites of the selected region.
 */
import * as vscode from 'vscode';
import { siteQueryText } from '../../core/search/siteQuery';
import { formatSeconds } from '../../core/stats/siteText';
import { NEXT_SITE_COMMAND, SHOW_SITES_COMMAND, type SiteCommandArgs } from './lensProviders';
import type { SiteHeatMap } from './heatMap';
import type { FollowableTrace, SiteNumbers } from './siteNumbers';
import type { TraceDocument } from '../traceDocument';
import { addColouring, removeColourings } from './colourings';

export interface SiteCommandHost {
  readonly numbers: SiteNumbers;
  readonly heatMap: SiteHeatMap;
  readonly traces: () => readonly FollowableTrace[];
  /** Opens the timeline of `trace` and runs a search for `text` (again: the next match). */
  readonly searchInTimeline: (trace: vscode.Uri, text: string) => boolean;
  /** The open trace document of `uri` (code colourings). */
  readonly documentOf: (trace: vscode.Uri) => TraceDocument | undefined;
}

export const CHOOSE_TRACE_COMMAND = 'mpeTrace.chooseSourceTrace';
export const TOGGLE_HEAT_MAP_COMMAND = 'mpeTrace.toggleSourceHeatMap';
export const REGION_SITES_COMMAND = 'mpeTrace.showRegionSites';
export const COLOUR_IN_TRACE_COMMAND = 'mpeTrace.colourInTrace';
export const REMOVE_COLOURINGS_COMMAND = 'mpeTrace.removeTraceColourings';

function isRgb(x: unknown): x is readonly [number, number, number] {
  return Array.isArray(x) && x.length === 3 && x.every((v) => Number.isInteger(v) && v >= 0 && v <= 255);
}

function isArgs(x: unknown): x is SiteCommandArgs {
  const a = x as SiteCommandArgs | undefined;
  return typeof a?.trace === 'string' && Array.isArray(a.sites) && a.sites.every((s) => typeof s?.file === 'string' && Number.isSafeInteger(s.line));
}

/** From the command's arguments (CodeLens, hover) or the active text editor's selected lines. */
async function siteArgs(host: SiteCommandHost, arg: unknown): Promise<SiteCommandArgs | undefined> {
  if (isArgs(arg)) return arg;
  const editor = vscode.window.activeTextEditor;
  const sites = await host.numbers.current();
  if (editor === undefined || sites === undefined) return undefined;
  const sel = editor.selection;
  const last = sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line - 1 : sel.end.line;
  const found = await host.numbers.sitesOnLines(editor.document.uri, sel.start.line, last);
  return { trace: sites.trace.uri.toString(), sites: found.map((s) => ({ file: s.file, line: s.line })) };
}

async function showSites(host: SiteCommandHost, arg: unknown): Promise<boolean> {
  const args = await siteArgs(host, arg);
  if (args === undefined) {
    void vscode.window.showInformationMessage('Open a trace in the timeline first: its recorded source lines are what "Show in timeline" finds.');
    return false;
  }
  if (args.sites.length === 0) {
    void vscode.window.showInformationMessage('No recorded source location of the trace on the selected lines.');
    return false;
  }
  return host.searchInTimeline(vscode.Uri.parse(args.trace), siteQueryText(args.sites));
}

export function registerSiteCommands(context: vscode.ExtensionContext, host: SiteCommandHost): void {
  const status = vscode.window.createStatusBarItem('mpeTrace.sourceTrace', vscode.StatusBarAlignment.Right, 90);
  status.name = 'MPE trace for source numbers';
  status.command = CHOOSE_TRACE_COMMAND;
  const update = (): void => {
    const t = host.numbers.followed();
    void vscode.commands.executeCommand('setContext', 'mpeTrace.traceOpen', t !== undefined);
    if (t === undefined) return status.hide();
    const name = t.uri.path.slice(t.uri.path.lastIndexOf('/') + 1);
    status.text = `$(pulse) ${name}${t.range ? ' (range)' : ''}`;
    status.tooltip = `Source numbers (CodeLens, hover${host.heatMap.enabled ? ', heat map' : ''}) from ${t.uri.fsPath || t.uri.path}${host.numbers.pinnedUri ? ' (chosen)' : ' (last active trace editor)'}; click to choose another open trace`;
    status.show();
  };
  update();
  context.subscriptions.push(
    status,
    host.numbers.onDidChange(update),
    vscode.commands.registerCommand(SHOW_SITES_COMMAND, (arg: unknown) => showSites(host, arg)),
    vscode.commands.registerCommand(NEXT_SITE_COMMAND, (arg: unknown) => showSites(host, arg)),
    vscode.commands.registerCommand(COLOUR_IN_TRACE_COMMAND, async (arg: unknown) => {
      const args = await siteArgs(host, arg);
      const doc = args !== undefined ? host.documentOf(vscode.Uri.parse(args.trace)) : undefined;
      if (args === undefined || doc === undefined) {
        void vscode.window.showInformationMessage(
          'Open a trace in the timeline first: "Colour in Trace" colours its drawables from the selected source lines.',
        );
        return false;
      }
      if (args.sites.length === 0) {
        void vscode.window.showInformationMessage('No recorded source location of the trace on the selected lines.');
        return false;
      }
      const rgb = (arg as { rgb?: unknown } | undefined)?.rgb;
      return addColouring(doc, args.sites, isRgb(rgb) ? rgb : undefined);
    }),
    vscode.commands.registerCommand(REMOVE_COLOURINGS_COMMAND, async (arg: unknown) => {
      const a = arg as { trace?: unknown; all?: unknown } | undefined;
      const uri = typeof a?.trace === 'string' ? vscode.Uri.parse(a.trace) : host.numbers.followed()?.uri;
      const doc = uri !== undefined ? host.documentOf(uri) : undefined;
      if (doc !== undefined) await removeColourings(doc, a?.all === true);
    }),
    vscode.commands.registerCommand(TOGGLE_HEAT_MAP_COMMAND, () => {
      const on = host.heatMap.toggle();
      update();
      return on;
    }),
    vscode.commands.registerCommand(CHOOSE_TRACE_COMMAND, async (uri?: unknown) => {
      if (uri instanceof vscode.Uri || typeof uri === 'string') {
        host.numbers.pin(typeof uri === 'string' ? vscode.Uri.parse(uri) : uri);
        return;
      }
      const follow = { label: '$(history) Follow the last active trace editor', uri: undefined as vscode.Uri | undefined };
      const items = [
        follow,
        ...host.traces().map((t) => ({
          label: t.uri.path.slice(t.uri.path.lastIndexOf('/') + 1),
          description: t.uri.fsPath || t.uri.path,
          uri: t.uri as vscode.Uri | undefined,
        })),
      ];
      const pick = await vscode.window.showQuickPick(items, { placeHolder: 'Trace whose numbers the source files show' });
      if (pick !== undefined) host.numbers.pin(pick.uri);
    }),
    vscode.commands.registerCommand(REGION_SITES_COMMAND, async () => {
      const sites = await host.numbers.current();
      if (sites === undefined) return;
      const all = sites.index.profile.sites.filter((s) => s.count > 0);
      const files = new Set(all.map((s) => s.file));
      const items = all.map((s) => ({ label: `${s.file}:${s.line}`, description: `${s.count}× · ${formatSeconds(s.total)}`, site: s }));
      const pick = await vscode.window.showQuickPick(items, {
        placeHolder: `${all.length} sites in ${files.size} files (${sites.trace.range ? 'selected range' : 'whole trace'})`,
      });
      if (pick === undefined) return;
      const uri = await host.numbers.localUriOf(pick.site.file);
      if (uri === undefined) return void vscode.window.showWarningMessage(`${pick.site.file} is not found in the workspace (see mpeTrace.sourcePathMappings).`);
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
      const line = Math.min(Math.max(0, pick.site.line - 1), doc.lineCount - 1);
      await vscode.window.showTextDocument(doc, { selection: new vscode.Range(line, 0, line, 0) });
    }),
  );
}
