// The timeslice panel: what every shown row is doing at one time (the cursor's, or a pinned one):
// its stack of states, outermost first, or the shares of a preview box when zoomed out.
import type { CategoryInfo } from '../src/protocol/webview';
import type { SliceRow } from './timeline/timeslice';

export interface TimesliceState {
  readonly time: number;
  readonly timeText: string;
  readonly rows: readonly SliceRow[];
  /** Shown rows beyond those listed. */
  readonly more: number;
}

function swatch(c: CategoryInfo | undefined) {
  const [r, g, b] = c?.rgba ?? [128, 128, 128];
  return <span class="swatch" style={{ background: `rgb(${r},${g},${b})` }} />;
}

export function TimeslicePanel(props: {
  readonly slice: TimesliceState | undefined;
  readonly categories: readonly CategoryInfo[];
  readonly rowLabel: (row: number) => string;
  readonly close: () => void;
}) {
  const byIndex = new Map(props.categories.map((c) => [c.index, c]));
  const s = props.slice;
  return (
    <div class="timeslice" role="region" aria-label="Timeslice">
      <div class="timeslice-head">
        <span>{s ? `at ${s.timeText}` : 'hover the timeline'}</span>
        <button type="button" class="timeslice-close" title="Close (T)" onClick={props.close}>
          ✕
        </button>
      </div>
      <table>
        <tbody>
          {s?.rows.map((r) => (
            <tr key={r.row}>
              <th>{props.rowLabel(r.row)}</th>
              <td>
                {r.summary ? (
                  r.summary.slice(0, 3).map((p) => (
                    <span class="slice-item" key={p.category}>
                      {swatch(byIndex.get(p.category))}
                      {byIndex.get(p.category)?.name ?? p.category} {(p.share * 100).toFixed(0)}%
                    </span>
                  ))
                ) : r.stack.length === 0 ? (
                  <span class="slice-idle">—</span>
                ) : (
                  r.stack.map((cat, i) => (
                    <span class="slice-item" key={i}>
                      {i > 0 ? '› ' : ''}
                      {swatch(byIndex.get(cat))}
                      {byIndex.get(cat)?.name ?? cat}
                    </span>
                  ))
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {s && s.more > 0 && <div class="timeslice-more">… {s.more} more rows</div>}
    </div>
  );
}
