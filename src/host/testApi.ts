/**
 * The small API `activate()` returns, used by the e2e tests (and handy for the bench): what each
 * open timeline editor reported last — its view state, its last painted frame and payload.
 */
import * as vscode from 'vscode';
import type { SourceLens } from './sourceLens';
import type { SiteMarks } from '../core/search/siteMarks';
import type { EditorReport, TraceEditorProvider } from './traceEditorProvider';
import type { ChainMessage, DetailsMessage, DrawableRef, ViewState } from '../protocol/webview';
import type { AnalysisResult } from '../core/analysis/types';
import type { Alignment } from '../protocol/compare';
import type { CompareController } from './compare/compareController';

/** The comparison in force, as the Compare panel shows it (for tests). */
export interface CompareReport {
  readonly a: string;
  readonly b: string;
  readonly shift: number;
  readonly alignment: Alignment;
  readonly computing: boolean;
  /** The wait-state analysis of both ranges runs (then the rows gain waitA/waitB). */
  readonly computingWaits: boolean;
  readonly error?: string;
  /** Category rows in panel order (largest |delta| first). Iterations: their start times per run. */
  readonly categories?: readonly {
    readonly name: string;
    readonly delta: number;
    readonly ratio: number | null;
    readonly waitA?: number;
    readonly waitB?: number;
  }[];
  /** Call-site rows in panel order ("file:line"). */
  readonly sites?: readonly string[];
  readonly iterations?: { readonly a: readonly number[]; readonly b: readonly number[]; readonly marker: string | null };
}

export interface MpeTraceApi {
  /** URIs of the documents with an open timeline editor. */
  documents(): string[];
  /** Every open timeline editor's last report. */
  editors(): EditorReport[];
  /** The view state last reported by an editor of `uri` (the active one when several). */
  lastViewState(uri: string): ViewState | undefined;
  /** Resolves when an editor of `uri` has painted data (or rejects after `timeoutMs`). */
  waitForPaint(uri: string, timeoutMs?: number): Promise<EditorReport>;
  /** The popup details of a drawable of an open trace, as its webview would get them. */
  drawableDetails(uri: string, ref: DrawableRef): Promise<DetailsMessage>;
  /** The dependence chain of a state of an open trace, as its webview would get it. */
  dependenceChain(uri: string, ref: DrawableRef, direction: 'backward' | 'forward'): Promise<ChainMessage>;
  /** "Go to source" of a site id from `drawableDetails`: `uri:line` opened, or why not. */
  openSource(uri: string, siteId: number, beside?: boolean): Promise<string>;
  /** The wait-state analysis of an open trace, once done (and its category indices by name). */
  analysis?(uri: string): { readonly result: AnalysisResult; readonly categories: Record<string, number> } | undefined;
  /** The comparison in force, if any. */
  compare(): CompareReport | undefined;
  /** Realigns the comparison in force (as the Compare panel's alignment control does). */
  alignCompare(alignment: Alignment): void;
  /** A click on a row of the Compare panel: a call site (index into `sites`) or a category. */
  highlightCompare(target: { readonly category?: string; readonly site?: number }): void;
  /** Sets the selected range of the timeline of `uri` as a Ctrl+drag does (undefined: none); with `rows` (of Y map `mapIndex`) a region. */
  selectRange(uri: string, range: readonly [number, number] | undefined, rows?: readonly number[], mapIndex?: number): void;
  /** Region → code: the 0-based lines highlighted in the visible editor of `docUri`, after repainting. */
  regionLines(docUri: string): Promise<number[]>;
  /** The source heat map: the 0-based lines painted per step (coolest first) in the visible editor of `docUri`. */
  heatMapLines(docUri: string): Promise<number[][]>;
  /** The site marks (shown sites, code colourings) of the open trace `uri`. */
  siteMarks(uri: string): SiteMarks | undefined;
}

/** What the test API needs from the wait-state analysis (src/host/traceAnalysis.ts). */
export interface AnalysisLookup {
  analysisOf(uri: string): { readonly result: AnalysisResult; readonly categories: Record<string, number> } | undefined;
}

function compareReport(compare: CompareController | undefined): CompareReport | undefined {
  const c = compare?.state;
  if (c === undefined) return undefined;
  return {
    a: c.session.a.document.uri.toString(),
    b: c.session.b.document.uri.toString(),
    shift: c.session.shift,
    alignment: c.alignment,
    computing: c.computing,
    computingWaits: c.computingWaits === true,
    ...(c.error !== undefined ? { error: c.error } : {}),
    ...(c.diff
      ? {
          categories: c.diff.categories.map((r) => ({
            name: r.name,
            delta: r.delta,
            ratio: r.ratio ?? null,
            ...(r.waitA !== undefined ? { waitA: r.waitA, waitB: r.waitB } : {}),
          })),
          sites: c.diff.sites.map((s) => `${s.file}:${s.line}`),
        }
      : {}),
    ...(c.profiles
      ? { iterations: { a: c.profiles.a.iterations.starts, b: c.profiles.b.iterations.starts, marker: c.profiles.a.iterations.marker ?? null } }
      : {}),
  };
}

export function makeTestApi(provider: TraceEditorProvider, analyses?: AnalysisLookup, compare?: CompareController, lens?: SourceLens): MpeTraceApi {
  const of = (uri: string): EditorReport[] => provider.reports().filter((r) => r.uri === uri || decodeURIComponent(r.uri) === uri);
  return {
    documents: () => [...new Set(provider.reports().map((r) => r.uri))],
    editors: () => provider.reports(),
    lastViewState: (uri) => {
      const rs = of(uri);
      return (rs.find((r) => r.active) ?? rs[0])?.viewState;
    },
    drawableDetails: (uri, ref) => provider.details(uri, ref),
    dependenceChain: (uri, ref, direction) => provider.chain(uri, ref, direction),
    openSource: (uri, siteId, beside = false) => provider.openSource(uri, siteId, beside),
    analysis: (uri) => analyses?.analysisOf(uri),
    compare: () => compareReport(compare),
    alignCompare: (alignment) => compare?.align(alignment),
    highlightCompare: (target) => compare?.highlight(target),
    selectRange: (uri, range, rows, mapIndex) => {
      for (const e of provider.editorsOf(vscode.Uri.parse(uri))) e.selectRange(range, rows, mapIndex);
    },
    siteMarks: (uri) => provider.documentOf(vscode.Uri.parse(uri))?.siteMarks,
    heatMapLines: async (docUri) => {
      const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === docUri);
      return editor && lens ? lens.heatMap.paint(editor) : [];
    },
    regionLines: async (docUri) => {
      const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === docUri);
      return editor && lens ? lens.region.paint(editor) : [];
    },
    waitForPaint: (uri, timeoutMs = 20000) =>
      new Promise((resolve, reject) => {
        const started = Date.now();
        const poll = (): void => {
          const hit = of(uri).find((r) => r.painted !== undefined);
          if (hit) return resolve(hit);
          if (Date.now() - started > timeoutMs) return reject(new Error(`no paint of ${uri} within ${timeoutMs} ms`));
          setTimeout(poll, 50);
        };
        poll();
      }),
  };
}
