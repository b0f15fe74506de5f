// The line over a CLOG2's preview: which part of the file is shown, and how far the conversion of
// the whole file has got, with the time left (snapshots of its output replace the preview as it
// goes, and its trace when done).
import { useRef } from 'preact/hooks';
import type { ConversionPreview } from '../src/protocol/webview';
import { formatBytes, formatSeconds } from './stats/format';
import { formatRemaining, ProgressRate } from './progressRate';

/**
 * `timeRange`: the preview's (its first and last drawable). Give it a `key` per conversion (the
 * generation of its first preview; its snapshots keep it): the rate is of one conversion.
 */
export function PreviewBanner(props: { readonly preview: ConversionPreview; readonly timeRange: readonly [number, number]; readonly progress: number }) {
  const { preview, timeRange, progress } = props;
  const rate = useRef(new ProgressRate()).current;
  if (progress > 0) rate.note(progress, performance.now());
  const left = rate.remainingMs();
  const percent = Math.floor(Math.max(0, Math.min(1, progress)) * 100);
  const run = preview.runEnd !== undefined && preview.runEnd > timeRange[1] ? ` of a ${formatSeconds(preview.runEnd - timeRange[0])} run` : '';
  return (
    <div class="status status-preview" role="status">
      Preview: the first {formatSeconds(timeRange[1] - timeRange[0])}
      {run}, in the first {formatBytes(preview.shownBytes)} of {formatBytes(preview.totalBytes)}. Converting the whole file: {percent} %
      {left !== undefined ? ` (${formatRemaining(left)})` : ''}; the view fills in as it goes.
      <progress max={1} value={progress} />
    </div>
  );
}
