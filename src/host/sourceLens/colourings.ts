/**
 * "Colour in Trace" (TraceVis §2.5): the selected source lines' sites get a colour in the trace's
 * timeline; colourings are stored in the trace's sidecar `<trace>.mpetrace.json` (read when the
 * trace opens, written on every change) so they persist and can be shared; removable.
 */
import * as vscode from 'vscode';
import { colouringsOf, withColourings } from '../../core/search/colourings';
import { EMPTY_SIDECAR, parseSidecar, serializeSidecar, SIDECAR_SUFFIX } from '../../core/bookmarks/sidecar';
import { MAX_SITE_COLOURINGS } from '../../core/query/windowColumns';
import { siteQueryText } from '../../core/search/siteQuery';
import type { SiteColouring } from '../../core/search/siteMarks';
import { workspaceFsIo } from '../bookmarkStore';
import type { TraceDocument } from '../traceDocument';

/** Distinct colours (Sasha Trubetskoy's list), named for the quick pick. */
export const COLOURING_PALETTE: readonly { readonly name: string; readonly rgb: readonly [number, number, number] }[] = [
  { name: 'red', rgb: [230, 25, 75] },
  { name: 'green', rgb: [60, 180, 75] },
  { name: 'blue', rgb: [0, 130, 200] },
  { name: 'orange', rgb: [245, 130, 48] },
  { name: 'purple', rgb: [145, 30, 180] },
  { name: 'cyan', rgb: [70, 240, 240] },
  { name: 'magenta', rgb: [240, 50, 230] },
  { name: 'lime', rgb: [210, 245, 60] },
  { name: 'pink', rgb: [250, 190, 212] },
  { name: 'teal', rgb: [0, 128, 128] },
  { name: 'brown', rgb: [170, 110, 40] },
  { name: 'navy', rgb: [0, 0, 128] },
];

function sidecarOf(doc: TraceDocument): vscode.Uri {
  return doc.uri.with({ path: doc.uri.path + SIDECAR_SUFFIX });
}

/** Reads the colourings of `doc` from its sidecar into its site marks (once per document). */
export async function loadColourings(doc: TraceDocument, log?: vscode.LogOutputChannel): Promise<void> {
  if (doc.colouringsLoaded) return;
  doc.colouringsLoaded = true;
  const io = workspaceFsIo(sidecarOf(doc));
  const text = await io.read().catch(() => undefined);
  if (text === undefined) return;
  const parsed = parseSidecar(text, io.name);
  if (!parsed.ok) return log?.warn(parsed.error);
  const colourings = colouringsOf(parsed.doc.extra);
  if (colourings.length > 0) doc.setSiteMarks({ ...doc.siteMarks, colourings });
}

/** Sets the colourings of `doc` and writes them to its sidecar (bookmarks and unknown fields kept). */
export async function saveColourings(doc: TraceDocument, colourings: readonly SiteColouring[]): Promise<void> {
  doc.setSiteMarks({ ...doc.siteMarks, colourings });
  const io = workspaceFsIo(sidecarOf(doc));
  const text = await io.read();
  const parsed = text === undefined ? { ok: true as const, doc: EMPTY_SIDECAR } : parseSidecar(text, io.name);
  if (!parsed.ok) throw new Error(`${io.name}: ${parsed.error} (colourings not saved)`);
  await io.write(serializeSidecar({ entries: parsed.doc.entries, extra: withColourings(parsed.doc.extra, colourings) }));
}

/** Adds a colouring of `sites` (pick a colour when `rgb` is not given). */
export async function addColouring(
  doc: TraceDocument,
  sites: readonly { file: string; line: number }[],
  rgb?: readonly [number, number, number],
): Promise<boolean> {
  const current = doc.siteMarks.colourings;
  if (current.length >= MAX_SITE_COLOURINGS) {
    void vscode.window.showWarningMessage(`A trace can have at most ${MAX_SITE_COLOURINGS} code colourings; remove one first.`);
    return false;
  }
  let colour = rgb;
  if (colour === undefined) {
    const used = new Set(current.map((c) => c.rgb.join(',')));
    const items = COLOURING_PALETTE.map((c) => ({
      label: c.name,
      description: `rgb(${c.rgb.join(', ')})${used.has(c.rgb.join(',')) ? ' · in use' : ''}`,
      rgb: c.rgb,
    }));
    const pick = await vscode.window.showQuickPick(items, { placeHolder: `Colour for ${siteQueryText(sites)}` });
    if (pick === undefined) return false;
    colour = pick.rgb;
  }
  const text = siteQueryText(sites);
  await saveColourings(doc, [...current.filter((c) => c.sites !== text), { sites: text, rgb: colour }]);
  return true;
}

/** Quick pick (several) of the colourings to remove; all of them when `all`. */
export async function removeColourings(doc: TraceDocument, all = false): Promise<void> {
  const current = doc.siteMarks.colourings;
  if (current.length === 0) return void vscode.window.showInformationMessage('This trace has no code colourings.');
  let keep: SiteColouring[] = [];
  if (!all) {
    const picks = await vscode.window.showQuickPick(
      current.map((c) => ({ label: c.sites, description: `rgb(${c.rgb.join(', ')})`, c })),
      { canPickMany: true, placeHolder: 'Code colourings to remove' },
    );
    if (picks === undefined || picks.length === 0) return;
    const gone = new Set(picks.map((p) => p.c));
    keep = current.filter((c) => !gone.has(c));
  }
  await saveColourings(doc, keep);
}
