/**
 * Windows that read every row of a wide trace (the overview strip, "fit all rows": seconds of
 * parsing at 10^4 ranks) are built in a worker thread, so the extension host keeps answering the
 * timeline, hovers and commands meanwhile. The worker opens the same SLOG-2 by path; its payload
 * equals the one built here. A file not on disk, or a worker that crashed, builds here as before.
 */
import { OffThreadUnavailable, type CachedWindow, type WindowServerOptions } from '../core/query/windowServer';
import { readsEveryRow } from '../core/query/windowService';
import { AnalysisFailed, type AnalysisClient } from '../worker/analysisClient';
import { FileSource } from '../io/fileSource';
import type { TraceDocument } from './traceDocument';

export function offThreadWindows(client: AnalysisClient, document: TraceDocument): NonNullable<WindowServerOptions['offThread']> {
  return (request, layout, depth, signal) => {
    const s = document.state;
    const path = s.phase === 'ready' && s.file.source instanceof FileSource ? s.file.source.name : undefined;
    if (path === undefined || !readsEveryRow(layout.labels.length, request.rowStart, request.rowEnd, document.rowIndex !== undefined)) return undefined;
    const marks = document.siteMarker !== undefined ? document.siteMarks : undefined;
    return client.window(path, request, depth, { signal, ...(marks !== undefined ? { marks } : {}) }).then(
      (w): CachedWindow => w,
      (e: unknown) => {
        if (e instanceof AnalysisFailed && e.reason === 'failed') throw new OffThreadUnavailable(e.message);
        throw e;
      },
    );
  };
}
