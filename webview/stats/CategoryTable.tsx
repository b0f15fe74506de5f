// Per-category table: sortable columns, colour swatches; clicking a name highlights the category
// in the timeline, clicking min/max jumps to the shortest/longest instance.
import type { CategoryStat, InstanceRef } from '../../src/core/stats/types';
import { formatCount, formatPercent, formatSeconds, rgbaCss } from './format';
import { sortCategories } from './model';
import type { SortKey } from './vscodeApi';

interface Props {
  readonly categories: readonly CategoryStat[];
  readonly sortKey: SortKey;
  readonly descending: boolean;
  readonly onSort: (key: SortKey) => void;
  readonly onHighlight: (index: number) => void;
  readonly onReveal: (index: number, instance: InstanceRef) => void;
  /** Waiting seconds per state name (wait-state analysis of the same range), when known. */
  readonly waiting?: Readonly<Record<string, number>>;
}

const COLUMNS: readonly { key: SortKey; label: string; title: string }[] = [
  { key: 'name', label: 'Category', title: 'Category (click a name to highlight it in the timeline)' },
  { key: 'count', label: 'Count', title: 'Drawables overlapping the range' },
  { key: 'inclusive', label: 'Incl.', title: 'Inclusive time: durations clipped to the range, summed over timelines' },
  { key: 'exclusive', label: 'Excl.', title: 'Exclusive time: inclusive minus directly nested states on the same timeline' },
  { key: 'min', label: 'Min', title: 'Shortest full duration (click to jump to it)' },
  { key: 'mean', label: 'Mean', title: 'Mean full duration' },
  { key: 'max', label: 'Max', title: 'Longest full duration (click to jump to it)' },
  { key: 'share', label: 'Share', title: 'Inclusive time / range length (summed over timelines, can exceed 100 %)' },
];

/** A duration that jumps to its instance in the timeline when there is one to jump to. */
function InstanceLink(p: { value: number | undefined; instance: InstanceRef | undefined; what: string; onReveal: (i: InstanceRef) => void }) {
  if (p.instance === undefined) return <>{p.value === undefined ? '–' : formatSeconds(p.value)}</>;
  const instance = p.instance;
  return (
    <button class="link" title={`Jump to the ${p.what} instance (line ${instance.lineID}, t = ${instance.earliest})`} onClick={() => p.onReveal(instance)}>
      {formatSeconds(p.value)}
    </button>
  );
}

export function CategoryTable(p: Props) {
  const rows = sortCategories(p.categories, p.sortKey, p.descending);
  return (
    <div class="table-wrap">
      <table class="stats-table" aria-label="Statistics per category">
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th
                key={c.key}
                title={c.title}
                class={c.key === 'name' ? 'text' : 'num'}
                aria-sort={p.sortKey === c.key ? (p.descending ? 'descending' : 'ascending') : 'none'}
              >
                <button class="link" onClick={() => p.onSort(c.key)}>
                  {c.label}
                  {p.sortKey === c.key ? (p.descending ? ' ▾' : ' ▴') : ''}
                </button>
              </th>
            ))}
            {p.waiting !== undefined && (
              <th class="num" title="Time spent waiting for another process inside this state (late sender/receiver, collective waits)">
                Waiting
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => (
            <tr key={c.index}>
              <td class="text">
                <span class="swatch" style={{ background: rgbaCss(c.rgba) }} />
                <button class="link" title={`${c.kind} ${c.index}: highlight in the timeline`} onClick={() => p.onHighlight(c.index)}>
                  {c.name}
                </button>
              </td>
              <td class="num">{formatCount(c.count)}</td>
              <td class="num">{c.kind === 'event' ? '–' : formatSeconds(c.inclusive)}</td>
              <td class="num">{c.kind === 'state' ? formatSeconds(c.exclusive) : '–'}</td>
              <td class="num">
                <InstanceLink value={c.kind === 'event' ? undefined : c.min} instance={c.kind === 'event' ? undefined : c.shortest} what="shortest" onReveal={(i) => p.onReveal(c.index, i)} />
              </td>
              <td class="num">{c.kind === 'event' ? '–' : formatSeconds(c.mean)}</td>
              <td class="num">
                <InstanceLink value={c.kind === 'event' ? undefined : c.max} instance={c.kind === 'event' ? undefined : c.longest} what="longest" onReveal={(i) => p.onReveal(c.index, i)} />
              </td>
              <td class="num">{c.kind === 'event' ? '–' : formatPercent(c.share)}</td>
              {p.waiting !== undefined && <td class="num">{c.kind === 'state' && p.waiting[c.name] !== undefined ? formatSeconds(p.waiting[c.name]) : '–'}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
