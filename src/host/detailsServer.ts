/**
 * Answers a timeline's `requestDetails`: finds the clicked drawable in the document's file and
 * returns its popup contents, with source locations replaced by site ids (see sourceSites.ts).
 */
import type { DetailsMessage, DrawableDetails, RequestDetailsMessage, SiteRef } from '../protocol/webview';
import { describeDrawable, findByIdentity, findDrawable, type DrawableRef } from '../core/query/details';
import type { WindowIdentities } from '../core/query/buildWindow';
import type { Primitive, SourceLocation } from '../core/model/types';
import type { Slog2File } from '../core/formats/slog2/slog2File';
import type { RowLayout } from '../core/query/rows';
import type { TraceDocument } from './traceDocument';

/** Adds what other analyses know about a drawable (e.g. its wait state) to its popup. */
export type DetailsAnnotator = (file: Slog2File, details: DrawableDetails, rowOfLine: (lineID: number) => number | undefined) => DrawableDetails;

/** Where the rows of a payload the editor sent came from (its window server keeps them). */
export type PayloadIdentities = (at: NonNullable<RequestDetailsMessage['ref']['at']>, generation: number) => WindowIdentities | undefined;

/** The drawable a webview's reference names: by its payload row's identity when kept, else by kind, rows and times. */
export async function resolveDrawable(
  file: Slog2File,
  layout: RowLayout,
  ref: DrawableRef,
  generation: number,
  identities: PayloadIdentities | undefined,
): Promise<Primitive | undefined> {
  const ids = ref.at !== undefined ? identities?.(ref.at, generation) : undefined;
  return (ids !== undefined ? await findByIdentity(file, layout, ids, ref) : undefined) ?? (await findDrawable(file, layout, ref));
}

export async function answerDetails(
  doc: TraceDocument,
  m: RequestDetailsMessage,
  annotate?: DetailsAnnotator,
  identities?: PayloadIdentities,
): Promise<DetailsMessage> {
  const state = doc.state;
  const none = (message: string): DetailsMessage => ({ kind: 'details', detailsId: m.detailsId, message });
  if (state.phase !== 'ready' || m.generation !== doc.generation) return none('the trace was reloaded');
  const layout = state.layouts[m.ref.mapIndex];
  if (layout === undefined) return none('unknown Y map');
  try {
    // The file attaches each drawable's source location as it parses a node (read once at open).
    // The payload row's identity (kept by the editor's window server) names the drawable exactly;
    // without it (an evicted payload, a test) the drawable is searched by kind, rows and times.
    const p = await resolveDrawable(state.file, layout, m.ref, m.generation, identities);
    if (p === undefined) return none('drawable not found in the file');
    const { source, ...rest } = describeDrawable(state.file, p);
    const site = (loc: SourceLocation | undefined): SiteRef | undefined =>
      loc === undefined ? undefined : { siteId: doc.sites.idOf(loc), file: loc.file, line: loc.line };
    const start = site(source?.start);
    const end = site(source?.end);
    let details: DrawableDetails = { ...rest, sources: { ...(start ? { start } : {}), ...(end ? { end } : {}) } };
    if (annotate !== undefined) details = annotate(state.file, details, (lineID) => layout.rowOfLine.get(lineID));
    return { kind: 'details', detailsId: m.detailsId, details };
  } catch (e) {
    return none(e instanceof Error ? e.message : String(e));
  }
}
