/**
 * Source ↔ trace in the editor (TraceVis §2.4): per recorded source line CodeLens and hover
 * numbers, the heat map, region → code highlights, and "Show in timeline" (a `file:line` search).
 */
import * as vscode from 'vscode';
import type { AnalysisClient } from '../../worker/analysisClient';
import type { TraceEditorProvider } from '../traceEditorProvider';
import { SiteHeatMap } from './heatMap';
import { SiteLensProvider } from './lensProviders';
import { RegionHighlight } from './regionHighlight';
import { registerSiteCommands } from './siteCommands';
import { SiteNumbers } from './siteNumbers';

export interface SourceLens {
  readonly numbers: SiteNumbers;
  readonly heatMap: SiteHeatMap;
  readonly region: RegionHighlight;
}

/** Recorded sites can be in any text file the user opens (C, C++, Fortran, …). */
const SELECTOR: vscode.DocumentSelector = [{ scheme: 'file' }, { scheme: 'vscode-remote' }];

export function registerSourceLens(
  context: vscode.ExtensionContext,
  traceEditors: TraceEditorProvider,
  analysis: AnalysisClient,
  log: vscode.LogOutputChannel,
): SourceLens {
  const numbers = new SiteNumbers({
    traces: () => traceEditors.openTraces(),
    onDidChangeTraces: traceEditors.onDidChangeActiveTrace,
    analysis,
    sourceLinks: traceEditors.sourceLinks,
    log,
  });
  const heatMap = new SiteHeatMap(numbers);
  const region = new RegionHighlight(numbers);
  const lenses = new SiteLensProvider(numbers);
  context.subscriptions.push(
    numbers,
    heatMap,
    region,
    vscode.languages.registerCodeLensProvider(SELECTOR, lenses),
    vscode.languages.registerHoverProvider(SELECTOR, lenses),
  );
  registerSiteCommands(context, {
    numbers,
    heatMap,
    traces: () => traceEditors.openTraces(),
    searchInTimeline: (uri, text) => traceEditors.searchInTimeline(uri, text),
    documentOf: (uri) => traceEditors.documentOf(uri),
  });
  return { numbers, heatMap, region };
}
