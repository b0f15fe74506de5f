// What the comparison reads of a timeline editor: its opened file and its file name.
import type { Slog2File } from '../../core/formats/slog2/slog2File';
import type { TimelineEditor } from '../traceEditorProvider';

/** The editor's opened file, once read. */
export function fileOf(e: TimelineEditor): Slog2File | undefined {
  const s = e.document.state;
  return s.phase === 'ready' ? s.file : undefined;
}

/** The editor's file name (no directories). */
export function nameOf(e: TimelineEditor): string {
  const p = e.document.uri.path;
  return p.slice(p.lastIndexOf('/') + 1);
}
